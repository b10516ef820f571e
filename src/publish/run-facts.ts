/**
 * One configuration's facts from its run: the headline figures (peak
 * throughput, single-stream figures, failures), the hourly rate recorded with
 * it, the cost derived from both, and each level's curve values. Labels, units
 * and statistics come from web/view's FIGURES and METRICS registries.
 */
import { type LevelResult, notSaturated } from '../core/index.js';
import { FIGURES, type FigureKey, METRICS, type MetricKey } from '../web/index.js';
import { type ConfigurationKey, type Fact, derived, measured, recorded } from './fact.js';
import type { CheckedRun } from './run-pair.js';
import type { CurvePoint } from './receipt-schema.js';

/** Level metrics kept per level: the scaling charts and their data tables. */
export const CURVE_METRICS = ['throughput', 'perRequest', 'ttftP50', 'ttftP95', 'failed'] as const satisfies readonly MetricKey[];

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

function levelFacts(cfg: ConfigurationKey, l: LevelResult): Fact[] {
  const state = levelStateNote(l);
  return CURVE_METRICS.map((key) => {
    const m = METRICS[key];
    const base = { id: curveFactId(cfg, l.concurrency, key), metric: key, label: m.label, unit: m.unit, statistic: `${m.statistic} at concurrency ${l.concurrency}`, configuration: cfg, digits: m.digits };
    const f = measured(base, m.value(l), 'the level had no successful request');
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

export interface RunFacts {
  facts: Fact[];
  curve: CurvePoint[];
}

export function runFacts(cfg: ConfigurationKey, run: CheckedRun): RunFacts {
  const { result, contract } = run;
  const single = result.levels.find((l) => l.concurrency === 1) ?? null;
  const singleOk = single !== null && !single.invalid && !single.clientBound.bound;
  const whySingle = single === null ? 'no concurrency-1 level was measured' : single.invalid ? `the concurrency-1 level is invalid (${single.invalidReason ?? 'failures'})`
    : 'the concurrency-1 level is client-bound, so its timing is not trusted';
  const engine = result.cards.engine;
  const peak = measured(figure(cfg, 'peakThroughput'), engine.peakThroughputTokS, 'no valid level');
  const open = notSaturated(result.levels);
  if (peak.value !== null) peak.note = `at concurrency ${engine.peakConcurrency}${open === null ? '' : `; ${open}`}`;
  const hourly = contract.hardware.gpuHourlyUsd ?? result.run.hourlyCostUsd;
  const rate = recorded(figure(cfg, 'hourlyRate'), hourly ?? null, 'no hourly rate was recorded with the run');
  if (rate.value !== null) rate.note = contract.hardware.priceAsOf ? `as of ${contract.hardware.priceAsOf}` : 'date not recorded';
  const facts: Fact[] = [
    peak,
    ...goodputFacts(cfg, result),
    measured(figure(cfg, 'singleStream'), singleOk ? single.perRequestTokS?.mean ?? null : null, whySingle),
    measured(figure(cfg, 'ttftSingle'), singleOk ? single.ttftMs?.p50 ?? null : null, whySingle),
    measured(figure(cfg, 'tpotSingle'), singleOk ? single.tpotMs?.p50 ?? null : null, whySingle),
    measured(figure(cfg, 'e2eSingle'), singleOk ? single.e2eMs?.p50 ?? null : null, whySingle),
    measured(figure(cfg, 'failedTotal'), result.levels.reduce((n, l) => n + l.failed, 0)),
    rate,
    derived(figure(cfg, 'costPer1M'), [rate, peak], ([usdPerHour, tokS]) => (usdPerHour as number) / ((tokS as number) * 3600) * 1e6,
      'GPU hourly rate ÷ (peak throughput × 3600 s) × 1,000,000'),
    ...result.levels.flatMap((l) => levelFacts(cfg, l)),
  ];
  const curve = [...result.levels].sort((a, b) => a.concurrency - b.concurrency)
    .map((l) => ({ concurrency: l.concurrency, invalid: l.invalid, clientBound: l.clientBound.bound }));
  return { facts, curve };
}
