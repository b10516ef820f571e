/**
 * What every kind whose answer comes whole (embeddings, rerank, transcriptions)
 * shares: a record's instants and ending, the level's requests, failures, span
 * and rate over its measured records, the run's plan and its end, as schema
 * parts and as one computation. Each kind adds only the fields it measures.
 */
import { z } from 'zod';
import { LIMITS } from './limits.js';
import type { PoolingOutcome, WholeRecord } from './pooling-record.js';
import { retryAttemptsSchema } from './record-schema.js';

const count = z.number().int().nonnegative();
const reason = z.string().max(4096);

/** How a whole-answer request ended, as files carry it. */
export const wholeOutcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ok') }).strict(),
  z.object({ kind: z.literal('http-error'), status: z.number().int().min(100).max(599), message: reason }).strict(),
  z.object({ kind: z.literal('bad-answer'), message: reason }).strict(),
  z.object({ kind: z.literal('timeout'), message: reason }).strict(),
  z.object({ kind: z.literal('connection-error'), code: z.string().max(256), message: reason }).strict(),
  z.object({ kind: z.literal('response-too-large'), message: reason }).strict(),
  z.object({ kind: z.literal('aborted') }).strict(),
]);

/** The kind's own fields make a record's type opaque to a generic refinement; its two instants are always in it. */
const inOrder = (r: object) => (r as { endNs: number }).endNs >= (r as { sentNs: number }).sentNs;

/** A retried request's earlier attempts start at its send and follow one another, each ending after it starts. */
function attemptsInOrder(r: object): boolean {
  let at = (r as { sentNs: number }).sentNs;
  for (const a of (r as { attempts?: Array<{ sendNs: number; endNs: number }> }).attempts ?? []) {
    if (a.sendNs < at || a.endNs < a.sendNs) return false;
    at = a.endNs;
  }
  return at <= (r as { endNs: number }).endNs;
}

/** One record of a kind: its seq, level, warm-up flag and two instants, the kind's own fields, then its ending; bounded, instants in order. */
export function wholeRecordSchema<T extends z.ZodRawShape>(own: T) {
  return z
    .object({
      seq: count.max(LIMITS.requestsPerLevel.max + LIMITS.warmupRequests.max),
      concurrency: z.number().int().positive().max(LIMITS.concurrency.max),
      warmup: z.boolean(),
      sentNs: z.number().nonnegative(),
      endNs: z.number().nonnegative(),
      ...own,
      outcome: wholeOutcomeSchema,
      /** A request sent again after a 429, 529 or 503 with Retry-After: its earlier attempts (sentNs is the first's send). */
      attempts: retryAttemptsSchema.optional(),
    })
    .strict()
    .refine(inOrder, { error: 'endNs must not be before sentNs', path: ['endNs'] })
    .refine(attemptsInOrder, {
      error: 'is out of order (each attempt starts after the one before it, from sentNs, and ends after it starts, before endNs)',
      path: ['attempts'],
    });
}

/** The first fields of a level: its concurrency, measured and failed requests, span (first send to last end) and requests per second. */
export const wholeLevelHead = {
  concurrency: z.number().int().positive().max(LIMITS.concurrency.max),
  requests: count.max(LIMITS.requestsPerLevel.max),
  failed: count.max(LIMITS.requestsPerLevel.max),
  durationS: z.number().positive().nullable(),
  requestsPerS: z.number().nonnegative().nullable(),
};

/** The run's plan of levels, as requested. */
export const wholeRunPlan = {
  levelsRequested: z.array(z.number().int().positive()).max(LIMITS.levels.max),
  requestsPerLevel: z.union([z.number().int().positive().max(LIMITS.requestsPerLevel.max), z.literal('auto')]),
  warmupPerLevel: count.max(LIMITS.warmupRequests.max),
};

/** The run's seed, command, span, how it ended and the tool that ran it. */
export const wholeRunEnd = {
  seed: z.number().int(),
  command: z.string(),
  startedAt: z.string(),
  endedAt: z.string(),
  status: z.enum(['complete', 'stopped', 'server-failed']),
  stopReason: z.string().nullable(),
  toolVersion: z.string(),
};

/** A failed request's reason, one line; null for a success. */
export function wholeFailureReason(o: PoolingOutcome): string | null {
  if (o.kind === 'ok') return null;
  if (o.kind === 'aborted') return 'aborted';
  return o.kind === 'http-error' ? `HTTP ${o.status}: ${o.message}` : o.message;
}

/**
 * A level's common figures from its records (warm-ups are ignored): its first fields (`head`, wholeLevelHead's), its
 * measured and successful records, their span, a rate over it (null when nothing succeeded: every request failed, it
 * has no rates), successful latencies (ms, in record order) and the most common failure reasons (at most 5).
 */
export function wholeLevelBase<R extends WholeRecord>(concurrency: number, records: readonly R[]) {
  const measured = records.filter((r) => !r.warmup);
  const ok = measured.filter((r) => r.outcome.kind === 'ok');
  const start = Math.min(...measured.map((r) => r.sentNs));
  const end = Math.max(...measured.map((r) => r.endNs));
  const durationS = measured.length > 0 && end > start ? (end - start) / 1e9 : null;
  const per = (n: number) => (durationS === null || ok.length === 0 ? null : n / durationS);
  const counts = new Map<string, number>();
  for (const r of measured) {
    const why = wholeFailureReason(r.outcome);
    if (why !== null) counts.set(why, (counts.get(why) ?? 0) + 1);
  }
  return {
    head: { concurrency, requests: measured.length, failed: measured.length - ok.length, durationS, requestsPerS: per(measured.length) },
    measured,
    ok,
    durationS,
    per,
    latenciesMs: ok.map((r) => (r.endNs - r.sentNs) / 1e6),
    failures: [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([reason, n]) => ({ reason, count: n })),
  };
}
