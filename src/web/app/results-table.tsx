/**
 * The results table: a real <table> with a caption and header cells, the
 * seed's columns in order, concurrency as the row header, an invalid level's
 * averages greyed with the reason, and a non-zero Failed count in bold red.
 */
import { type LevelResult, levelAxis } from '../../core/index.js';
import type { RunSpec } from '../../store/index.js';
import { type LiveLevel, TABLE_HEADERS, tableCaption, tableRows } from '../view/index.js';

interface Props {
  levels: readonly LevelResult[];
  spec: RunSpec;
  /** Levels still to come while the run is live. */
  planned?: readonly number[];
  live?: LiveLevel | null;
  /** Overrides the caption's first words, e.g. the run's label in a comparison. */
  title?: string;
}

export function ResultsTable({ levels, spec, planned = [], live = null, title }: Props) {
  const rows = tableRows(levels, planned, live);
  const axis = levelAxis(levels);
  return (
    <div class="table-wrap">
      <table class="results">
        <caption>{title
          ? <><strong>{title}.</strong> {spec.promptTokens}-token prompts, {spec.outputTokens} output tokens, thinking {spec.thinking ? 'on' : 'off'}.</>
          : tableCaption(spec, levels)}</caption>
        <thead>
          <tr>
            <th scope="col">{axis.name}</th>
            {TABLE_HEADERS.map((h) => <th scope="col" class="num">{h}</th>)}
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr class={`${r.state} ${r.invalid ? 'invalid' : ''} ${r.clientBound ? 'client-bound' : ''}`}>
              <th scope="row" class="num">{axis.format(r.concurrency)}</th>
              {r.cells.map((c) => (
                <td class={`num ${c.dimmed ? 'dim' : ''}`}>
                  {c.alarm ? <strong class="alarm"><span aria-hidden="true">⚠ </span>{c.text}</strong> : c.text}
                  {c.dimmed && <span class="sr-only"> (invalid)</span>}
                </td>
              ))}
              <td class="status"><div class="status-text">{r.invalid ? <span class="badge bad">{r.status}</span> : r.clientBound ? <span class="badge warn">{r.status}</span> : r.status}</div></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
