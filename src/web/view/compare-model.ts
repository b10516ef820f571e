/**
 * Comparing two runs: the contract fields that differ (listed first), whether
 * the workloads match (no deltas when they do not), and per-level deltas
 * worded with their direction ("+18 %, better"), never colour alone.
 */
import type { LevelResult } from '../../core/index.js';
import type { RunSpec } from '../../store/index.js';
import { num, signedPct } from './format.js';
import { METRICS, type MetricKey } from './metrics.js';

/** What a compared run contributes. */
export interface CompareSide {
  label: string;
  model: string | null;
  server: string;
  spec: RunSpec;
  levels: readonly LevelResult[];
}

export interface ContractDiff { field: string; baseline: string; candidate: string; workload: boolean }

const FIELDS: ReadonlyArray<[string, (s: CompareSide) => unknown, boolean]> = [
  ['server', (s) => s.server, false],
  ['model', (s) => s.model ?? 'not known', false],
  ['output tokens', (s) => s.spec.outputTokens, true],
  ['prompt tokens', (s) => s.spec.promptTokens, true],
  ['thinking', (s) => (s.spec.thinking ? 'on' : 'off'), true],
  ['endpoint', (s) => s.spec.endpoint, true],
  ['length forced', (s) => (s.spec.forceLength ? 'yes' : 'no'), true],
  ['requests per level', (s) => s.spec.requestsPerLevel, true],
  ['warm-up per level', (s) => s.spec.warmup, true],
  ['temperature', (s) => s.spec.temperature, true],
  ['levels', (s) => [...new Set(s.spec.levels)].sort((a, b) => a - b).join(', '), false],
  ['hourly cost (USD)', (s) => s.spec.hourlyCostUsd ?? 'none', false],
  ['GPU label', (s) => s.spec.gpuLabel ?? 'none', false],
];

export function contractDiffs(a: CompareSide, b: CompareSide): ContractDiff[] {
  return FIELDS.flatMap(([field, get, workload]) => {
    const x = String(get(a));
    const y = String(get(b));
    return x === y ? [] : [{ field, baseline: x, candidate: y, workload }];
  });
}

/** Why no deltas are shown (the workloads differ), or null when they are comparable. */
export function incomparableReason(diffs: readonly ContractDiff[]): string | null {
  const w = diffs.filter((d) => d.workload);
  if (w.length === 0) return null;
  return `The workloads differ (${w.map((d) => `${d.field}: ${d.baseline} vs ${d.candidate}`).join('; ')}), so no deltas are shown: the figures do not measure the same thing.`;
}

/** "+120.0 tok/s (+18 %), better"; "no delta: invalid" when either side is invalid. */
export function deltaText(key: MetricKey, a: LevelResult | undefined, b: LevelResult | undefined): string {
  const m = METRICS[key];
  if (!a || !b) return '—';
  if (a.invalid || b.invalid) return 'no delta: a level is invalid';
  const x = m.value(a);
  const y = m.value(b);
  if (x === null || y === null) return '—';
  const diff = y - x;
  if (diff === 0) return 'no change';
  const pct = x !== 0 ? ` (${signedPct((diff / x) * 100)})` : '';
  const better = m.direction === null ? '' : (m.direction === 'higher') === diff > 0 ? ', better' : ', worse';
  return `${diff > 0 ? '+' : '−'}${num(Math.abs(diff), m.digits)} ${m.unit}${pct}${better}`;
}

export const DELTA_METRICS: readonly MetricKey[] = ['throughput', 'perRequest', 'ttftP50', 'ttftP95', 'tpotP50'];

export interface DeltaRow { concurrency: number; deltas: Array<{ metric: MetricKey; text: string }> }

/** Deltas (candidate − baseline) at every concurrency both runs measured. */
export function deltaRows(a: CompareSide, b: CompareSide): DeltaRow[] {
  const shared = a.levels.map((l) => l.concurrency).filter((c) => b.levels.some((l) => l.concurrency === c)).sort((x, y) => x - y);
  return shared.map((c) => ({
    concurrency: c,
    deltas: DELTA_METRICS.map((k) => ({ metric: k, text: deltaText(k, a.levels.find((l) => l.concurrency === c), b.levels.find((l) => l.concurrency === c)) })),
  }));
}
