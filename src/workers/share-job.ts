/**
 * One level share as a job on the queue, and what the worker reports back in
 * its worker_shares row. Both sides read these types; the job's data is JSON.
 * A job carries its run kind: a text share names the level's part the worker
 * computes from the spec, a pooling (embeddings, rerank) share carries its plan.
 */
import { z } from 'zod';
import { LIMITS, RUN_KIND_NAMES, type Spread } from '../core/index.js';
import { type DialectKind, dialects } from '../client/index.js';
import {
  NO_RUN_STATE,
  type PoolingSharePlan,
  type PoolingSpec,
  type RunState,
  type SpecOf,
  type SweepSpec,
  poolingSpecSchema,
  runStateSchema,
  sweepSpecSchema,
  type WorkerKindName,
} from '../runner/index.js';
import { MAX_CLOCK_UNCERTAINTY_MS } from './clock-offset.js';

/** What every share job carries, whatever its kind. */
interface ShareJobBase {
  /** Unique per share: `${sweep}/${level}/${index}`. */
  share: string;
  sweep: string;
  index: number;
  count: number;
  concurrency: number;
  /** The server needs an API key: each worker brings its own (GOODPUT_API_KEY where it runs). */
  needsApiKey: boolean;
  model: string;
  dialect: DialectKind;
  connections: number;
  /** Taken after this instant (the database's clock, epoch ms) the job is stale: refused, whatever its signature. */
  expiresAtMs: number;
  /** What the sweep set for itself (its image server's address); a pooling sweep sets nothing. */
  state: RunState;
}

/** A text-generation share: the worker computes its part of the level from the spec, as a client thread does. */
export interface TextShareJob extends ShareJobBase {
  kind: 'text';
  requests: number;
  promptOffset: number;
  /** The sweep's spec without its API key: a key never goes through the database. */
  spec: Omit<SweepSpec, 'apiKey'>;
  runId: string;
}

/** An embeddings or rerank share: the inputs it sends, as a client thread is given them. */
export interface PoolingShareJob extends ShareJobBase {
  kind: 'pooling';
  /** The sweep's spec without its API key. */
  spec: Omit<PoolingSpec, 'apiKey'>;
  plan: PoolingSharePlan;
}

/** A share job of each run kind. */
interface ShareJobs {
  text: TextShareJob;
  pooling: PoolingShareJob;
}
export type ShareJobOf<K extends WorkerKindName> = ShareJobs[K];
export type ShareJob = ShareJobs[WorkerKindName];

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

const baseShape = {
  share: z.string().max(200),
  sweep: z.string().regex(/^[0-9a-f]{24,64}$/),
  index: z
    .number()
    .int()
    .nonnegative()
    .max(LIMITS.workers.max - 1),
  count: z.number().int().positive().max(LIMITS.workers.max),
  concurrency: z.number().positive().max(LIMITS.concurrency.max),
  spec: z.record(z.string(), z.unknown()),
  needsApiKey: z.boolean(),
  model: z.string().min(1).max(512),
  dialect: z.string().refine((d) => Object.hasOwn(dialects, d), 'is not a dialect'),
  connections: z.number().int().positive().max(LIMITS.concurrency.max),
  expiresAtMs: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  state: runStateSchema.default(NO_RUN_STATE),
};

/** A job names its place: an index below its count, a share key of its sweep, level and index; or why not, naming the field. */
function placeProblem(j: { index: number; count: number; share: string; sweep: string; concurrency: number }): string | null {
  if (j.index >= j.count) return 'index: index must be below count';
  if (j.share !== `${j.sweep}/${j.concurrency}/${j.index}`) return 'share: does not name its sweep, level and index';
  return null;
}

const textJobSchema = z.object({
  ...baseShape,
  kind: z.literal('text').default('text'),
  requests: z.number().int().nonnegative().max(LIMITS.requestsPerLevel.max),
  promptOffset: z
    .number()
    .int()
    .nonnegative()
    .max(LIMITS.levels.max * (LIMITS.requestsPerLevel.max + LIMITS.warmupRequests.max)),
  runId: z.string().max(200),
});

const bodyText = z.string().max(LIMITS.requestBodyBytes.max);
const poolingSendSchema = z
  .object({
    seq: z
      .number()
      .int()
      .nonnegative()
      .max(LIMITS.requestsPerLevel.max + LIMITS.warmupRequests.max),
    payload: z.discriminatedUnion('endpoint', [
      z.object({ endpoint: z.literal('embeddings'), inputs: z.array(bodyText).min(1).max(LIMITS.embeddingBatch.max) }).strict(),
      z.object({ endpoint: z.literal('rerank'), query: bodyText, documents: z.array(bodyText).min(1).max(LIMITS.rerankDocuments.max) }).strict(),
    ]),
  })
  .strict();

const poolingJobSchema = z.object({
  ...baseShape,
  kind: z.literal('pooling'),
  plan: z
    .object({
      streams: z.number().int().positive().max(LIMITS.concurrency.max),
      warmups: z.array(poolingSendSchema).max(LIMITS.warmupRequests.max),
      measured: z.array(poolingSendSchema).max(LIMITS.requestsPerLevel.max),
    })
    .strict(),
});

type Checked<J> = { ok: true; job: J } | { ok: false; why: string };
const issueText = (i: { path: PropertyKey[]; message: string } | undefined, prefix = '') =>
  `${prefix}${i?.path.join('.') || (prefix === '' ? 'job' : '')}: ${i?.message ?? 'invalid'}`;

/** A spec through its kind's own schema, as a command line's is; a key is never in a job. */
function checkSpec<S extends { apiKey?: string | undefined }>(schema: z.ZodType<S>, spec: unknown): { ok: true; spec: S } | { ok: false; why: string } {
  const parsed = schema.safeParse(spec);
  if (!parsed.success) return { ok: false, why: issueText(parsed.error.issues[0], 'spec.') };
  if (parsed.data.apiKey !== undefined) return { ok: false, why: 'spec.apiKey: a job never carries a key' };
  return { ok: true, spec: parsed.data };
}

/** Every request of a pooling plan is of the spec's endpoint and carries at most its items, in at most a request body's bytes. */
function planProblem(spec: PoolingSpec, plan: PoolingSharePlan): string | null {
  for (const [part, sends] of [
    ['warmups', plan.warmups],
    ['measured', plan.measured],
  ] as const)
    for (const [i, { payload }] of sends.entries()) {
      const where = `plan.${part}.${i}.payload`;
      if (payload.endpoint !== spec.endpoint) return `${where}.endpoint: is not the spec's endpoint (${spec.endpoint})`;
      const items = payload.endpoint === 'rerank' ? payload.documents : payload.inputs;
      if (items.length > spec.itemsPerRequest) return `${where}: ${items.length} items, above the spec's ${spec.itemsPerRequest}`;
      const chars = items.reduce((a, t) => a + t.length, payload.endpoint === 'rerank' ? payload.query.length : 0);
      if (chars > LIMITS.requestBodyBytes.max) return `${where}: ${chars} characters, above the limit of ${LIMITS.requestBodyBytes.max}`;
    }
  return null;
}

/** Each kind's job schema, its spec's schema, and what else its job must hold (a pooling plan within its spec). */
const JOB_CHECKS: { [K in WorkerKindName]: { job: z.ZodType; spec: z.ZodType<SpecOf<K>>; problem?(spec: SpecOf<K>, job: ShareJobOf<K>): string | null } } = {
  text: { job: textJobSchema, spec: sweepSpecSchema },
  pooling: { job: poolingJobSchema, spec: poolingSpecSchema, problem: (spec, job) => planProblem(spec, job.plan) },
};

/** A job of `kind`: its own fields, its place, then its spec through the kind's schema. */
function checkKindJob(kind: WorkerKindName, data: unknown): Checked<ShareJob> {
  const check = JOB_CHECKS[kind] as { job: z.ZodType; spec: z.ZodType<SpecOf<WorkerKindName>>; problem?(spec: unknown, job: unknown): string | null };
  const j = check.job.safeParse(data);
  if (!j.success) return { ok: false, why: issueText(j.error.issues[0]) };
  const parsed = j.data as ShareJob;
  const place = placeProblem(parsed);
  if (place !== null) return { ok: false, why: place };
  const spec = checkSpec(check.spec, parsed.spec);
  if (!spec.ok) return spec;
  const problem = check.problem?.(spec.spec, parsed) ?? null;
  if (problem !== null) return { ok: false, why: problem };
  return { ok: true, job: { ...parsed, spec: spec.spec, dialect: parsed.dialect } as ShareJob };
}

/**
 * A job's limits and target, checked after its signature: the same bounds as a
 * sweep given on the command line (its spec goes through its kind's own schema).
 * A job that names no kind is text generation's.
 * @returns the job, or why it is refused naming the field.
 */
export function checkShareJob(data: unknown): Checked<ShareJob> {
  const kind = (typeof data === 'object' && data !== null ? (data as { kind?: unknown }).kind : undefined) ?? 'text';
  if (!(RUN_KIND_NAMES as readonly unknown[]).includes(kind)) return { ok: false, why: 'kind: is not a run kind' };
  if (!Object.hasOwn(JOB_CHECKS, kind as string)) return { ok: false, why: `kind: ${String(kind)} runs do not run on workers` };
  return checkKindJob(kind as WorkerKindName, data);
}

/** A share's start instant on a clock whose zero is `originMs` (epoch ms on that machine's wall clock), ns. */
export function localNs(atDbMs: number, clock: ShareClock): number {
  return (atDbMs - clock.offsetMs - clock.originMs) * 1e6;
}
