/**
 * The text-generation kind of receipt (chat, completions, Responses): read
 * through the sweep result's schema, checked by recomputing every level and
 * card from its records, repeats combined as `goodput run` combines them,
 * and a quality score taken from the optimized run or a standalone file.
 */
import type { z } from 'zod';
import { combineRepeats } from '../contract/index.js';
import { canonicalJson, type QualityScore, type SweepResult, sweepResultSchema } from '../core/index.js';
import { checkEvidence } from './evidence-check.js';
import { publicTextResult } from './evidence-files.js';
import { qualityRefusals, recomputedQuality } from './quality-belongs.js';
import { dayRefusal } from './receipt-dates.js';
import type { KindQuality, KindSide, ReceiptKind } from './receipt-kind.js';
import { type Refusal, refusal } from './refusal.js';
import { textReceipt } from './text-receipt.js';

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
  endpoints: ['chat', 'completions', 'responses'],
  schema: sweepResultSchema as z.ZodType<SweepResult>,
  publicCopy: publicTextResult,
  checkEvidence,
  combineRuns: combineRepeats,
  evidenceQuality,
  build: textReceipt,
};
