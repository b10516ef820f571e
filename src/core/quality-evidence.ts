/**
 * A quality score's raw evidence: the top-k first-token logprobs each side
 * returned for every prompt, and each side's scored reference-text tokens. A
 * reader recomputes the whole score from it with core's own code, so a score
 * whose per-prompt KL, mean or composite was edited (and re-hashed) no longer
 * matches what its evidence gives.
 */
import { z } from 'zod';
import { LIMITS, type LimitName, limitMessage } from './limits.js';
import { composeQualityScore, type QualityInput, type QualityScore } from './quality-score.js';

/** A refusal past limit `name` naming the count (an array's or a string's length) and the limit. */
const overLimit = (name: LimitName, label: string) => ({
  error: (i: { input?: unknown }) => limitMessage(name, Array.isArray(i.input) || typeof i.input === 'string' ? i.input.length : Number(i.input), label),
});

const tokenText = z.string().max(LIMITS.qualityTokenChars.max, overLimit('qualityTokenChars', "a token's text"));
const logprob = z.number().max(1e-6, 'a logprob is a number ≤ 0').min(-1e6, 'a logprob below −1,000,000 is not a measured probability');

const topSchema = z
  .array(z.object({ token: tokenText, logprob }).strict())
  .min(1, 'each side returned at least one top logprob')
  .max(LIMITS.qualityTopK.max, overLimit('qualityTopK', 'top logprobs'))
  .readonly();

const scoredTextSchema = z
  .object({
    tokens: z.array(tokenText).min(1).max(LIMITS.qualityReferenceTokens.max, overLimit('qualityReferenceTokens', 'scored tokens')).readonly(),
    logprobs: z.array(logprob).min(1).max(LIMITS.qualityReferenceTokens.max, overLimit('qualityReferenceTokens', 'scored logprobs')).readonly(),
  })
  .strict();

const count = z.number().int().nonnegative().max(LIMITS.qualityReferenceTokens.max, overLimit('qualityReferenceTokens', 'tokens at the tail bound'));

/** The measured inputs of a score as it stores them: composeQualityScore's input without the hashes and k, which the score states. */
export const qualityEvidenceSchema = z
  .object({
    firstToken: z
      .array(z.object({ baseline: topSchema, candidate: topSchema }).strict())
      .min(1)
      .max(LIMITS.qualityPrompts.max, overLimit('qualityPrompts', 'prompts'))
      .readonly(),
    referenceText: z.union([
      z
        .object({
          baseline: scoredTextSchema,
          candidate: scoredTextSchema,
          prefix: z
            .object({ tailTokens: z.object({ baseline: count, candidate: count }).strict() })
            .strict()
            .optional(),
        })
        .strict()
        .superRefine((r, ctx) => {
          // A side cannot have more tokens at the tail bound than it scored.
          for (const side of ['baseline', 'candidate'] as const) {
            const tail = r.prefix?.tailTokens[side];
            if (tail !== undefined && tail > r[side].tokens.length) {
              ctx.addIssue({
                code: 'custom',
                path: ['prefix', 'tailTokens', side],
                message: `is ${tail}, more than the ${r[side].tokens.length} tokens the ${side} side scored`,
              });
            }
          }
        }),
      z.object({ notRecorded: z.string().min(1).max(4096) }).strict(),
    ]),
  })
  .strict();

export type QualityEvidence = Pick<QualityInput, 'firstToken' | 'referenceText'>;

/** Equal within float rounding: how a score's derived figures are compared with what derives them. */
export const withinRounding = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

/** Each place where `stated` differs from `recomputed` (numbers within float rounding), as [path, stated, recomputed]. */
function differing(stated: unknown, recomputed: unknown, path: Array<string | number>, out: Array<[Array<string | number>, unknown, unknown]>): void {
  if (out.length >= 12) return;
  if (typeof stated === 'number' && typeof recomputed === 'number') {
    if (!withinRounding(stated, recomputed)) out.push([path, stated, recomputed]);
    return;
  }
  if (Array.isArray(stated) && Array.isArray(recomputed)) {
    if (stated.length !== recomputed.length) out.push([[...path, 'length'], stated.length, recomputed.length]);
    else stated.forEach((v, i) => differing(v, recomputed[i], [...path, i], out));
    return;
  }
  if (
    typeof stated === 'object' &&
    stated !== null &&
    typeof recomputed === 'object' &&
    recomputed !== null &&
    !Array.isArray(stated) &&
    !Array.isArray(recomputed)
  ) {
    const keys = new Set([...Object.keys(stated), ...Object.keys(recomputed)]);
    for (const k of keys) differing((stated as Record<string, unknown>)[k], (recomputed as Record<string, unknown>)[k], [...path, k], out);
    return;
  }
  if (stated !== recomputed) out.push([path, stated, recomputed]);
}

/** The figures a score derives from its evidence: everything but the evidence itself and what names the sides and runs. */
const derived = (s: QualityScore) => ({
  composite: s.composite,
  compositeProvenance: s.compositeProvenance,
  components: s.components,
  n: s.n,
  evaluator: s.evaluator,
  scaleNote: s.scaleNote,
});

/**
 * The score recomputed from its own evidence, and where the stated score
 * differs from it (path, stated, recomputed). A score without evidence gives
 * null: nothing can be recomputed.
 */
export function recomputeQualityScore(score: QualityScore): { score: QualityScore; differences: Array<[Array<string | number>, unknown, unknown]> } | null {
  if (score.evidence === undefined) return null;
  let again: QualityScore;
  try {
    again = composeQualityScore({
      ...score.evidence,
      topLogprobs: score.topLogprobs,
      promptSetHash: score.promptSetHash,
      referenceTextHash: score.referenceTextHash,
    });
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return { score, differences: [[['evidence'], 'stated', `not a measurement: ${err.message}`]] };
  }
  const out: Array<[Array<string | number>, unknown, unknown]> = [];
  const tooMany = score.evidence.firstToken.findIndex((p) => p.baseline.length > score.topLogprobs || p.candidate.length > score.topLogprobs);
  if (tooMany >= 0)
    out.push([['evidence', 'firstToken', tooMany], 'more entries than topLogprobs', `at most ${score.topLogprobs} (the top_logprobs asked for)`]);
  differing(derived(score), derived(again), [], out);
  return {
    score: { ...again, ...(score.compared ? { compared: score.compared } : {}), ...(score.runs ? { runs: score.runs } : {}), evidence: score.evidence },
    differences: out,
  };
}
