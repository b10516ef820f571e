/**
 * One configuration's facts from its run: the headline figures (peak
 * throughput, single-stream figures, failures), the hourly rate recorded with
 * it, the cost derived from both, and each level's curve values (with fact set
 * 2 its tool calls, with set 4 its speculative decoding and energy, with set 5
 * its pools and fleet targets). Labels, units
 * and statistics come from web/view's FIGURES and METRICS registries.
 */
import { type LevelResult, notSaturated } from '../core/index.js';
import { FIGURES, type FigureKey, METRICS, type MetricKey, gpuCount } from '../web/index.js';
import { type ConfigurationKey, type Fact, derived, measured, recorded } from './fact.js';
import type { CheckedRun } from './run-pair.js';
import type { CurvePoint, FactSet } from './receipt-schema.js';
import { ENERGY_METRICS, SPEC_DECODE_METRICS, statedFactNote } from './stated-facts.js';
import { FLEET_METRICS, POOL_METRICS } from './parts-facts.js';

/** Level metrics kept per level: the scaling charts and their data tables. */
export const CURVE_METRICS = ['throughput', 'perRequest', 'ttftP50', 'ttftP95', 'failed'] as const satisfies readonly MetricKey[];

/** Fact set 2 adds these to each level sent with tools: the tool-call charts and their data tables. */
export const TOOL_METRICS = ['toolValid', 'toolTtftP50', 'toolTtftP95'] as const satisfies readonly MetricKey[];

/** Why a level has no value of a metric. */
const NO_VALUE: Partial<Record<MetricKey, string>> = {
  toolValid: 'no request of the level called a tool or had to',
  toolTtftP50: 'no tool call of the level was timed',
  toolTtftP95: 'no tool call of the level was timed',
};

/** The runs were sent with tools: a receipt of them states fact set 2. */
export const sentWithTools = (result: CheckedRun['result']): boolean => result.levels.some((l) => l.toolCalls !== undefined);

/** The metrics of a level's facts in set `factSet`: the curves', and the tool, speculative-decoding, energy, pool and fleet facts where the level has them. */
function levelMetrics(l: LevelResult, factSet: FactSet): MetricKey[] {
  return [
    ...CURVE_METRICS,
    ...(factSet >= 2 && l.toolCalls !== undefined ? TOOL_METRICS : []),
    ...(factSet >= 4 && l.specDecode !== undefined ? SPEC_DECODE_METRICS : []),
    ...(factSet >= 4 && l.energy !== undefined ? ENERGY_METRICS : []),
    ...(factSet >= 5 && l.disagg !== undefined ? POOL_METRICS : []),
    ...(factSet >= 5 && l.targets !== undefined ? FLEET_METRICS : []),
  ];
}

const figure = (cfg: ConfigurationKey, key: FigureKey) => {
  const f = FIGURES[key];
  return { id: `${cfg}.${key}`, metric: key, label: f.label, unit: f.unit, statistic: f.statistic, configuration: cfg, digits: f.digits };
};

export function curveFactId(cfg: ConfigurationKey, concurrency: number, key: MetricKey): string {
  return `${cfg}.c${concurrency}.${key}`;
}

/**
 * The state of a level in words, carried as the note of each of its numbers
 * so the page and dataset.json both say it: "invalid level: 2 of 8 requests
 * failed (timeout 2)", "client-bound: …", or null for a level that counts.
 */
export function levelStateNote(l: Pick<LevelResult, 'invalid' | 'invalidReason' | 'clientBound'>): string | null {
  if (l.invalid) return `invalid level: ${l.invalidReason ?? 'failed requests'}; excluded from peaks`;
  if (l.clientBound.bound) return `client-bound: ${l.clientBound.reason ?? 'our own client lagged'}; timing not trusted, excluded from peaks`;
  return null;
}

function levelFacts(cfg: ConfigurationKey, l: LevelResult, factSet: FactSet): Fact[] {
  const state = levelStateNote(l);
  return levelMetrics(l, factSet).map((key) => {
    const m = METRICS[key];
    const base = {
      id: curveFactId(cfg, l.concurrency, key),
      metric: key,
      label: m.label,
      unit: m.unit,
      statistic: `${m.statistic} at concurrency ${l.concurrency}`,
      configuration: cfg,
      digits: m.digits,
    };
    const value = m.value(l);
    const own = statedFactNote(key, l, value);
    const f = measured(base, value, own ?? NO_VALUE[key] ?? 'the level had no successful request');
    if (f.value !== null && own !== undefined) f.note = own;
    if (state !== null) f.note = f.note === undefined ? state : `${state}; ${f.note}`;
    return f;
  });
}

/**
 * Goodput and SLO attainment at the level where the most requests per second
 * met every SLO (valid, not client-bound levels only): the north-star figures.
 */
function goodputFacts(cfg: ConfigurationKey, result: CheckedRun['result']): Fact[] {
  const counted = result.levels.filter((l) => !l.invalid && !l.clientBound.bound && l.goodput !== null && l.goodput !== undefined);
  const best = counted.reduce<LevelResult | null>((a, l) => (a === null || (l.goodput?.requestsPerS ?? 0) > (a.goodput?.requestsPerS ?? 0) ? l : a), null);
  const why = result.run.slo === null || result.run.slo === undefined ? 'the contract states no SLO' : 'no valid level';
  const g = best?.goodput ?? null;
  const goodput = measured(figure(cfg, 'goodput'), g?.requestsPerS ?? null, why);
  const share = measured(figure(cfg, 'sloAttainment'), g?.share ?? null, why);
  if (best !== null && g !== null) {
    goodput.note = `at concurrency ${best.concurrency}: ${g.met} of ${g.requests} requests met every SLO`;
    share.note = `at concurrency ${best.concurrency}`;
  }
  return [goodput, share];
}

/**
 * The GPUs serving the configuration, read from the hardware label the
 * publisher declared ("2× H100"): an input like the hourly rate, recorded
 * with the run, so per-GPU throughput can be derived from the level facts.
 */
function gpuFact(cfg: ConfigurationKey, label: string): Fact {
  const base = {
    id: `${cfg}.gpuCount`,
    metric: 'gpuCount',
    label: 'GPUs',
    unit: 'GPUs',
    statistic: 'GPU count of the hardware label declared with the run',
    configuration: cfg,
    digits: 0,
  };
  return recorded(base, gpuCount({ gpuLabel: label }), `the hardware label (${label}) names no GPU count, so throughput is stated per server`);
}

/** Output tok/s per GPU at each level: the level's throughput ÷ the GPU count (the Pareto view's y axis). Only when the count is recorded. */
function perGpuFacts(cfg: ConfigurationKey, gpus: Fact, levels: readonly Fact[]): Fact[] {
  if (gpus.value === null) return [];
  return levels
    .filter((f) => f.metric === 'throughput')
    .map((t) => {
      const base = {
        id: t.id.replace(/\.throughput$/, '.throughputPerGpu'),
        metric: 'throughputPerGpu',
        label: 'Throughput per GPU',
        unit: 'tok/s per GPU',
        statistic: `${t.statistic} ÷ GPUs`,
        configuration: cfg,
        digits: t.digits,
      };
      const f = derived(base, [t, gpus], ([tokS, n]) => (tokS as number) / (n as number), 'level throughput ÷ GPU count');
      if (t.note !== undefined) f.note = `${f.note ?? ''}; ${t.note}`;
      return f;
    });
}

export interface RunFacts {
  facts: Fact[];
  curve: CurvePoint[];
}

/** A configuration's facts of fact set `factSet` (receipt-schema.ts). */
export function runFacts(cfg: ConfigurationKey, run: CheckedRun, factSet: FactSet): RunFacts {
  const { result, contract } = run;
  const single = result.levels.find((l) => l.concurrency === 1) ?? null;
  const singleOk = single !== null && !single.invalid && !single.clientBound.bound;
  const whySingle =
    single === null
      ? 'no concurrency-1 level was measured'
      : single.invalid
        ? `the concurrency-1 level is invalid (${single.invalidReason ?? 'failures'})`
        : 'the concurrency-1 level is client-bound, so its timing is not trusted';
  const engine = result.cards.engine;
  const peak = measured(figure(cfg, 'peakThroughput'), engine.peakThroughputTokS, 'no valid level');
  const open = notSaturated(result.levels);
  if (peak.value !== null) peak.note = `at ${engine.peakAt ?? `concurrency ${engine.peakConcurrency}`}${open === null ? '' : `; ${open}`}`;
  const hourly = contract.hardware.gpuHourlyUsd ?? result.run.hourlyCostUsd;
  const rate = recorded(figure(cfg, 'hourlyRate'), hourly ?? null, 'no hourly rate was recorded with the run');
  if (rate.value !== null) rate.note = contract.hardware.priceAsOf ? `as of ${contract.hardware.priceAsOf}` : 'date not recorded';
  const levels = result.levels.flatMap((l) => levelFacts(cfg, l, factSet));
  const gpus = gpuFact(cfg, contract.hardware.label);
  const facts: Fact[] = [
    peak,
    ...goodputFacts(cfg, result),
    measured(figure(cfg, 'singleStream'), singleOk ? (single.perRequestTokS?.mean ?? null) : null, whySingle),
    measured(figure(cfg, 'ttftSingle'), singleOk ? (single.ttftMs?.p50 ?? null) : null, whySingle),
    measured(figure(cfg, 'tpotSingle'), singleOk ? (single.tpotMs?.p50 ?? null) : null, whySingle),
    measured(figure(cfg, 'e2eSingle'), singleOk ? (single.e2eMs?.p50 ?? null) : null, whySingle),
    measured(
      figure(cfg, 'failedTotal'),
      result.levels.reduce((n, l) => n + l.failed, 0),
    ),
    rate,
    derived(
      figure(cfg, 'costPer1M'),
      [rate, peak],
      ([usdPerHour, tokS]) => ((usdPerHour as number) / ((tokS as number) * 3600)) * 1e6,
      'GPU hourly rate ÷ (peak throughput × 3600 s) × 1,000,000',
    ),
    gpus,
    ...levels,
    ...perGpuFacts(cfg, gpus, levels),
  ];
  const curve = [...result.levels]
    .sort((a, b) => a.concurrency - b.concurrency)
    .map((l) => ({ concurrency: l.concurrency, invalid: l.invalid, clientBound: l.clientBound.bound }));
  return { facts, curve };
}
