/**
 * `goodput run --repeats N` as terminal text: per level, the median of the N
 * runs with their range, `median [min–max]`, in every cell, and which stored
 * run is which. Levels are matched on their value on the load axis; a
 * level's status is judged by every run (invalid, client-bound or not held in
 * any run says so, naming the runs), and the cards, run 1's, are said to be.
 */
import { type LevelResult, type SweepResult, heldShort, levelAxis, levelValue, percentiles } from '../core/index.js';
import { runsOf } from '../contract/index.js';

const CELLS: ReadonlyArray<{ header: string; digits: number; value: (l: LevelResult) => number | null | undefined }> = [
  { header: 'Throughput tok/s', digits: 1, value: (l) => l.throughputTokS },
  { header: 'Per-request tok/s', digits: 1, value: (l) => l.perRequestTokS?.mean },
  { header: 'TTFT p50 (ms)', digits: 1, value: (l) => l.ttftMs?.p50 },
  { header: 'TTFT p95 (ms)', digits: 1, value: (l) => l.ttftMs?.p95 },
  { header: 'TPOT p50 (ms)', digits: 2, value: (l) => l.tpotMs?.p50 },
  { header: 'e2e p50 (ms)', digits: 0, value: (l) => l.e2eMs?.p50 },
];

/** "12.3 [11.9–12.8]" over the runs that have the figure; "—" when none has it. */
export function medianRange(values: ReadonlyArray<number | null | undefined>, digits: number): string {
  const xs = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const p = percentiles(xs, [0, 50, 100]);
  if (p === null) return '—';
  return xs.length === 1 ? p.p50.toFixed(digits) : `${p.p50.toFixed(digits)} [${p.p0.toFixed(digits)}–${p.p100.toFixed(digits)}]`;
}

/** "client-bound in 2 of 3 runs (runs 1, 3)": a level is judged by every run, and names which, so a reader sees whether run 1 (the cards') is one. */
function judged(at: ReadonlyArray<LevelResult | undefined>, is: (l: LevelResult | undefined) => boolean, what: string): string {
  const which = at.flatMap((l, i) => (is(l) ? [i + 1] : []));
  return which.length === 0 ? '' : `${what} in ${which.length} of ${at.length} runs (run${which.length === 1 ? '' : 's'} ${which.join(', ')})`;
}

/** The medians table of a repeated run, or null for a single run. */
export function renderRepeats(result: SweepResult): string | null {
  if (!result.repeats || result.repeats.length === 0) return null;
  const runs = runsOf(result);
  const axis = levelAxis(result.levels);
  const values = [...new Set(runs.flatMap((r) => r.levels.map(levelValue)))].sort((a, b) => a - b);
  const rows = values.map((v) => {
    const at = runs.map((r) => r.levels.find((l) => levelValue(l) === v));
    const status =
      [
        judged(at, (l) => l?.invalid === true, 'invalid'),
        judged(at, (l) => l !== undefined && !l.invalid && l.clientBound.bound, 'client-bound'),
        // As the single run's table marks it: the client kept less load open than the level's label says.
        judged(at, (l) => l !== undefined && !l.invalid && heldShort(l.inFlight), 'not held'),
        judged(at, (l) => l === undefined, 'missing'),
      ]
        .filter(Boolean)
        .join('; ') || 'ok';
    return [
      axis.format(v),
      ...CELLS.map((c) =>
        medianRange(
          at.map((l) => (l === undefined ? null : c.value(l))),
          c.digits,
        ),
      ),
      status,
    ];
  });
  const headers = [axis.name, ...CELLS.map((c) => c.header), 'Status'];
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: readonly string[]) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padStart(widths[i] as number))).join('  ');
  const which = `run 1 is the result's top level; runs 2–${runs.length} are its repeats[0–${runs.length - 2}]`;
  return [
    `Median of ${runs.length} runs per level, [min–max] across them (${which}); a level's status counts every run:`,
    line(headers),
    ...rows.map(line),
    "The cards below are run 1's: their peaks leave out the levels invalid or client-bound in run 1.",
  ].join('\n');
}
