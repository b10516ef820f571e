/**
 * A receipt of two embeddings (or two rerank) runs: the same pair checks as
 * text (one model, one workload, one GPU and rate, two measured runs), and
 * facts that are the endpoint's own metrics — peak items/s and input tokens/s,
 * latency p50/p95/p99 of one request at a time, capacity at the latency
 * objective, cost per million input tokens — each level's figures beside them.
 * The receipt names its modality, so no page or reader takes it for text.
 * The pooling kind's builder (pooling-kind.ts): buildReceipt reaches it
 * through the kinds table.
 */
import { canonicalJson, type PoolingEndpoint, type PoolingLevel, type PoolingResult } from '../core/index.js';
import { type ConfigurationKey, type Fact, derived, measured, recorded } from './fact.js';
import { missingLimitations, repeatsLimitation, STALE_PRICE_DAYS } from './limitations.js';
import { POOLING_FIGURE_KEYS, POOLING_LEVEL_METRICS, type PoolingFigureKey, poolingFigures, poolingLevelFigures } from './pooling-figures.js';
import { poolingRunsOf } from './pooling-evidence.js';
import { qualityFacts } from './quality-facts.js';
import { configuration, day, slug } from './receipt-parts.js';
import { daysBetween } from './receipt-dates.js';
import { RECEIPT_VERSION, type Receipt } from './receipt-schema.js';
import { type CheckedRun, checkRunPair, workloadPart } from './run-pair.js';
import type { ReceiptInput, ReceiptOutcome } from './receipt-kind.js';

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

/** The facts of a configuration's first run, each table figure with its value in every run when the contract ran more than once. */
function withRuns(cfg: ConfigurationKey, run: PoolingRun): Fact[] {
  const all = poolingRunsOf(run.result);
  const first = poolingFacts(cfg, run, all[0] as PoolingResult);
  if (all.length < 2) return first;
  const each = all.map((r) => new Map(poolingFacts(cfg, run, r).map((x) => [x.id, x.value])));
  const table = new Set<string>(POOLING_FIGURE_KEYS.map((k) => `${cfg}.${k}`));
  return first.map((x) => (table.has(x.id) ? { ...x, runs: each.map((m) => m.get(x.id) ?? null) } : x));
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
  const out: string[] = [];
  if (simulated(run)) out.push(`${cfg}: measured against the goodput simulator, not a real GPU; its figures show the method, not what any hardware achieves.`);
  const failed = r.levels.filter((l) => l.failed > 0).map((l) => l.concurrency);
  if (failed.length > 0) out.push(`${cfg}: level(s) at concurrency ${failed.join(', ')} had failed requests and are excluded from the peak.`);
  if (!r.run.tokenizer.exact) out.push(`${cfg}: input lengths were counted by the word approximation (no tokenizer was available), so they are approximate.`);
  const asOf = run.contract.hardware.priceAsOf?.slice(0, 10);
  const when = day(r.run.startedAt);
  if (asOf !== undefined && daysBetween(asOf, when) > STALE_PRICE_DAYS) {
    out.push(
      `${cfg}: the GPU hourly rate is as of ${asOf}, ${daysBetween(asOf, when)} days before the run (more than ${STALE_PRICE_DAYS}); the cost may not reflect the rate when it was measured.`,
    );
  }
  if (r.warnings.length > 0) out.push(`${cfg}: the run recorded warnings: ${[...new Set(r.warnings.map((w) => w.code))].join(', ')}.`);
  return out;
}

const article = (e: PoolingEndpoint) => (e === 'rerank' ? 'a' : 'an');

export function poolingReceipt(input: ReceiptInput<PoolingResult>): ReceiptOutcome {
  const problems: string[] = [];
  if (input.method.trim() === '') problems.push('--method: state the optimization method of the optimized configuration');
  const b = input.baseline.run.endpoint;
  const o = input.optimized.run.endpoint;
  if (input.quality !== null) problems.push(`--quality: ${article(b)} ${b} receipt carries no quality score: nothing is generated to score`);
  if (b !== o) problems.push(`a receipt compares two runs of one endpoint: --baseline is ${article(b)} ${b} run, --optimized ${article(o)} ${o} run`);
  const pair = checkRunPair<PoolingResult>(input.baseline, input.optimized);
  if (!pair.ok) problems.push(...pair.problems);
  if (!pair.ok || problems.length > 0) return { ok: false, problems };
  const endpoint: PoolingEndpoint = b;
  const runs: Record<ConfigurationKey, PoolingRun> = { baseline: pair.baseline, optimized: pair.optimized };
  const own = [...withRuns('baseline', runs.baseline), ...withRuns('optimized', runs.optimized)];
  // The quality row is there, not recorded, saying why: a receipt never silently drops quality.
  const facts = [...own, ...qualityFacts(null).facts.map((x) => ({ ...x, note: `the ${endpoint} endpoint generates no text to score` }))];
  const model = runs.baseline.contract.model.name;
  const hardware = runs.baseline.contract.hardware.label;
  const measuredAt = [runs.baseline, runs.optimized]
    .map((r) => day(r.result.run.startedAt))
    .sort()
    .at(-1) as string;
  const title = input.title?.trim() || `${model} on ${hardware}: ${input.method.trim()}`;
  const asOf = [runs.baseline, runs.optimized]
    .map((r) => r.contract.hardware.priceAsOf)
    .filter((d): d is string => d !== undefined)
    .sort();
  const items = endpoint === 'rerank' ? 'documents' : 'inputs';
  const bars: PoolingFigureKey[] = ['peakItems', 'peakInputTokens', 'latencyP95', 'capacityAtSlo', 'costPer1MInput'];
  const receipt: Receipt = {
    receiptVersion: RECEIPT_VERSION,
    id: `${slug(title)}-${measuredAt}`,
    title,
    model,
    hardware,
    measuredAt,
    simulated: simulated(runs.baseline) || simulated(runs.optimized),
    modality: endpoint,
    configurations: {
      baseline: configuration(runs.baseline, input.baselineMethod?.trim() || 'baseline as deployed, no optimization'),
      optimized: configuration(runs.optimized, input.method.trim()),
    },
    workload: { hash: runs.baseline.workloadHash, lines: Object.entries(workloadPart(runs.baseline.contract)).map(([k, v]) => `${k}: ${canonicalJson(v)}`) },
    costBasis: {
      text:
        `${hardware} compute at the hourly rate recorded with each run. A GPU compute estimate at the peak input tokens/s measured (the level with the most ${items}/s and no failed request), ` +
        'sustained for an hour, server-counted input tokens only; it excludes idle time, CPU, memory, networking, redundancy and platform fees.',
      priceAsOf: asOf.at(-1) ?? null,
    },
    facts,
    curves: Object.fromEntries(
      (['baseline', 'optimized'] as const).map((cfg) => [
        cfg,
        [...runs[cfg].result.levels]
          .sort((x, y) => x.concurrency - y.concurrency)
          .map((l) => ({ concurrency: l.concurrency, invalid: l.failed > 0, clientBound: false })),
      ]),
    ) as Receipt['curves'],
    headlines: [
      { factId: 'optimized.peakItems', baselineFactId: 'baseline.peakItems' },
      { factId: 'optimized.peakInputTokens', baselineFactId: 'baseline.peakInputTokens' },
      { factId: 'optimized.latencyP95', baselineFactId: 'baseline.latencyP95' },
      { factId: 'optimized.costPer1MInput', baselineFactId: 'baseline.costPer1MInput' },
      { factId: 'optimized.capacityAtSlo', baselineFactId: 'baseline.capacityAtSlo' },
    ],
    charts: bars.map((key) => {
      const fig = poolingFigures(endpoint)[key];
      return {
        id: slug(key.replace(/[A-Z]/g, (c) => `-${c}`)),
        title: `${fig.label}${key.startsWith('latency') ? ` ${fig.statistic}` : ''} by configuration`,
        factIds: [`baseline.${key}`, `optimized.${key}`],
      };
    }),
    quality: null,
    limitations: [
      repeatsLimitation({ baseline: poolingRunsOf(runs.baseline.result).length, optimized: poolingRunsOf(runs.optimized.result).length }),
      `This receipt measures the ${endpoint} endpoint: no text is generated, so there is no throughput in output tokens, no TTFT and no quality score.`,
      ...sideLimits('baseline', runs.baseline),
      ...sideLimits('optimized', runs.optimized),
      ...missingLimitations(own),
    ],
    generator: input.generator,
  };
  return { ok: true, receipt };
}
