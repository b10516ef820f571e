/**
 * The text-generation kind of receipt (chat, completions, Responses): read
 * through the sweep result's schema, checked by recomputing every level and
 * card from its records, repeats combined as `goodput run` combines them, a
 * quality score taken from the optimized run or a standalone file, and its
 * facts: peak throughput, single-stream figures, goodput, cost and each
 * level's curve values, tool calls, speculative decoding, energy, pools and
 * fleet targets (run-facts.ts).
 */
import type { z } from 'zod';
import { type Contract, combineRepeats, runsOf } from '../contract/index.js';
import { canonicalJson, type QualityScore, type SweepResult, sweepResultSchema } from '../core/index.js';
import { FIGURES, type FigureKey } from '../web/index.js';
import { configurationPart, headersRoundTripMs } from './configuration-part.js';
import { checkEvidence } from './evidence-check.js';
import { publicTextResult } from './evidence-files.js';
import { type ConfigurationKey, FACT_TABLE_ROWS, type Fact } from './fact.js';
import { isSimulated, limitationsOf, saturatedBoth } from './limitations.js';
import { qualityFacts } from './quality-facts.js';
import { qualityRefusals, recomputedQuality } from './quality-belongs.js';
import { dayRefusal } from './receipt-dates.js';
import type { KindQuality, KindSide, ReceiptInput, ReceiptKind, ReceiptOutcome } from './receipt-kind.js';
import { barCharts, checkedPair, headlinesOf, receiptOf, withRuns } from './receipt-parts.js';
import { type Refusal, refusal } from './refusal.js';
import { mediaInputs } from './run-pair.js';
import { runFacts, sentWithTools } from './run-facts.js';
import { carriesServerFacts } from './stated-facts.js';
import { carriesServerParts } from './parts-facts.js';
import { factSetOf } from './receipt-schema.js';

/** The configurations charted as bars, in page order. */
export const BAR_FIGURES: readonly FigureKey[] = ['peakThroughput', 'singleStream', 'ttftSingle', 'tpotSingle', 'costPer1M'];

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

function textReceipt(input: ReceiptInput<SweepResult>): ReceiptOutcome {
  const pair = checkedPair(input);
  if (!pair.ok) return pair;
  const { runs } = pair;
  const both = [runs.baseline.result, runs.optimized.result];
  const factSet = factSetOf(input.factSet, {
    tools: both.some(sentWithTools),
    serverFacts: both.some(carriesServerFacts),
    parts: both.some(carriesServerParts),
  });
  const factsOf = (cfg: ConfigurationKey) => {
    const first = runFacts(cfg, runs[cfg], factSet);
    const facts = withRuns(
      cfg,
      first.facts,
      runsOf(runs[cfg].result),
      (result) => runFacts(cfg, { ...runs[cfg], result }, factSet).facts,
      FACT_TABLE_ROWS,
      input.perLevelRuns,
    );
    return { facts, curve: first.curve };
  };
  const b = factsOf('baseline');
  const o = factsOf('optimized');
  const q = qualityFacts(input.quality);
  const facts = [...b.facts, ...underQualityFloor(o.facts, runs.optimized.contract, input.quality), ...q.facts];
  const media = mediaInputs(runs.baseline.contract);
  const config = configurationPart(runs, headersRoundTripMs);
  return receiptOf(input, runs, {
    factSet,
    simulated: isSimulated(runs.baseline) || isSimulated(runs.optimized),
    // Images or audio in every request: the receipt says so beside its modality (one workload on both sides).
    tag: media.length > 0 ? { inputs: media } : {},
    costText:
      `${runs.baseline.contract.hardware.label} compute at the hourly rate recorded with each run. A GPU compute estimate at ${saturatedBoth(runs) ? 'measured saturation' : 'the highest throughput measured (not saturated: the highest level tested)'}: output tokens only, ` +
      'at the measured peak throughput sustained for an hour; it excludes idle time, CPU, memory, networking, redundancy and platform fees.',
    facts,
    curves: { baseline: b.curve, optimized: o.curve },
    headlines: headlinesOf(['peakThroughput', 'singleStream', 'costPer1M', 'quality', 'goodput'], ['quality']),
    charts: barCharts(BAR_FIGURES, (key) => `${FIGURES[key as FigureKey].label} by configuration`),
    quality: q.quality,
    // The handicap and the differing conditions follow what the runs carry; runs recorded before configurations add none.
    limitations: [...limitationsOf(runs, facts), ...config.limitations],
    ...(config.section === undefined ? {} : { serverConfiguration: config.section }),
  });
}

/**
 * The score a receipt states: the one measured in the optimized run (goodput
 * run --quality-baseline), else the standalone file. A contract that declares
 * the score measured in the run must carry it, and a standalone file beside an
 * in-run score must be that same score.
 */
function chooseScore(standalone: QualityScore | null, optimized: KindSide<SweepResult>, out: Refusal[]): { score: QualityScore; inRun: boolean } | null {
  const inRun = optimized.runs[0]?.quality;
  if (optimized.contract.quality.baselineUrl !== undefined && inRun === undefined) {
    out.push(
      refusal(
        'quality-declared',
        'evidence.optimized: quality',
        'is absent, but the hashed contract declares the quality score measured in the run (quality.baselineUrl); a run that declares it ships it',
      ),
    );
  }
  if (inRun === undefined) return standalone === null ? null : { score: standalone, inRun: false };
  if (standalone !== null && canonicalJson(standalone) !== canonicalJson(inRun)) {
    out.push(
      refusal(
        'quality-belongs',
        'evidence.quality',
        'is another score than the one measured in the optimized run; a receipt states the score its run measured',
      ),
    );
  }
  return { score: inRun, inRun: true };
}

/** The chosen score recomputed from its evidence and checked to belong to these runs; its refusals go to `out`, never ending the recomputation. */
function evidenceQuality(
  standalone: QualityScore | null,
  optimized: KindSide<SweepResult>,
  results: Record<'baseline' | 'optimized', SweepResult>,
  today: string,
  out: Refusal[],
): KindQuality {
  const chosen = chooseScore(standalone, optimized, out);
  if (chosen === null) return { ok: true, score: null };
  let score: QualityScore | null = null;
  const again = recomputedQuality(chosen.score);
  if (again.ok) score = again.score;
  else out.push(...again.refusals);
  out.push(...qualityRefusals(chosen.score, results, chosen.inRun));
  const when = chosen.score.compared?.measuredAt.slice(0, 10);
  const late = when === undefined ? null : dayRefusal('evidence.quality: compared.measuredAt', when, today);
  if (late !== null) out.push(late);
  return { ok: true, score };
}

export const textKind: ReceiptKind<SweepResult> = {
  endpoints: ['chat', 'completions', 'responses', 'messages'],
  schema: sweepResultSchema as z.ZodType<SweepResult>,
  publicCopy: publicTextResult,
  checkEvidence,
  combineRuns: combineRepeats,
  evidenceQuality,
  build: textReceipt,
  page: {
    factRows: () => FACT_TABLE_ROWS.map((key) => ({ key, def: FIGURES[key] })),
    cost: { peak: 'peakThroughput', cost: 'costPer1M' },
    pareto: true,
    modalityNote: () => null,
  },
};
