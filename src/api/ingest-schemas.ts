/**
 * Bodies of the ingest routes, through which a `goodput sweep` in another
 * process stores its run while `goodput serve` holds the embedded database.
 * Levels and records are checked against the core schemas; records are stored as sent.
 */
import { z } from 'zod';
import {
  LIMITS,
  type LimitName,
  POOLING_ENDPOINTS,
  RECORD_BOUNDS,
  type RawRecord,
  levelRecordsProblem,
  limitMessage,
  audioInputsSchema,
  imageInputsSchema,
  levelResultSchema,
  poolingLevelSchema,
  poolingRecordSchema,
  poolingResultSchema,
  poolingSloSchema,
  rawRecordSchema,
  sweepResultSchema,
  warningSchema,
} from '../core/index.js';

const positiveInt = (what: string) =>
  z
    .number({ error: `${what} must be a number` })
    .int(`${what} must be a whole number`)
    .positive(`${what} must be positive`);

const bounded = (what: string, limit: LimitName) => positiveInt(what).max(LIMITS[limit].max, { error: (i) => limitMessage(limit, Number(i.input), what) });

/** A text run's stored spec, bounded as the sweep that makes it is (and as a stored row is checked when read back). */
export const runSpecSchema = z.object({
  url: z.string().min(1),
  model: z.string().nullable(),
  endpoint: z.enum(['chat', 'completions', 'responses', 'messages']),
  levels: z
    .array(z.number().positive().finite())
    .min(1)
    .max(LIMITS.levels.max, { error: (i) => limitMessage('levels', Array.isArray(i.input) ? i.input.length : Number(i.input), 'spec.levels') }),
  outputTokens: bounded('spec.outputTokens', 'outputTokens'),
  promptTokens: bounded('spec.promptTokens', 'promptTokens'),
  requestsPerLevel: z.union([bounded('spec.requestsPerLevel', 'requestsPerLevel'), z.literal('auto')]),
  warmup: z
    .number()
    .int()
    .nonnegative()
    .max(LIMITS.warmupRequests.max, { error: (i) => limitMessage('warmupRequests', Number(i.input), 'spec.warmup') }),
  thinking: z.boolean(),
  forceLength: z.boolean(),
  temperature: z.number(),
  seed: z.number().int(),
  hourlyCostUsd: z.number().nonnegative().nullable(),
  baselineRateUsdPer1M: z.number().positive().nullable(),
  gpuLabel: z.string().nullable(),
  command: z.string(),
  images: imageInputsSchema.optional(),
  audio: audioInputsSchema.optional(),
});

/** An embeddings or rerank sweep's stored spec, bounded as its sweep spec is. */
export const poolingRunSpecSchema = z
  .object({
    url: z.string().min(1),
    model: z.string().nullable(),
    endpoint: z.enum(POOLING_ENDPOINTS),
    levels: z.array(z.number().int().positive().max(LIMITS.concurrency.max)).min(1).max(LIMITS.levels.max),
    itemsPerRequest: positiveInt('spec.itemsPerRequest').max(Math.max(LIMITS.embeddingBatch.max, LIMITS.rerankDocuments.max)),
    itemTokens: positiveInt('spec.itemTokens').max(LIMITS.promptTokens.max),
    queryTokens: positiveInt('spec.queryTokens').max(LIMITS.promptTokens.max).nullable(),
    requestsPerLevel: z.union([z.number().int().positive().max(LIMITS.requestsPerLevel.max), z.literal('auto')]),
    warmup: z.number().int().nonnegative().max(LIMITS.warmupRequests.max),
    seed: z.number().int(),
    hourlyCostUsd: z.number().nonnegative().nullable(),
    latencySlo: poolingSloSchema.nullable(),
    command: z.string(),
  })
  .strict();

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

const NO_RECORDS = 'a level is stored with the records of its requests, as `goodput runs import` needs them; none were sent';

/** A level with its raw records: each record must match the raw-record schema, and together reproduce the level's counts. */
export const levelBodySchema = z
  .object({
    level: levelResultSchema,
    records: z
      .array(z.unknown())
      .min(1, NO_RECORDS)
      .max(RECORD_BOUNDS.levelRecords)
      .superRefine((records, ctx) => {
        for (const [i, r] of records.entries()) {
          const parsed = rawRecordSchema.safeParse(r);
          if (!parsed.success) {
            const issue = parsed.error.issues[0];
            ctx.addIssue({ code: 'custom', path: [i, ...(issue?.path ?? [])] as PropertyKey[], message: issue?.message ?? 'not a request record' });
            return;
          }
        }
      }),
  })
  .superRefine((body, ctx) => {
    const problem = levelRecordsProblem(body.level, body.records as RawRecord[]);
    if (problem !== null) ctx.addIssue({ code: 'custom', path: ['records'], message: `the records sent ${problem}` });
  });

/** An embeddings or rerank level with its raw records, each checked against the pooling record schema. */
export const poolingLevelBodySchema = z
  .object({
    level: poolingLevelSchema,
    records: z
      .array(poolingRecordSchema)
      .min(1, NO_RECORDS)
      .max(LIMITS.requestsPerLevel.max + LIMITS.warmupRequests.max),
  })
  .superRefine((body, ctx) => {
    const problem = levelRecordsProblem({ requests: body.level.requests }, body.records);
    if (problem !== null) ctx.addIssue({ code: 'custom', path: ['records'], message: `the records sent ${problem}` });
  });
export const poolingResultBodySchema = z.object({ result: poolingResultSchema });
