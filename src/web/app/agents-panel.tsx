/** Agent-trace levels: session and job goodput, makespans and both cache figures per level, session and job goodput against load and the makespan as charts, then each level's jobs with their critical paths. */
import type { LevelResult } from '../../core/index.js';
import { AGENT_JOB_HEADERS, AGENT_LEVEL_HEADERS, agentCharts, agentJobRows, agentLevelRows } from '../view/index.js';
import { ChartGrid } from './chart-figure.js';
import { LevelTable as Table } from './level-table.js';

export function AgentsPanel({ levels }: { levels: readonly LevelResult[] }) {
  const rows = agentLevelRows(levels);
  if (rows.length === 0) return null;
  return (
    <section class="charts" aria-labelledby="agents-title">
      <h3 id="agents-title">Agent sessions and jobs</h3>
      <p class="hint">
        A session meets its objective when every turn does; a job (a root agent and all its sub-agents) when all its sessions do, within the job deadline if one
        is set. The theoretical cache hit rate is what a perfect prefix cache would have held; reported is what the server said it served from its cache.
      </p>
      <Table headers={AGENT_LEVEL_HEADERS} rows={rows} label="Agent sessions and jobs by level" />
      <ChartGrid charts={agentCharts(levels)} />
      {levels
        .filter((l) => l.agents)
        .map((l) => {
          const jobs = agentJobRows(l);
          const label = l.load?.label ?? `level ${l.concurrency}`;
          return (
            <div key={`jobs-${l.concurrency}`}>
              <h4>Jobs: {label}</h4>
              <Table headers={AGENT_JOB_HEADERS} rows={jobs.rows} label={`Jobs at ${label}`} textLast />
              {jobs.more > 0 && <p class="hint">{jobs.more} more jobs in the JSON result (levels[].agents.jobList).</p>}
            </div>
          );
        })}
    </section>
  );
}
