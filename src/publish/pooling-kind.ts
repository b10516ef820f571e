/**
 * The pooling kind of receipt (embeddings, rerank): read through the pooling
 * result's schema, checked by recomputing every level, the peak and the
 * capacity from its records (pooling-evidence.ts), repeats combined as
 * `goodput run` combines them, and no quality score: nothing is generated.
 * Its facts are the endpoint's own metrics (pooling-figures.ts): peak items/s
 * and input tokens/s, latency p50/p95/p99 of one request at a time, capacity
 * at the latency objective, cost per million input tokens, and each level's
 * figures. The receipt names its modality, so no page or reader takes it for
 * text.
 */
import type { z } from 'zod';
import { combinePoolingRuns } from '../contract/index.js';
import { POOLING_ENDPOINTS, type PoolingEndpoint, type PoolingLevel, type PoolingResult, poolingResultSchema } from '../core/index.js';
import { configurationPart } from './configuration-part.js';
import { publicPoolingResult } from './evidence-files.js';
import { type ConfigurationKey, type Fact, derived, measured, recorded } from './fact.js';
import { missingLimitations, repeatsLimitation, simulatedLimit, stalePriceLimit, warningsLimit } from './limitations.js';
import { checkPoolingEvidence, poolingRunsOf } from './pooling-evidence.js';
import {
  POOLING_FIGURE_KEYS,
  POOLING_LEVEL_METRICS,
  type PoolingFigureKey,
  type PoolingLevelMetric,
  poolingFigures,
  poolingLevelFigures,
} from './pooling-figures.js';
import { qualityFacts } from './quality-facts.js';
import type { ReceiptInput, ReceiptKind, ReceiptOutcome } from './receipt-kind.js';
import { barCharts, checkedPair, headlinesOf, receiptOf, withRuns } from './receipt-parts.js';
import { type Receipt, factSetOf } from './receipt-schema.js';
import { refusal } from './refusal.js';
import { serverTruthLimitations } from './server-agreement.js';
import type { CheckedRun } from './run-pair.js';

type PoolingRun = CheckedRun<PoolingResult>;

const levelValue: Record<(typeof POOLING_LEVEL_METRICS)[number], (l: PoolingLevel) => number | null> = {
  itemsPerS: (l) => l.itemsPerS,
  inputTokensPerS: (l) => l.inputTokensPerS,
  latencyP50: (l) => l.latencyMs?.p50 ?? null,
  latencyP95: (l) => l.latencyMs?.p95 ?? null,
  failed: (l) => l.failed,
};

/** One configuration's facts from one run: the headline figures, the rate, the cost, and each level's figures. */
function poolingFacts(cfg: ConfigurationKey, run: PoolingRun, result: PoolingResult): Fact[] {
  const e = result.run.endpoint;
  const figs = poolingFigures(e);
  const fig = (key: PoolingFigureKey) => ({ id: `${cfg}.${key}`, metric: key, ...figs[key], configuration: cfg });
  const strip = ({ direction: _d, ...f }: ReturnType<typeof fig>) => f;
  const f = (key: PoolingFigureKey) => strip(fig(key));
  const peak = result.peak;
  const at = peak === null ? null : `at concurrency ${peak.concurrency}`;
  const peakItems = measured(f('peakItems'), peak?.itemsPerS ?? null, 'no level without a failed request');
  const peakTokens = measured(
    f('peakInputTokens'),
    peak?.inputTokensPerS ?? null,
    peak === null ? 'no level without a failed request' : 'the server reported no input tokens',
  );
  for (const x of [peakItems, peakTokens]) if (x.value !== null && at !== null) x.note = at;
  const cap = result.capacity;
  const capacity = measured(f('capacityAtSlo'), cap?.itemsPerS ?? null, cap === null ? 'the run states no latency objective' : cap.statement);
  if (capacity.value !== null && cap !== null) capacity.note = cap.statement;
  const single = result.levels.find((l) => l.concurrency === 1) ?? null;
  const whySingle = single === null ? 'no concurrency-1 level was measured' : `the concurrency-1 level had ${single.failed} failed requests`;
  const singleOk = single !== null && single.failed === 0;
  const rate = recorded(f('hourlyRate'), run.contract.hardware.gpuHourlyUsd ?? null, 'no hourly rate was recorded with the run');
  if (rate.value !== null) rate.note = run.contract.hardware.priceAsOf ? `as of ${run.contract.hardware.priceAsOf}` : 'date not recorded';
  const lf = poolingLevelFigures(e);
  const levels = result.levels.flatMap((l) =>
    POOLING_LEVEL_METRICS.map((key) => {
      const { direction: _d, header: _h, ...m } = lf[key];
      const x = measured(
        { ...m, id: `${cfg}.c${l.concurrency}.${key}`, metric: key, statistic: `${m.statistic} at concurrency ${l.concurrency}`, configuration: cfg },
        levelValue[key](l),
        'the level had no successful request',
      );
      if (l.failed > 0) x.note = `${l.failed} of ${l.requests} requests failed; excluded from the peak${x.note === undefined ? '' : `; ${x.note}`}`;
      return x;
    }),
  );
  return [
    peakItems,
    peakTokens,
    capacity,
    measured(f('latencyP50'), singleOk ? (single.latencyMs?.p50 ?? null) : null, whySingle),
    measured(f('latencyP95'), singleOk ? (single.latencyMs?.p95 ?? null) : null, whySingle),
    measured(f('latencyP99'), singleOk ? (single.latencyMs?.p99 ?? null) : null, whySingle),
    measured(
      f('failedTotal'),
      result.levels.reduce((n, l) => n + l.failed, 0),
    ),
    rate,
    derived(
      f('costPer1MInput'),
      [rate, peakTokens],
      ([usdPerHour, tokS]) => ((usdPerHour as number) / ((tokS as number) * 3600)) * 1e6,
      'GPU hourly rate ÷ (peak input tokens/s × 3600 s) × 1,000,000',
    ),
    ...levels,
  ];
}

function simulated(run: PoolingRun): boolean {
  return (
    /^goodput-sim/.test(run.result.serverReport?.engineVersion ?? '') ||
    /goodput-sim|simulat/i.test(run.result.run.engine.version ?? '') ||
    /simgpu/i.test(run.contract.hardware.label)
  );
}

function sideLimits(cfg: ConfigurationKey, run: PoolingRun): string[] {
  const r = run.result;
  const failed = r.levels.filter((l) => l.failed > 0).map((l) => l.concurrency);
  return [
    ...(simulated(run) ? [simulatedLimit(cfg)] : []),
    ...(failed.length > 0 ? [`${cfg}: level(s) at concurrency ${failed.join(', ')} had failed requests and are excluded from the peak.`] : []),
    ...(r.run.tokenizer.exact ? [] : [`${cfg}: input lengths were counted by the word approximation (no tokenizer was available), so they are approximate.`]),
    ...stalePriceLimit(cfg, run),
    ...warningsLimit(cfg, r.warnings),
    // Runs recorded before pooling runs kept a server account had no server view either: no sentence for them.
    ...serverTruthLimitations(cfg, poolingRunsOf(r), r.serverAccount !== undefined),
  ];
}

/** A pooling run's round trip: the shortest its first run's levels recorded beside the server's view (none without one). */
function poolingRoundTripMs(r: PoolingResult): number | null {
  const rtts = r.levels.flatMap((l) => (l.serverTruth?.rttMs === undefined || l.serverTruth.rttMs === null ? [] : [l.serverTruth.rttMs]));
  return rtts.length === 0 ? null : Math.min(...rtts);
}

const article = (e: PoolingEndpoint) => (e === 'rerank' ? 'a' : 'an');

function poolingReceipt(input: ReceiptInput<PoolingResult>): ReceiptOutcome {
  const b = input.baseline.run.endpoint;
  const o = input.optimized.run.endpoint;
  const own: string[] = [];
  if (input.quality !== null) own.push(`--quality: ${article(b)} ${b} receipt carries no quality score: nothing is generated to score`);
  if (b !== o) own.push(`a receipt compares two runs of one endpoint: --baseline is ${article(b)} ${b} run, --optimized ${article(o)} ${o} run`);
  const pair = checkedPair(input, own);
  if (!pair.ok) return pair;
  const { runs } = pair;
  const endpoint: PoolingEndpoint = b;
  const factsOf = (cfg: ConfigurationKey) => {
    const all = poolingRunsOf(runs[cfg].result);
    return withRuns(
      cfg,
      poolingFacts(cfg, runs[cfg], all[0] as PoolingResult),
      all,
      (r) => poolingFacts(cfg, runs[cfg], r),
      POOLING_FIGURE_KEYS,
      input.perLevelRuns,
    );
  };
  const measuredFacts = [...factsOf('baseline'), ...factsOf('optimized')];
  const items = endpoint === 'rerank' ? 'documents' : 'inputs';
  const figs = poolingFigures(endpoint);
  // The text kind's section: each side's configuration as its server reported it, a handicapped baseline flagged.
  const config = configurationPart(runs, poolingRoundTripMs);
  return receiptOf(input, runs, {
    // No tool facts here: set 3 (run signatures) for a new receipt, set 1 as every pooling receipt before it.
    factSet: factSetOf(input.factSet, { tools: false, serverFacts: false }),
    simulated: simulated(runs.baseline) || simulated(runs.optimized),
    tag: { modality: endpoint },
    costText:
      `${runs.baseline.contract.hardware.label} compute at the hourly rate recorded with each run. A GPU compute estimate at the peak input tokens/s measured (the level with the most ${items}/s and no failed request), ` +
      'sustained for an hour, server-counted input tokens only; it excludes idle time, CPU, memory, networking, redundancy and platform fees.',
    // The quality row is there, not recorded, saying why: a receipt never silently drops quality.
    facts: [...measuredFacts, ...qualityFacts(null).facts.map((x) => ({ ...x, note: `the ${endpoint} endpoint generates no text to score` }))],
    curves: Object.fromEntries(
      (['baseline', 'optimized'] as const).map((cfg) => [
        cfg,
        [...runs[cfg].result.levels]
          .sort((x, y) => x.concurrency - y.concurrency)
          .map((l) => ({ concurrency: l.concurrency, invalid: l.failed > 0, clientBound: false })),
      ]),
    ) as Receipt['curves'],
    headlines: headlinesOf(['peakItems', 'peakInputTokens', 'latencyP95', 'costPer1MInput', 'capacityAtSlo']),
    charts: barCharts(['peakItems', 'peakInputTokens', 'latencyP95', 'capacityAtSlo', 'costPer1MInput'], (key) => {
      const fig = figs[key as PoolingFigureKey];
      return `${fig.label}${key.startsWith('latency') ? ` ${fig.statistic}` : ''} by configuration`;
    }),
    quality: null,
    limitations: [
      repeatsLimitation({ baseline: poolingRunsOf(runs.baseline.result).length, optimized: poolingRunsOf(runs.optimized.result).length }),
      `This receipt measures the ${endpoint} endpoint: no text is generated, so there is no throughput in output tokens, no TTFT and no quality score.`,
      ...sideLimits('baseline', runs.baseline),
      ...sideLimits('optimized', runs.optimized),
      ...missingLimitations(measuredFacts),
      ...config.limitations,
    ],
    ...(config.section === undefined ? {} : { serverConfiguration: config.section }),
  });
}

export const poolingKind: ReceiptKind<PoolingResult> = {
  endpoints: POOLING_ENDPOINTS,
  schema: poolingResultSchema as z.ZodType<PoolingResult>,
  publicCopy: publicPoolingResult,
  checkEvidence: checkPoolingEvidence,
  combineRuns: combinePoolingRuns,
  evidenceQuality: (standalone, _optimized, results) =>
    standalone === null
      ? { ok: true, score: null }
      : {
          ok: false,
          refusals: [
            refusal(
              'quality-belongs',
              'evidence.quality',
              `an ${results.baseline.run.endpoint} receipt carries no quality score: nothing is generated to score`,
            ),
          ],
        },
  build: poolingReceipt,
  page: {
    factRows: (r) => {
      const figs = poolingFigures(r.modality as PoolingEndpoint);
      return POOLING_FIGURE_KEYS.map((key) => ({ key, def: figs[key] }));
    },
    cost: { peak: 'peakInputTokens', cost: 'costPer1MInput' },
    pareto: false,
    levelTable: (r) => {
      const figs = poolingLevelFigures(r.modality as PoolingEndpoint);
      return { metrics: POOLING_LEVEL_METRICS, header: (m) => figs[m as PoolingLevelMetric].header };
    },
    modalityNote: (r) => `the ${r.modality} endpoint: figures in ${r.modality === 'rerank' ? 'documents' : 'inputs'} and input tokens; nothing is generated`,
  },
};
