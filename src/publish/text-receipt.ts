/**
 * The text-generation kind's receipt (chat, completions, Responses): two runs
 * (baseline, optimized) and an optional quality score in, one receipt out, or
 * every reason there can be none. Pure apart from hashing: the CLI reads the
 * files and the store, and buildReceipt reaches this through the kinds table.
 */
import { type Contract, runsOf } from '../contract/index.js';
import { canonicalJson, type QualityScore, type SweepResult } from '../core/index.js';
import { FIGURES, type FigureKey } from '../web/index.js';
import { type ConfigurationKey, FACT_TABLE_ROWS, type Fact } from './fact.js';
import { isSimulated, limitationsOf, saturatedBoth } from './limitations.js';
import { qualityFacts } from './quality-facts.js';
import { configuration, day, slug } from './receipt-parts.js';
import type { ReceiptInput, ReceiptOutcome } from './receipt-kind.js';
import { RECEIPT_VERSION, type Receipt } from './receipt-schema.js';
import { type CheckedRun, checkRunPair, mediaInputs, workloadPart } from './run-pair.js';
import { type RunFacts, runFacts } from './run-facts.js';

/** The configurations charted as bars, in page order. */
export const BAR_FIGURES: readonly FigureKey[] = ['peakThroughput', 'singleStream', 'ttftSingle', 'tpotSingle', 'costPer1M'];

/** A configuration's facts from its first run, each fact-table figure with its value in every run when the contract ran more than once. */
function withRuns(cfg: ConfigurationKey, run: CheckedRun): RunFacts {
  const first = runFacts(cfg, run);
  const all = runsOf(run.result);
  if (all.length < 2) return first;
  const each = all.map((result) => new Map(runFacts(cfg, { ...run, result }).facts.map((f) => [f.id, f.value])));
  const table = new Set<string>(FACT_TABLE_ROWS.map((k) => `${cfg}.${k}`));
  return { ...first, facts: first.facts.map((f) => (table.has(f.id) ? { ...f, runs: each.map((m) => m.get(f.id) ?? null) } : f)) };
}

/**
 * Goodput counts requests that meet every SLO and the quality floor: with a
 * floor in the contract, an optimized configuration scoring below it has no
 * such request, and one without a score cannot be checked against it.
 */
function underQualityFloor(facts: readonly Fact[], contract: Contract, score: QualityScore | null): Fact[] {
  const floor = contract.quality.floor ?? contract.slo.qualityFloor;
  if (floor === undefined) return [...facts];
  const composite = score?.composite ?? null;
  if (composite !== null && composite >= floor) return [...facts];
  const goodputIds = new Set(['optimized.goodput', 'optimized.sloAttainment']);
  return facts.map((f) => {
    if (!goodputIds.has(f.id)) return f;
    if (composite === null) {
      const { runs: _runs, ...rest } = f;
      return { ...rest, value: null, provenance: 'not recorded' as const, note: `the quality floor ${floor} cannot be checked: no quality score was recorded` };
    }
    return {
      ...f,
      value: 0,
      runs: f.runs?.map(() => 0),
      note: `quality ${composite} is below the floor ${floor}: no request meets every SLO and the quality floor`,
    };
  });
}

export function textReceipt(input: ReceiptInput<SweepResult>): ReceiptOutcome {
  const problems: string[] = [];
  if (input.method.trim() === '') problems.push('--method: state the optimization method of the optimized configuration');
  const pair = checkRunPair(input.baseline, input.optimized);
  if (!pair.ok) problems.push(...pair.problems);
  if (!pair.ok || problems.length > 0) return { ok: false, problems };
  const runs: Record<ConfigurationKey, CheckedRun> = { baseline: pair.baseline, optimized: pair.optimized };
  const b = withRuns('baseline', runs.baseline);
  const o = withRuns('optimized', runs.optimized);
  const q = qualityFacts(input.quality);
  const facts = [...b.facts, ...underQualityFloor(o.facts, runs.optimized.contract, input.quality), ...q.facts];
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
  const receipt: Receipt = {
    receiptVersion: RECEIPT_VERSION,
    // The date is never cut off a long title: a re-measurement is a new receipt, not a collision.
    id: `${slug(title)}-${measuredAt}`,
    title,
    model,
    hardware,
    measuredAt,
    simulated: isSimulated(runs.baseline) || isSimulated(runs.optimized),
    // Images or audio in every request: the receipt says so beside its modality (one workload on both sides).
    ...(mediaInputs(runs.baseline.contract).length > 0 ? { inputs: mediaInputs(runs.baseline.contract) } : {}),
    configurations: {
      baseline: configuration(runs.baseline, input.baselineMethod?.trim() || 'baseline as deployed, no optimization'),
      optimized: configuration(runs.optimized, input.method.trim()),
    },
    workload: {
      hash: runs.baseline.workloadHash,
      lines: Object.entries(workloadPart(runs.baseline.contract)).map(([k, v]) => `${k}: ${canonicalJson(v)}`),
    },
    costBasis: {
      text:
        `${hardware} compute at the hourly rate recorded with each run. A GPU compute estimate at ${saturatedBoth(runs) ? 'measured saturation' : 'the highest throughput measured (not saturated: the highest level tested)'}: output tokens only, ` +
        'at the measured peak throughput sustained for an hour; it excludes idle time, CPU, memory, networking, redundancy and platform fees.',
      priceAsOf: asOf.at(-1) ?? null,
    },
    facts,
    curves: { baseline: b.curve, optimized: o.curve },
    headlines: [
      { factId: 'optimized.peakThroughput', baselineFactId: 'baseline.peakThroughput' },
      { factId: 'optimized.singleStream', baselineFactId: 'baseline.singleStream' },
      { factId: 'optimized.costPer1M', baselineFactId: 'baseline.costPer1M' },
      { factId: 'optimized.quality', baselineFactId: null },
      { factId: 'optimized.goodput', baselineFactId: 'baseline.goodput' },
    ],
    charts: BAR_FIGURES.map((key) => ({
      id: slug(key.replace(/[A-Z]/g, (c) => `-${c}`)),
      title: `${FIGURES[key].label} by configuration`,
      factIds: [`baseline.${key}`, `optimized.${key}`],
    })),
    quality: q.quality,
    limitations: limitationsOf(runs, facts),
    generator: input.generator,
  };
  return { ok: true, receipt };
}
