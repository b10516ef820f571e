/**
 * The raw request record as read back from a `--raw` JSONL file: one zod schema
 * for that boundary (exports read it). Lines written by `goodput run` also carry
 * `cell`, the matrix cell the request belonged to (0 when there is no matrix).
 */
import { z } from 'zod';
import { LIMITS, RECORD_BOUNDS } from './limits.js';
import { loraNameSchema } from './lora-mix.js';
import type { RequestRecord } from './record.js';

const B = RECORD_BOUNDS;
const ns = z.number().min(-B.instantNs).max(B.instantNs);

/** The W3C trace id a request's `traceparent` carried, and its client span id (every kind of request records them alike). */
export const traceIdSchema = z.string().regex(/^[0-9a-f]{32}$/, 'traceId must be 32 lower-case hex digits');
export const spanIdSchema = z.string().regex(/^[0-9a-f]{16}$/, 'spanId must be 16 lower-case hex digits');

/** A retried request's earlier attempts, in order: each one's status, instants and the wait after it (at most the retry limit). */
export const retryAttemptsSchema = z
  .array(
    z
      .object({
        status: z.number().int().min(100).max(999),
        sendNs: ns,
        endNs: ns,
        waitMs: z
          .number()
          .nonnegative()
          .max(LIMITS.retryWaitS.max * 1000),
      })
      .strict(),
  )
  .min(1)
  .max(LIMITS.retryAttempts.max, `at most ${LIMITS.retryAttempts.max} earlier attempts (the retry limit)`);
const count = (max: number, what: string) => z.number().nonnegative().max(max, `must be at most ${max} (${what})`);
const tokens = count(B.tokens, 'the output-token limit with its stream allowance');
const text = (max: number) => z.string().max(max);
const message = text(B.messageChars);
const reqCount = z.number().int().nonnegative().max(LIMITS.rateLimitRpm.max);
const tokCount = z.number().int().nonnegative().max(LIMITS.rateLimitTpm.max);
const resetMs = z
  .number()
  .nonnegative()
  .max(LIMITS.rateLimitResetS.max * 1000);
const phase = z.enum(['connect', 'headers', 'first-token', 'stream']);

export const outcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ok') }),
  z.object({ kind: z.literal('http-error'), status: z.number().int().min(0).max(999), message }),
  z.object({ kind: z.literal('stream-error'), message }),
  z.object({ kind: z.literal('truncated'), message }),
  z.object({ kind: z.literal('timeout'), phase, message }),
  z.object({ kind: z.literal('connection-error'), code: text(B.codeChars), phase, message }),
  z.object({ kind: z.literal('response-too-large'), phase, message }),
  z.object({ kind: z.literal('stream-overrun'), message }),
  z.object({ kind: z.literal('aborted') }),
  z.object({ kind: z.literal('cancelled'), after: z.enum(['ms', 'tokens']), phase }),
  z.object({ kind: z.literal('client-lost'), message: z.string().max(1024) }),
  z.object({ kind: z.literal('not-sent'), code: z.enum(['ERR_REQUEST_BODY_LIMIT', 'ERR_REQUEST_BODY']), message }),
]);

const recordFields = z.object({
  seq: z.number().int().nonnegative().max(B.seq),
  concurrency: z.number().positive().max(1e9),
  warmup: z.boolean(),
  ramp: z.literal(true).optional(),
  targetSendNs: ns,
  sendNs: ns,
  writtenNs: ns.optional(),
  headersNs: ns.nullable(),
  firstTokenNs: ns.nullable(),
  firstAnswerNs: ns.nullable(),
  chunkNs: z.array(ns).max(B.chunks, `at most ${B.chunks} chunks (the stream limit for the output-token limit)`),
  chunkTokens: z.array(tokens).max(B.chunks, `at most ${B.chunks} chunks (the stream limit for the output-token limit)`),
  chunkTokensExact: z.boolean(),
  endNs: ns.nullable(),
  outputTokens: tokens,
  outputTokenSource: z.enum(['usage', 'tokenizer', 'chunks']),
  reasoningTokens: tokens.nullable(),
  reasoningChunks: count(B.chunks, 'the stream limit'),
  promptTokens: count(B.promptTokens, 'prompt tokens a server may report').nullable(),
  cachedPromptTokens: count(B.promptTokens, 'prompt tokens a server may report').nullable(),
  finishReason: text(B.finishReasonChars).nullable(),
  httpStatus: z.number().int().min(0).max(999).nullable(),
  outcome: outcomeSchema,
  clientRetry: z.literal(true).optional(),
  attempts: retryAttemptsSchema.optional(),
  rateLimit: z
    .object({
      limitRequests: reqCount.optional(),
      remainingRequests: reqCount.optional(),
      resetRequestsMs: resetMs.optional(),
      limitTokens: tokCount.optional(),
      remainingTokens: tokCount.optional(),
      resetTokensMs: resetMs.optional(),
    })
    .strict()
    .optional(),
  session: z.object({ id: z.number().int().nonnegative().max(B.levelRecords), turn: z.number().int().nonnegative().max(LIMITS.agentTurns.max) }).optional(),
  requestId: z.string().max(256).optional(),
  traceId: traceIdSchema.optional(),
  spanId: spanIdSchema.optional(),
  client: z.string().max(128).optional(),
  adapter: loraNameSchema.optional(),
  target: z
    .number()
    .int()
    .nonnegative()
    .max(LIMITS.fleetTargets.max - 1)
    .optional(),
  toolCalls: z
    .object({
      required: z.boolean(),
      calls: z.number().int().nonnegative().max(LIMITS.toolCallsPerResponse.max),
      names: z.array(z.string().max(256)).max(LIMITS.toolCallsPerResponse.max),
      firstNs: ns.nullable(),
      argumentsDoneNs: ns.nullable(),
      argumentTokens: z.number().nonnegative(),
      verdict: z.enum(['valid', 'invalid', 'unparsed', 'missing', 'none']),
      problem: z.string().max(1024).nullable(),
    })
    .strict()
    .optional(),
  requestBodyBytes: z.number().int().nonnegative().max(LIMITS.requestBodyBytes.max).optional(),
  structured: z
    .object({
      schema: z.boolean(),
      verdict: z.enum(['valid', 'invalid', 'unparsed']).nullable(),
      problem: z.string().max(1024).nullable(),
    })
    .strict()
    .optional(),
  /** Matrix cell index (goodput run); absent in files written by goodput sweep. */
  cell: z.number().int().nonnegative().max(1_000_000).optional(),
});

/** Why a record's instants and counts cannot be a real stream's, or null: every reader refuses it before computing. */
export function recordShapeProblem(r: z.infer<typeof recordFields>): { path: string; message: string } | null {
  // A ramp request counted as measured would put the ramp's half-open streams into the level's numbers.
  if (r.ramp === true && !r.warmup)
    return { path: 'ramp', message: 'marks a request sent during the ramp, which is kept out of every number: warmup must be true' };
  if (r.chunkTokens.length !== r.chunkNs.length) return { path: 'chunkTokens', message: `has ${r.chunkTokens.length} entries for ${r.chunkNs.length} chunks` };
  let sum = 0;
  for (const k of r.chunkTokens) sum += k;
  if (sum > B.tokens)
    return { path: 'chunkTokens', message: `carry ${sum} tokens in all, above ${B.tokens} (the output-token limit with its stream allowance)` };
  let last = r.sendNs;
  for (const [i, t] of r.chunkNs.entries()) {
    if (t < last) return { path: `chunkNs.${i}`, message: i === 0 ? 'is before the request was sent' : 'is before the chunk before it' };
    last = t;
  }
  for (const key of ['headersNs', 'firstTokenNs', 'firstAnswerNs', 'endNs'] as const) {
    const t = r[key];
    if (t !== null && t < r.sendNs) return { path: key, message: 'is before the request was sent (sendNs)' };
  }
  let at = r.sendNs;
  for (const [i, a] of (r.attempts ?? []).entries()) {
    if (a.sendNs < at || a.endNs < a.sendNs)
      return { path: `attempts.${i}`, message: 'is out of order (each attempt starts after the one before it, from sendNs, and ends after it starts)' };
    at = a.endNs;
  }
  if (r.endNs !== null) {
    for (const key of ['headersNs', 'firstTokenNs', 'firstAnswerNs'] as const) {
      const t = r[key];
      if (t !== null && t > r.endNs) return { path: key, message: 'is after the end of the stream (endNs)' };
    }
    if (r.chunkNs.length > 0 && last > r.endNs) return { path: 'chunkNs', message: 'has a chunk after the end of the stream (endNs)' };
  }
  return null;
}

/** One request record, bounded by the limits table and checked for instants in order: the one schema every reader uses. */
export const rawRecordSchema = recordFields.superRefine((r, ctx) => {
  const p = recordShapeProblem(r);
  if (p) ctx.addIssue({ code: 'custom', path: p.path.split('.').map((x) => (/^\d+$/.test(x) ? Number(x) : x)), message: p.message });
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
