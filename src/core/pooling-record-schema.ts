/**
 * One embeddings or rerank request record as a file states it: the schema a
 * contract result's evidence is read through, bounded by the limits table,
 * with its instants in order. Nothing here is believed before it parses.
 */
import { z } from 'zod';
import { LIMITS, RECORD_BOUNDS } from './limits.js';
import type { PoolingRecord } from './pooling-record.js';

const B = RECORD_BOUNDS;
const ns = z.number().min(-B.instantNs).max(B.instantNs);
const message = z.string().max(B.messageChars);

const poolingOutcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ok') }).strict(),
  z.object({ kind: z.literal('http-error'), status: z.number().int().min(0).max(999), message }).strict(),
  z.object({ kind: z.literal('bad-answer'), message }).strict(),
  z.object({ kind: z.literal('timeout'), message }).strict(),
  z.object({ kind: z.literal('connection-error'), code: z.string().max(B.codeChars), message }).strict(),
  z.object({ kind: z.literal('response-too-large'), message }).strict(),
  z.object({ kind: z.literal('aborted') }).strict(),
]);

/** Records one pooling run may keep: every level's warm-ups and measured requests. */
export const MAX_POOLING_RECORDS = LIMITS.levels.max * (LIMITS.requestsPerLevel.max + LIMITS.warmupRequests.max);

export const poolingRecordSchema = z.object({
  seq: z.number().int().nonnegative().max(B.seq),
  concurrency: z.number().int().positive().max(LIMITS.concurrency.max),
  warmup: z.boolean(),
  sentNs: ns,
  endNs: ns,
  items: z.number().int().positive().max(Math.max(LIMITS.embeddingBatch.max, LIMITS.rerankDocuments.max)),
  inputTokens: z.number().int().nonnegative().max(B.promptTokens).nullable(),
  dimension: z.number().int().positive().max(LIMITS.embeddingDimension.max).nullable(),
  outcome: poolingOutcomeSchema,
}).strict().refine((r) => r.endNs >= r.sentNs, { error: 'endNs is before sentNs', path: ['endNs'] }) satisfies z.ZodType<PoolingRecord>;
