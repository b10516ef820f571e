/** A run sent with tools: each level's tool-call verdicts as a table, the validity shares and the time to first tool-call token as charts. */
import type { LevelResult } from '../../core/index.js';
import { toolCallCharts, toolCallTable } from '../view/index.js';
import { ChartGrid } from './chart-figure.js';
import { LevelTable } from './level-table.js';

export function ToolsPanel({ levels }: { levels: readonly LevelResult[] }) {
  const table = toolCallTable(levels);
  if (table.rows.length === 0) return null;
  return (
    <section class="charts" aria-labelledby="tools-title">
      <h3 id="tools-title">Tool calls</h3>
      <p class="hint">
        Each request sent with tools is judged once: valid (arguments parse and match the tool's schema), invalid (they parse but do not match), unparsed (they
        are not JSON) or missing (a call was required and none came). Shares are of the judged requests; answers without a call under tool_choice auto are
        counted apart.
      </p>
      <LevelTable headers={table.headers} rows={table.rows} label="Tool calls by level" />
      <ChartGrid charts={toolCallCharts(levels)} />
    </section>
  );
}
