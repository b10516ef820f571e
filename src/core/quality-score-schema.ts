/**
 * The quality score as `goodput quality --json` writes it, read back (a
 * receipt embeds it). The schema checks the shape and that the evaluator and
 * scale note are there: a score file without them is not a score.
 */
import { z } from 'zod';
import type { QualityScore } from './quality-score.js';

const unit = z.number().min(0).max(1);
const sha = z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 (64 lowercase hex digits)');

const pplDeltaSchema = z.discriminatedUnion('provenance', [
  z.object({
    value: z.number(), provenance: z.literal('measured'), pplBaseline: z.number().positive(), pplCandidate: z.number().positive(),
    tokens: z.number().int().positive(), term: unit, weight: unit,
  }),
  z.object({ value: z.null(), provenance: z.literal('not recorded'), reason: z.string().min(1), weight: unit }),
]);

/** A stored quality score (extra keys such as the servers' URLs are dropped on parse). */
export const qualityScoreSchema = z.object({
  composite: unit.nullable(),
  compositeProvenance: z.enum(['derived', 'not recorded']),
  components: z.object({
    kl: z.object({
      value: z.number().nonnegative(), provenance: z.literal('measured'), statistic: z.literal('mean over prompts'),
      perPrompt: z.array(z.number().nonnegative()), term: unit, weight: unit,
    }),
    pplDelta: pplDeltaSchema,
  }),
  evaluator: z.string().min(1, 'the evaluator must be stated'),
  scaleNote: z.string().min(1, 'the scale note must be stated'),
  promptSetHash: sha,
  referenceTextHash: sha,
  n: z.number().int().positive(),
  topLogprobs: z.number().int().positive(),
}).refine((s) => (s.composite === null) === (s.compositeProvenance === 'not recorded'), {
  path: ['compositeProvenance'], message: 'must be "not recorded" exactly when composite is null',
}) satisfies z.ZodType<QualityScore>;
