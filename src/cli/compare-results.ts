/**
 * Runs side by side in a terminal, from the view module's comparison model
 * (the page and the report read the same): the contract differences first,
 * then one table aligned on the level axis with a column group per run, each
 * candidate's differences from the baseline with their intervals, and the
 * Pareto frontiers with the capacity answer.
 */
import { describeDifferences, diffContracts } from '../contract/index.js';
import { type SweepResult, sanitizeForTerminal } from '../core/index.js';
import {
  type CompareRun, type Comparison, type ParetoModel, capacityAt, compareHeader, compareRuns, defaultTarget, num, paretoModel, qualityVerdictPhrase,
} from '../web/index.js';
import { grid } from './render-contract.js';

/** The full contracts' differences (what is hashed), baseline against each other run; location apart. */
export function contractHeader(a: SweepResult, b: SweepResult): string[] {
  const diffs = diffContracts(a.contract ?? {}, b.contract ?? {});
  const where = diffs.filter((d) => d.path === 'server.url' || d.path === 'server.apiKeyEnv');
  const what = diffs.filter((d) => !where.includes(d));
  const lines: string[] = [];
  if (a.contractHash && a.contractHash === b.contractHash && what.length === 0) lines.push(`Same contract (sha256 ${a.contractHash}).`);
  else lines.push(`The contracts differ (sha256 ${a.contractHash ?? 'none'} vs ${b.contractHash ?? 'none'}); read these differences before any number below:`, ...describeDifferences(what));
  if (where.length > 0) lines.push('Location differs (not part of the contract):', ...describeDifferences(where));
  return lines;
}

function fieldsLines(c: Comparison): string[] {
  if (c.diffs.length === 0) return ['Every compared field is the same in all runs.'];
  return ['Fields that differ (a workload field stops the differences):', grid(['Field', ...c.runs.map((r) => r.label)], c.diffs.map((d) => [`${d.field}${d.workload ? ' (workload)' : ''}`, ...d.values]))];
}

/** One grid: a header line naming each run's group over its columns, then the figures. */
function alignedTable(c: Comparison): string {
  const headers = [c.axis, ...c.runs.flatMap((r, i) => [...c.headers, 'Status'].map((h, j) => (j === 0 ? `${r.label}${i === 0 ? ' (baseline)' : ''}: ${h}` : h)))];
  const rows = c.rows.map((row) => [String(row.level), ...row.runs.flatMap((r) => (r === null ? [...c.headers.map(() => '—'), 'not measured'] : [...r.cells.map((x) => x.text), r.status]))]);
  return grid(headers, rows);
}

function differenceLines(c: Comparison): string[] {
  if (c.refused) return [c.refused];
  const base = c.runs[0]?.label;
  return c.runs.slice(1).flatMap((cand, i) => [
    `${cand.label} against ${base} (candidate − baseline; 95 % bootstrap interval, better or worse only when it excludes zero):`,
    ...c.rows.flatMap((r) => (r.differences[i] ?? []).map((d) => `  ${c.axis.toLowerCase()} ${r.level}, ${compareHeader(d.metric)}: ${d.text}`)),
  ]);
}

/** Each run's quality score, then each candidate's verdict against the baseline's (the score's own noise included); nothing when no run carries one. */
function qualityLines(c: Comparison): string[] {
  if (c.quality === null) return [];
  return [
    'Quality (goodput run --quality-baseline; candidate − baseline of the composite, bootstrapped over the prompts; better or worse only when the interval excludes zero and the change exceeds the scores\' own noise):',
    ...c.runs.map((r, i) => `  ${r.label}: ${c.quality?.scores[i]}`),
    ...c.quality.verdicts.map((v) => `  ${v.label} against ${c.runs[0]?.label}: ${qualityVerdictPhrase(v)}`),
  ].map((l) => sanitizeForTerminal(l)).concat('');
}

function paretoLines(m: ParetoModel, target: number | null): string[] {
  const rows = m.series.flatMap((s) => s.points.map((p) => [s.label, String(p.level), num(p.x), num(p.y), s.frontier.includes(p) ? 'frontier' : p.state === 'valid' ? 'behind the frontier' : p.state]));
  const at = target ?? defaultTarget(m);
  return [
    `Pareto: ${m.yLabel} against ${m.xLabel}; a frontier joins each run's levels no other of its valid levels beats on both.`,
    grid(['Run', 'Level', 'tok/s per user', `tok/s per ${m.per}`, 'On the frontier'], rows),
    at === null ? 'No valid level to answer a capacity question from.' : capacityAt(m, at).sentence,
    ...(at === null ? [] : capacityAt(m, at).entries.map((e) => `  ${e.label}: ${e.y === null ? '—' : `${num(e.y)} tok/s per ${m.per}`} (${e.how})`)),
  ];
}

/** The whole comparison as text; `full` pairs with the runs when they are results carrying contracts. */
export function renderRuns(runs: readonly CompareRun[], results: readonly SweepResult[] = [], target: number | null = null): string {
  const c = compareRuns(runs);
  const base = results[0];
  const contract = base && results.some((r) => r.contract) ? results.slice(1).flatMap((r, i) => [`${runs[0]?.label} → ${runs[i + 1]?.label}:`, ...contractHeader(base, r).map((l) => `  ${l}`)]) : [];
  return [
    `Comparing ${runs.map((r, i) => `${r.label}${i === 0 ? ' (baseline)' : ''}`).join(', ')}`,
    ...contract, ...fieldsLines(c), '', alignedTable(c), '', ...differenceLines(c), '', ...qualityLines(c), ...paretoLines(paretoModel(runs), target),
  ].join('\n');
}

/** Two results (goodput rerun): the same comparison as `goodput compare`. */
export function renderComparison(a: SweepResult, b: SweepResult, names: [string, string]): string {
  const run = (r: SweepResult, label: string): CompareRun => ({ label, run: r.run, levels: r.levels, records: r.records, repeats: r.repeats, contractHash: r.contractHash, quality: r.quality });
  return renderRuns([run(a, names[0]), run(b, names[1])], [a, b]);
}
