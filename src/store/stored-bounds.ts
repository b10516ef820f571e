/**
 * The limits table, applied to a run row as it is read back. A row is written
 * through a checked path (a sweep, an import, a serve's ingest), but the store is
 * a folder or a database others may write to directly: a row past the bounds no
 * sweep could have made is refused wherever it came from, naming its field.
 */
import { z } from 'zod';
import { LIMITS, type LimitName, RECORD_BOUNDS, limitMessage } from '../core/index.js';

const atMost = (limit: LimitName, field: string) => z.number().max(LIMITS[limit].max, { error: (i) => limitMessage(limit, Number(i.input), field) });

/** The bounded fields of a stored spec (text or pooling); other fields are as stored. */
export const storedSpecBounds = z.looseObject({
  levels: z
    .array(z.number())
    .max(LIMITS.levels.max, { error: (i) => limitMessage('levels', Array.isArray(i.input) ? i.input.length : Number(i.input), 'levels') }),
  outputTokens: atMost('outputTokens', 'outputTokens').optional(),
  promptTokens: atMost('promptTokens', 'promptTokens').optional(),
  requestsPerLevel: z.union([atMost('requestsPerLevel', 'requestsPerLevel'), z.literal('auto')]).optional(),
  warmup: atMost('warmupRequests', 'warmup').optional(),
});

/** The bounded fields of one stored level: its request counts are the records a level may hold. */
export const storedLevelBounds = z.looseObject({
  requests: z
    .number()
    .max(RECORD_BOUNDS.levelRecords, { error: (i) => `requests ${String(i.input)} is more than a level can hold (${RECORD_BOUNDS.levelRecords} records)` }),
});

/** The level rows of one run: never more than a run has levels. */
export const storedLevelsBounds = z
  .array(storedLevelBounds)
  .max(LIMITS.levels.max, { error: (i) => limitMessage('levels', Array.isArray(i.input) ? i.input.length : Number(i.input), 'levels') });

/**
 * The bounded fields of a stored quality score (the one measured in the run, kept with the result's other fields):
 * no more prompts and top logprobs than a score is measured over. What a score is otherwise is core's qualityScoreSchema.
 */
export const storedQualityBounds = z.looseObject({
  n: atMost('qualityPrompts', 'n'),
  topLogprobs: atMost('qualityTopK', 'topLogprobs'),
  components: z.looseObject({
    kl: z.looseObject({
      perPrompt: z.array(z.unknown()).max(LIMITS.qualityPrompts.max, {
        error: (i) => limitMessage('qualityPrompts', Array.isArray(i.input) ? i.input.length : Number(i.input), 'per-prompt KL values'),
      }),
    }),
  }),
});
