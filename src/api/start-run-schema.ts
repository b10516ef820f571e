/**
 * The body of `POST /api/runs` (the page's Start): one zod schema giving the
 * type, the defaults and the messages that name the field; an embeddings or
 * rerank sweep has its own, chosen by its `endpoint`.
 */
import { z } from 'zod';
import { LIMITS, MAX_CONCURRENCY, MAX_LEVELS, POOLING_ENDPOINTS, isPoolingEndpoint, limitMessage, limitedInt, overLimit, poolingSloSchema, unionError } from '../core/index.js';

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

/** `POST /api/runs` for an embeddings or rerank sweep: the flags of `goodput sweep --endpoint embeddings|rerank`, bounded by the same limits rows. */
export const startPoolingRunSchema = z.strictObject({
  serverId: z.number({ error: 'serverId must be the id of a registered server' }).int('serverId must be a whole number').positive('serverId must be positive'),
  endpoint: z.enum(POOLING_ENDPOINTS),
  levels: z.array(level, { error: 'levels must be a list of positive integers, e.g. [1, 2, 4, 8]' })
    .min(1, 'give at least one concurrency level')
    .max(MAX_LEVELS, { error: (issue) => limitMessage('levels', Array.isArray(issue.input) ? issue.input.length : Number(issue.input), 'levels') }),
  /** Inputs per embeddings request (default 16), or documents per rerank query (default 32). */
  itemsPerRequest: z.number({ error: 'itemsPerRequest must be a number' }).int('itemsPerRequest must be a whole number').positive('itemsPerRequest must be positive').optional(),
  itemTokens: limitedInt('promptTokens', 'itemTokens').default(512),
  queryTokens: limitedInt('promptTokens', 'queryTokens').default(32),
  requestsPerLevel: z.union([limitedInt('requestsPerLevel', 'requestsPerLevel'), z.literal('auto')], unionError('requestsPerLevel must be a positive integer or "auto"')).default('auto'),
  /** Omitted: the server's registered hourly cost; null: none. */
  hourlyCostUsd: z.number({ error: 'hourlyCostUsd must be a number' }).nonnegative('hourlyCostUsd must not be negative').nullable().optional(),
  latencySlo: poolingSloSchema.nullable().default(null),
}, { error: (iss) => (iss.code === 'unrecognized_keys' ? `unknown field(s): ${iss.keys.join(', ')}` : 'the body must be a JSON object') })
  .superRefine((b, ctx) => {
    const limit = b.endpoint === 'rerank' ? 'rerankDocuments' : 'embeddingBatch';
    if (b.itemsPerRequest !== undefined && b.itemsPerRequest > LIMITS[limit].max) ctx.addIssue({ code: 'custom', path: ['itemsPerRequest'], message: limitMessage(limit, b.itemsPerRequest, 'itemsPerRequest') });
  });

export type StartPoolingRunBody = z.output<typeof startPoolingRunSchema>;

/** Either body, chosen by `endpoint` (absent: a text sweep), with the chosen schema's own messages naming the field. */
export const startAnyRunSchema = z.unknown().transform((v, ctx): { kind: 'text'; body: StartRunBody } | { kind: 'pooling'; body: StartPoolingRunBody } | never => {
  const pooling = typeof v === 'object' && v !== null && isPoolingEndpoint((v as { endpoint?: unknown }).endpoint);
  const parsed = pooling ? startPoolingRunSchema.safeParse(v) : startRunSchema.safeParse(v);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue } as Parameters<typeof ctx.addIssue>[0]);
    return z.NEVER;
  }
  return pooling ? { kind: 'pooling', body: parsed.data as StartPoolingRunBody } : { kind: 'text', body: parsed.data as StartRunBody };
});
