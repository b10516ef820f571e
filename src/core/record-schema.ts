/**
 * The raw request record as read back from a `--raw` JSONL file: one zod schema
 * for that boundary (exports read it). Lines written by `goodput run` also carry
 * `cell`, the matrix cell the request belonged to (0 when there is no matrix).
 */
import { z } from 'zod';
import { LIMITS } from './limits.js';
import type { RequestRecord } from './record.js';

const ns = z.number();
const phase = z.enum(['connect', 'headers', 'first-token', 'stream']);

export const outcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ok') }),
  z.object({ kind: z.literal('http-error'), status: z.number(), message: z.string() }),
  z.object({ kind: z.literal('stream-error'), message: z.string() }),
  z.object({ kind: z.literal('truncated'), message: z.string() }),
  z.object({ kind: z.literal('timeout'), phase, message: z.string() }),
  z.object({ kind: z.literal('connection-error'), code: z.string(), phase, message: z.string() }),
  z.object({ kind: z.literal('response-too-large'), phase, message: z.string() }),
  z.object({ kind: z.literal('stream-overrun'), message: z.string() }),
  z.object({ kind: z.literal('aborted') }),
  z.object({ kind: z.literal('client-lost'), message: z.string().max(1024) }),
]);

export const rawRecordSchema = z.object({
  seq: z.number().int(),
  concurrency: z.number(),
  warmup: z.boolean(),
  targetSendNs: ns,
  sendNs: ns,
  headersNs: ns.nullable(),
  firstTokenNs: ns.nullable(),
  firstAnswerNs: ns.nullable(),
  chunkNs: z.array(ns),
  chunkTokens: z.array(z.number()),
  chunkTokensExact: z.boolean(),
  endNs: ns.nullable(),
  outputTokens: z.number(),
  outputTokenSource: z.enum(['usage', 'tokenizer', 'chunks']),
  reasoningTokens: z.number().nullable(),
  reasoningChunks: z.number(),
  promptTokens: z.number().nullable(),
  cachedPromptTokens: z.number().nullable(),
  finishReason: z.string().nullable(),
  httpStatus: z.number().nullable(),
  outcome: outcomeSchema,
  clientRetry: z.literal(true).optional(),
  session: z.object({ id: z.number().int().nonnegative(), turn: z.number().int().nonnegative() }).optional(),
  requestId: z.string().max(256).optional(),
  client: z.string().max(128).optional(),
  toolCalls: z.object({
    required: z.boolean(),
    calls: z.number().int().nonnegative().max(LIMITS.toolCallsPerResponse.max),
    names: z.array(z.string().max(256)).max(LIMITS.toolCallsPerResponse.max),
    firstNs: ns.nullable(),
    argumentsDoneNs: ns.nullable(),
    argumentTokens: z.number().nonnegative(),
    verdict: z.enum(['valid', 'invalid', 'unparsed', 'missing', 'none']),
    problem: z.string().max(1024).nullable(),
  }).strict().optional(),
  requestBodyBytes: z.number().int().nonnegative().max(LIMITS.requestBodyBytes.max).optional(),
  structured: z.object({
    schema: z.boolean(),
    verdict: z.enum(['valid', 'invalid', 'unparsed']).nullable(),
    problem: z.string().max(1024).nullable(),
  }).strict().optional(),
  /** Matrix cell index (goodput run); absent in files written by goodput sweep. */
  cell: z.number().int().nonnegative().optional(),
});

/** A record read back from a raw file, with its cell (0 when the file has none). */
export type RawRecord = RequestRecord & { cell: number };

/** Validates one parsed JSON line. */
export function parseRawRecord(value: unknown): { ok: true; record: RawRecord } | { ok: false; message: string } {
  const parsed = rawRecordSchema.safeParse(value);
  if (parsed.success) return { ok: true, record: { ...parsed.data, cell: parsed.data.cell ?? 0 } };
  const issue = parsed.error.issues[0];
  return { ok: false, message: `${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}` };
}
