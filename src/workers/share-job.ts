/**
 * One level share as a job on the queue, and what the worker reports back in
 * its worker_shares row. Both sides read these types; the job's data is JSON.
 */
import { z } from 'zod';
import { LIMITS, type Spread } from '../core/index.js';
import { type DialectKind, dialects } from '../client/index.js';
import { NO_RUN_STATE, type RunState, type SweepSpec, runStateSchema, sweepSpecSchema } from '../runner/index.js';
import { MAX_CLOCK_UNCERTAINTY_MS } from './clock-offset.js';

export interface ShareJob {
  /** Unique per share: `${sweep}/${level}/${index}`. */
  share: string;
  sweep: string;
  index: number;
  count: number;
  concurrency: number;
  requests: number;
  promptOffset: number;
  /** The sweep's spec without its API key: a key never goes through the database. */
  spec: Omit<SweepSpec, 'apiKey'>;
  /** What the sweep set for itself (its image server's address). */
  state: RunState;
  /** The server needs an API key: each worker brings its own (GOODPUT_API_KEY where it runs). */
  needsApiKey: boolean;
  model: string;
  dialect: DialectKind;
  runId: string;
  connections: number;
  /** Taken after this instant (the database's clock, epoch ms) the job is stale: refused, whatever its signature. */
  expiresAtMs: number;
}

/** A worker's clock against the database's, measured when it took the share. */
export interface ShareClock {
  /** The database's clock minus the worker's, ms. */
  offsetMs: number;
  uncertaintyMs: number;
  /** The worker's monotonic zero on its own wall clock, epoch ms (performance.timeOrigin, plus any test skew). */
  originMs: number;
}

/** worker_shares.detail by status. */
export type ShareDetail =
  | { status: 'taken' }
  | { status: 'ready'; clock: ShareClock }
  | { status: 'refused'; reason: string }
  | { status: 'failed'; reason: string }
  | { status: 'done'; clock: ShareClock; loopDelayMs: Spread | null; busyPct: number | null; waitedForSlot: number; serverFailure: string | null };

/** A clock offset past a day is no machine's clock a sweep can use, ms. */
const MAX_OFFSET_MS = 86_400_000;
const finite = (max: number) => z.number().min(-max).max(max);
const nonneg = (max: number) => z.number().nonnegative().max(max);
const clockSchema = z.object({ offsetMs: finite(MAX_OFFSET_MS), uncertaintyMs: nonneg(MAX_CLOCK_UNCERTAINTY_MS), originMs: nonneg(Number.MAX_SAFE_INTEGER) });
const spreadSchema = z.object({ p50: nonneg(3_600_000), p99: nonneg(3_600_000), max: nonneg(3_600_000) });
const reason = z.string().max(1024);

/** A worker_shares.detail as read back: every figure a worker reports, range-checked before the coordinator uses it. */
export const shareDetailSchema: z.ZodType<ShareDetail> = z.discriminatedUnion('status', [
  z.object({ status: z.literal('taken') }),
  z.object({ status: z.literal('ready'), clock: clockSchema }),
  z.object({ status: z.literal('refused'), reason }),
  z.object({ status: z.literal('failed'), reason }),
  z.object({
    status: z.literal('done'),
    clock: clockSchema,
    loopDelayMs: spreadSchema.nullable(),
    busyPct: nonneg(100).nullable(),
    waitedForSlot: z
      .number()
      .int()
      .nonnegative()
      .max(LIMITS.requestsPerLevel.max * LIMITS.sessionTurns.max),
    serverFailure: reason.nullable(),
  }),
]);

const shareJobSchema = z
  .object({
    share: z.string().max(200),
    sweep: z.string().regex(/^[0-9a-f]{24,64}$/),
    index: z
      .number()
      .int()
      .nonnegative()
      .max(LIMITS.workers.max - 1),
    count: z.number().int().positive().max(LIMITS.workers.max),
    concurrency: z.number().positive().max(LIMITS.concurrency.max),
    requests: z.number().int().nonnegative().max(LIMITS.requestsPerLevel.max),
    promptOffset: z
      .number()
      .int()
      .nonnegative()
      .max(LIMITS.levels.max * (LIMITS.requestsPerLevel.max + LIMITS.warmupRequests.max)),
    spec: z.record(z.string(), z.unknown()),
    state: runStateSchema.default(NO_RUN_STATE),
    needsApiKey: z.boolean(),
    model: z.string().min(1).max(512),
    dialect: z.string().refine((d) => Object.hasOwn(dialects, d), 'is not a dialect'),
    runId: z.string().max(200),
    connections: z.number().int().positive().max(LIMITS.concurrency.max),
    expiresAtMs: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  })
  .refine((j) => j.index < j.count, { message: 'index must be below count', path: ['index'] })
  .refine((j) => j.share === `${j.sweep}/${j.concurrency}/${j.index}`, { message: 'does not name its sweep, level and index', path: ['share'] });

/**
 * A job's limits and target, checked after its signature: the same bounds as a
 * sweep given on the command line (its spec goes through the sweep's own schema).
 * @returns the job, or why it is refused naming the field.
 */
export function checkShareJob(data: unknown): { ok: true; job: ShareJob } | { ok: false; why: string } {
  const j = shareJobSchema.safeParse(data);
  if (!j.success) {
    const i = j.error.issues[0];
    return { ok: false, why: `${i?.path.join('.') || 'job'}: ${i?.message ?? 'invalid'}` };
  }
  const spec = sweepSpecSchema.safeParse(j.data.spec);
  if (!spec.success || spec.data.apiKey !== undefined) {
    const i = spec.success ? { path: ['apiKey'], message: 'a job never carries a key' } : spec.error.issues[0];
    return { ok: false, why: `spec.${i?.path.join('.') || ''}: ${i?.message ?? 'invalid'}` };
  }
  return { ok: true, job: { ...j.data, spec: spec.data, dialect: j.data.dialect as DialectKind } };
}

/** A share's start instant on a clock whose zero is `originMs` (epoch ms on that machine's wall clock), ns. */
export function localNs(atDbMs: number, clock: ShareClock): number {
  return (atDbMs - clock.offsetMs - clock.originMs) * 1e6;
}
