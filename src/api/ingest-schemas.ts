/**
 * Bodies of the ingest routes, through which a `goodput sweep` in another
 * process stores its run while `goodput serve` holds the embedded database.
 * Levels and records are checked against the core schemas; records are stored as sent.
 */
import { z } from 'zod';
import { LIMITS, POOLING_ENDPOINTS, audioInputsSchema, imageInputsSchema, levelResultSchema, poolingLevelSchema, poolingRecordSchema, poolingResultSchema, poolingSloSchema, rawRecordSchema, sweepResultSchema, warningSchema } from '../core/index.js';

const positiveInt = (what: string) => z.number({ error: `${what} must be a number` }).int(`${what} must be a whole number`).positive(`${what} must be positive`);

export const runSpecSchema = z.object({
  url: z.string().min(1), model: z.string().nullable(), endpoint: z.enum(['chat', 'completions', 'responses']),
  levels: z.array(z.number().positive()).min(1), outputTokens: positiveInt('spec.outputTokens'), promptTokens: positiveInt('spec.promptTokens'),
  requestsPerLevel: z.union([z.number().int().positive(), z.literal('auto')]), warmup: z.number().int().nonnegative(),
  thinking: z.boolean(), forceLength: z.boolean(), temperature: z.number(), seed: z.number().int(),
  hourlyCostUsd: z.number().nonnegative().nullable(), baselineRateUsdPer1M: z.number().positive().nullable(),
  gpuLabel: z.string().nullable(), command: z.string(),
  images: imageInputsSchema.optional(), audio: audioInputsSchema.optional(),
});

/** An embeddings or rerank sweep's stored spec, bounded as its sweep spec is. */
export const poolingRunSpecSchema = z.object({
  url: z.string().min(1), model: z.string().nullable(), endpoint: z.enum(POOLING_ENDPOINTS),
  levels: z.array(z.number().int().positive().max(LIMITS.concurrency.max)).min(1).max(LIMITS.levels.max),
  itemsPerRequest: positiveInt('spec.itemsPerRequest').max(Math.max(LIMITS.embeddingBatch.max, LIMITS.rerankDocuments.max)),
  itemTokens: positiveInt('spec.itemTokens').max(LIMITS.promptTokens.max),
  queryTokens: positiveInt('spec.queryTokens').max(LIMITS.promptTokens.max).nullable(),
  requestsPerLevel: z.union([z.number().int().positive().max(LIMITS.requestsPerLevel.max), z.literal('auto')]),
  warmup: z.number().int().nonnegative().max(LIMITS.warmupRequests.max), seed: z.number().int(),
  hourlyCostUsd: z.number().nonnegative().nullable(), latencySlo: poolingSloSchema.nullable(), command: z.string(),
}).strict();

export const beginRunSchema = z.object({
  serverId: positiveInt('serverId').nullable(),
  serverName: z.string().nullable(),
  targetUrl: z.url({ protocol: /^https?$/, error: 'targetUrl must be an http(s) URL' }),
  spec: z.discriminatedUnion('endpoint', [runSpecSchema, poolingRunSpecSchema]),
  ownerPid: positiveInt('ownerPid'),
  ownerHost: z.string().min(1, 'ownerHost must not be empty'),
});

export const modelBodySchema = z.object({ model: z.string().min(1, 'model must not be empty') });
export const warningBodySchema = z.object({ warning: warningSchema });
export const reasonBodySchema = z.object({ reason: z.string().min(1, 'reason must not be empty') });
export const resultBodySchema = z.object({ result: sweepResultSchema });

/** A level with its raw records: each record must match the raw-record schema. */
export const levelBodySchema = z.object({
  level: levelResultSchema,
  records: z.array(z.unknown()).superRefine((records, ctx) => {
    for (const [i, r] of records.entries()) {
      const parsed = rawRecordSchema.safeParse(r);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        ctx.addIssue({ code: 'custom', path: [i, ...(issue?.path ?? [])] as PropertyKey[], message: issue?.message ?? 'not a request record' });
        return;
      }
    }
  }),
});

/** An embeddings or rerank level with its raw records, each checked against the pooling record schema. */
export const poolingLevelBodySchema = z.object({
  level: poolingLevelSchema,
  records: z.array(poolingRecordSchema).max(LIMITS.requestsPerLevel.max + LIMITS.warmupRequests.max),
});
export const poolingResultBodySchema = z.object({ result: poolingResultSchema });
