/**
 * Runs side by side in a terminal, from the view module's comparison model
 * (the page and the report read the same): what differs first, then one
 * table per figure aligned on the level axis with a column per run (named by
 * what sets it apart), each level's status as a badge with its reason below,
 * each candidate's differences from the baseline with their intervals, and
 * the Pareto frontiers with the capacity answer; all within 120 columns.
 */
import { type SweepResult, sanitizeForTerminal } from '../core/index.js';
import {
  type CompareRow,
  type CompareRun,
  type Comparison,
  type ParetoModel,
  capacityAt,
  compareHeader,
  compareRunOf,
  compareRuns,
  defaultTarget,
  num,
  paretoModel,
  qualityVerdictPhrase,
  sideTables,
} from '../web/index.js';
import { fitGrid, wrapLine } from './fit-grid.js';

/** A run's column in the terminal's tables: A (the baseline), B, C… — the legend names each in full. */
const key = (i: number): string => String.fromCharCode(65 + i);
const keyHeads = (c: Comparison): string[] => c.runs.map((_, i) => `${key(i)}${i === 0 ? ' (baseline)' : ''}`);

/** Each run by its column letter and its name: its label and what sets it apart. */
function runsLines(c: Comparison): string[] {
  return ['Runs (each column below is one; A is the baseline):', ...c.titles.map((t, i) => `  ${key(i)}  ${t}`), ...c.drawn.map((note) => `  ${note}.`)];
}

/** The one list every view shows: the contracts' sha256, then every field not the same in all runs. */
function whatDiffersLines(c: Comparison): string[] {
  const head = ['What differs:', `  ${c.contractNote}`];
  if (c.diffs.length === 0) return [...head, '  Every compared field is the same in all runs.'];
  return [
    ...head,
    '  (a field marked "workload" stops the differences)',
    fitGrid(
      ['Field', ...keyHeads(c)],
      c.diffs.map((d) => [`${d.field}${d.workload ? ' (workload)' : ''}`, ...d.values]),
    ),
  ];
}

/** One table per figure (the level column, then a column per run), so any number of runs fits the terminal; then each level's status as a badge, the reasons below. */
function alignedTables(c: Comparison): string[] {
  const heads = [c.axis, ...keyHeads(c)];
  const table = (title: string, cell: (r: NonNullable<CompareRow['runs'][number]>) => string, missing: string) => [
    title,
    fitGrid(
      heads,
      c.rows.map((row) => [String(row.level), ...row.runs.map((r) => (r === null ? missing : cell(r)))]),
    ),
    '',
  ];
  const reasons = c.rows.flatMap((row) =>
    row.runs.flatMap((r, i) => (r?.badge.reason ? [`  ${key(i)} at ${c.axis.toLowerCase()} ${row.level}: ${r.badge.reason}`] : [])),
  );
  return [
    `Side by side, one table per figure (${c.axis.toLowerCase()} down, runs across):`,
    '',
    ...c.headers.flatMap((h, k) => table(h, (r) => r.cells[k]?.text ?? '—', '—')),
    ...table('Status (client-bound and invalid levels are left out of the differences)', (r) => r.badge.text, 'not measured'),
    ...(reasons.length === 0 ? [] : ['Why a level is not ok:', ...reasons, '']),
  ];
}

function differenceLines(c: Comparison): string[] {
  if (c.refused) return [c.refused];
  return c.runs.slice(1).flatMap((_, i) => [
    `${key(i + 1)} against ${key(0)} (candidate − baseline; 95 % bootstrap interval, better or worse only when it excludes zero and both measured the level validly):`,
    ...c.rows.flatMap((r) => {
      const ds = r.differences[i] ?? [];
      // A level not compared is not compared in every figure: said once.
      const none = ds[0]?.difference.verdict === 'not compared' && ds.every((d) => d.text === ds[0]?.text);
      return none
        ? [`  ${c.axis.toLowerCase()} ${r.level}: ${ds[0]?.text}`]
        : ds.map((d) => `  ${c.axis.toLowerCase()} ${r.level}, ${compareHeader(d.metric)}: ${d.text}`);
    }),
  ]);
}

/** The per-level tables some run carries (speculative decoding and energy, pools, fleet targets), each as one table per figure (level down, runs across), then what its figures need said. */
function sideTableLines(c: Comparison): string[] {
  return sideTables(c).flatMap(({ title, table: s }) => {
    const table = (k: number) =>
      fitGrid(
        [c.axis, ...keyHeads(c)],
        s.rows.map((row) => [String(row.level), ...row.runs.map((cells) => (cells === null ? 'not measured' : (cells[k] ?? '—')))]),
      );
    return [`${title}:`, `  ${s.basis}`, '', ...s.headers.flatMap((h, k) => [h, table(k), '']), ...s.notes.map((n) => `  ${sanitizeForTerminal(n)}`), ''];
  });
}

/** Each run's quality score, then each candidate's verdict against the baseline's (the score's own noise included); nothing when no run carries one. */
function qualityLines(c: Comparison): string[] {
  if (c.quality === null) return [];
  return [
    "Quality (goodput run --quality-baseline; candidate − baseline of the composite, bootstrapped over the prompts; better or worse only when the interval excludes zero and the change exceeds the scores' own noise):",
    ...c.runs.map((r, i) => `  ${r.label}: ${c.quality?.scores[i]}`),
    ...c.quality.verdicts.map((v) => `  ${v.label} against ${c.runs[0]?.label}: ${qualityVerdictPhrase(v)}`),
  ]
    .map((l) => sanitizeForTerminal(l))
    .concat('');
}

function paretoLines(m: ParetoModel, target: number | null): string[] {
  const rows = m.series.flatMap((s, i) =>
    s.points.map((p) => [
      key(i),
      String(p.level),
      num(p.x),
      num(p.y),
      s.frontier.includes(p) ? 'frontier' : p.state === 'valid' ? 'behind the frontier' : p.state,
    ]),
  );
  const at = target ?? defaultTarget(m);
  return [
    `Pareto: ${m.yLabel} against ${m.xLabel}; a frontier joins each run's levels no other of its valid levels beats on both.`,
    fitGrid(['Run', 'Level', 'tok/s per user', `tok/s per ${m.per}`, 'On the frontier'], rows),
    at === null ? 'No valid level to answer a capacity question from.' : capacityAt(m, at).sentence,
    ...(at === null ? [] : capacityAt(m, at).entries.map((e) => `  ${e.label}: ${e.y === null ? '—' : `${num(e.y)} tok/s per ${m.per}`} (${e.how})`)),
  ];
}

/** The whole comparison as text, every line within 120 columns. */
export function renderRuns(runs: readonly CompareRun[], target: number | null = null): string {
  const c = compareRuns(runs);
  return [
    `Comparing ${runs.map((r, i) => `${r.label}${i === 0 ? ' (baseline)' : ''}`).join(', ')}`,
    ...runsLines(c),
    ...whatDiffersLines(c),
    '',
    ...alignedTables(c),
    ...differenceLines(c),
    '',
    ...sideTableLines(c),
    ...qualityLines(c),
    ...paretoLines(paretoModel(runs), target),
  ]
    .join('\n')
    .split('\n')
    .flatMap((l) => wrapLine(l))
    .join('\n');
}

/** Two results (goodput rerun): the same comparison as `goodput compare`. */
export function renderComparison(a: SweepResult, b: SweepResult, names: [string, string]): string {
  return renderRuns([compareRunOf(names[0], a), compareRunOf(names[1], b)]);
}
