/**
 * The quality score as `goodput quality --json` writes it, read back (a
 * receipt embeds it). The schema checks the shape and that the evaluator and
 * scale note are there: a score file without them is not a score.
 */
import { z } from 'zod';
import { LIMITS, limitMessage } from './limits.js';
import { serverAccountSchema } from './server-account-schema.js';
import { withinRounding, qualityEvidenceSchema } from './quality-evidence.js';
import { KL_WEIGHT, PPL_WEIGHT, QUALITY_EVALUATOR, QUALITY_EVALUATOR_ID, QUALITY_SCALE_NOTE, type QualityScore } from './quality-score.js';
import { QUALITY_NOISE_STATISTIC, qualityNoise } from './quality-noise.js';

const unit = z.number().min(0).max(1);
/** Tokens of one side at prefix scoring's tail bound: at most the reference tokens a side can score. */
const tailCount = z
  .number()
  .int()
  .nonnegative()
  .max(LIMITS.qualityReferenceTokens.max, { error: (i) => limitMessage('qualityReferenceTokens', Number(i.input), 'tokens at the tail bound') });
/** A run's id as runIdOf gives it. */
const runId = z.string().regex(/^(set:[0-9a-f]{16}|records:[0-9a-f]{64})$/, 'must be a run id (set:<16 hex> or records:<sha256>)');
const sha = z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 (64 lowercase hex digits)');

const pplDeltaSchema = z.discriminatedUnion('provenance', [
  z.object({
    value: z.number(),
    provenance: z.literal('measured'),
    pplBaseline: z.number().positive(),
    pplCandidate: z.number().positive(),
    tokens: z.number().int().positive(),
    term: unit,
    weight: unit,
    method: z.enum(['prompt-logprobs', 'prefix-scoring']).optional(),
    tailTokens: z.object({ baseline: tailCount, candidate: tailCount }).optional(),
  }),
  z.object({ value: z.null(), provenance: z.literal('not recorded'), reason: z.string().min(1), weight: unit }),
]);

const sideSchema = z.object({
  model: z.string().min(1),
  fingerprint: sha.nullable(),
  engine: z.string().nullable(),
  engineVersion: z.string().nullable(),
  account: serverAccountSchema.optional(),
});

/** A stored quality score (extra keys such as the servers' URLs are dropped on parse). */
export const qualityScoreSchema = z
  .object({
    composite: unit.nullable(),
    compositeProvenance: z.enum(['derived', 'not recorded']),
    components: z.object({
      kl: z.object({
        value: z.number().nonnegative(),
        provenance: z.literal('measured'),
        statistic: z.literal('mean over prompts'),
        perPrompt: z.array(z.number().nonnegative()),
        term: unit,
        weight: unit,
      }),
      pplDelta: pplDeltaSchema,
    }),
    evaluator: z.string().min(1, 'the evaluator must be stated'),
    scaleNote: z.string().min(1, 'the scale note must be stated'),
    promptSetHash: sha,
    referenceTextHash: sha,
    n: z.number().int().positive(),
    topLogprobs: z.number().int().positive(),
    compared: z.object({ baseline: sideSchema, candidate: sideSchema, measuredAt: z.iso.datetime({ offset: true }) }).optional(),
    runs: z.object({ baseline: runId.nullable(), candidate: runId }).strict().optional(),
    evidence: qualityEvidenceSchema.optional(),
    noise: z.object({ value: unit, statistic: z.literal(QUALITY_NOISE_STATISTIC), seed: z.number().int(), resamples: z.number().int().positive() }).optional(),
  })
  .refine((s) => (s.composite === null) === (s.compositeProvenance === 'not recorded'), {
    path: ['compositeProvenance'],
    message: 'must be "not recorded" exactly when composite is null',
  })
  .superRefine((s, ctx) => {
    for (const [path, message] of inconsistencies(s)) ctx.addIssue({ code: 'custom', path, message });
  }) satisfies z.ZodType<QualityScore>;

/**
 * A score is only a score under our evaluator, and only when every derived
 * figure recomputes from what it derives from: an edited file is refused,
 * naming the field.
 */
function inconsistencies(s: QualityScore): Array<[Array<string | number>, string]> {
  const out: Array<[Array<string | number>, string]> = [];
  const { kl, pplDelta } = s.components;
  // An empty text is already reported by its field's own check.
  if (s.evaluator !== '' && s.evaluator !== QUALITY_EVALUATOR)
    out.push([['evaluator'], `must be ${QUALITY_EVALUATOR_ID}'s definition; a score under another evaluator is not comparable`]);
  if (s.scaleNote !== '' && s.scaleNote !== QUALITY_SCALE_NOTE) out.push([['scaleNote'], `must read "${QUALITY_SCALE_NOTE}"`]);
  if (kl.weight !== KL_WEIGHT || pplDelta.weight !== PPL_WEIGHT) out.push([['components'], `weights must be ${KL_WEIGHT} (KL) and ${PPL_WEIGHT} (perplexity)`]);
  if (kl.perPrompt.length !== s.n) out.push([['n'], `is ${s.n} but ${kl.perPrompt.length} per-prompt KL values are given`]);
  const mean = kl.perPrompt.reduce((a, b) => a + b, 0) / Math.max(1, kl.perPrompt.length);
  if (!withinRounding(kl.value, mean)) out.push([['components', 'kl', 'value'], `is ${kl.value}, not the mean of perPrompt (${mean})`]);
  if (!withinRounding(kl.term, Math.exp(-kl.value))) out.push([['components', 'kl', 'term'], `is ${kl.term}, not exp(−KL) = ${Math.exp(-kl.value)}`]);
  if (pplDelta.value !== null) {
    if (!withinRounding(pplDelta.value, pplDelta.pplCandidate / pplDelta.pplBaseline - 1))
      out.push([['components', 'pplDelta', 'value'], 'is not PPL_candidate / PPL_baseline − 1']);
    if (!withinRounding(pplDelta.term, Math.min(1, pplDelta.pplBaseline / pplDelta.pplCandidate)))
      out.push([['components', 'pplDelta', 'term'], 'is not min(1, PPL_baseline / PPL_candidate)']);
    const composite = 1 - KL_WEIGHT * (1 - kl.term) - PPL_WEIGHT * (1 - pplDelta.term);
    if (s.composite !== null && !withinRounding(s.composite, composite)) out.push([['composite'], `is ${s.composite}, but its components give ${composite}`]);
  } else if (s.composite !== null) out.push([['composite'], 'has a value although the perplexity component is not recorded']);
  // The noise is recomputed from the per-prompt values with our seed: a score cannot claim to be steadier than its prompts say.
  if (s.noise !== undefined && kl.perPrompt.length === s.n) {
    const noise = qualityNoise(kl.perPrompt, pplDelta.value === null ? null : pplDelta.term);
    if (noise === null) out.push([['noise'], 'is stated although there is no composite to be noisy']);
    else if (s.noise.seed !== noise.seed || s.noise.resamples !== noise.resamples)
      out.push([['noise'], `must be bootstrapped with seed ${noise.seed} and ${noise.resamples} resamples`]);
    else if (!withinRounding(s.noise.value, noise.value)) out.push([['noise', 'value'], `is ${s.noise.value}, but the per-prompt values give ${noise.value}`]);
  }
  return out;
}
