/**
 * The body of `POST /api/runs` (the page's Start): one zod schema giving the
 * type, the defaults and the messages that name the field.
 */
import { z } from 'zod';
import { MAX_CONCURRENCY, MAX_LEVELS, limitMessage, limitedInt, overLimit, unionError } from '../core/index.js';

const level = z.number({ error: 'each level must be a number' })
  .int('each level must be a whole number')
  .positive('each level must be a positive integer')
  .max(MAX_CONCURRENCY, overLimit('concurrency', 'level'));

export const startRunSchema = z.strictObject({
  serverId: z.number({ error: 'serverId must be the id of a registered server' }).int('serverId must be a whole number').positive('serverId must be positive'),
  levels: z.array(level, { error: 'levels must be a list of positive integers, e.g. [1, 2, 4, 8]' })
    .min(1, 'give at least one concurrency level')
    .max(MAX_LEVELS, { error: (issue) => limitMessage('levels', Array.isArray(issue.input) ? issue.input.length : Number(issue.input), 'levels') }),
  outputTokens: limitedInt('outputTokens', 'outputTokens').default(256),
  thinking: z.boolean({ error: 'thinking must be true or false' }).default(false),
  /** Omitted: the server's registered hourly cost; null: none (no cost figure). */
  hourlyCostUsd: z.number({ error: 'hourlyCostUsd must be a number' }).nonnegative('hourlyCostUsd must not be negative').nullable().optional(),
  baselineRateUsdPer1M: z.number({ error: 'baselineRateUsdPer1M must be a number' }).positive('baselineRateUsdPer1M must be positive').nullable().default(null),
  promptTokens: limitedInt('promptTokens', 'promptTokens').default(512),
  requestsPerLevel: z.union([limitedInt('requestsPerLevel', 'requestsPerLevel'), z.literal('auto')], unionError('requestsPerLevel must be a positive integer or "auto"')).default('auto'),
}, { error: (iss) => (iss.code === 'unrecognized_keys' ? `unknown field(s): ${iss.keys.join(', ')}` : 'the body must be a JSON object') });

export type StartRunBody = z.output<typeof startRunSchema>;
