/**
 * How requests arrive at a level, as data: the kind-tagged union that the sweep
 * spec, the contract file and the result share. The level values it sweeps are
 * the kind's own axis (concurrency: streams; rate: requests/s; burst: burst
 * size; trace: speed). The logic of each kind (its send schedule) lives in workload/arrival.ts.
 */
import { z } from 'zod';
import { limitedInt } from './limit-schema.js';
import { LIMITS } from './limits.js';

const cap = limitedInt('concurrency', 'maxConcurrency').nullable().default(null);

/** The arrival kinds, in the order documented. */
export const ARRIVAL_KINDS = ['concurrency', 'rate', 'burst', 'trace'] as const;

/** What a replay replayed: enough to say which bytes, which slice and what was left out. */
export const traceSourceSchema = z
  .object({
    /** The file's name as given (no directory: a published result names no local path). */
    file: z.string().min(1).max(255),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lowercase hex digits'),
    /** `dataset`: a local dataset (Parquet, JSONL, CSV) replayed on its own timestamp column. */
    format: z.enum(['mooncake', 'burstgpt', 'azure', 'goodput', 'goodput-agents', 'agentx', 'dataset']),
    /** Seconds from the trace's first request; null: all of it. */
    window: z.object({ startS: z.number().nonnegative(), endS: z.number().positive() }).strict().nullable(),
    skippedFailed: z.number().int().nonnegative(),
    skippedOutsideWindow: z.number().int().nonnegative(),
    /** Label columns and their value counts (BurstGPT's Model, Log Type). */
    labels: z.record(z.string(), z.record(z.string(), z.number().int().nonnegative())),
  })
  .strict();
export type TraceSource = z.output<typeof traceSourceSchema>;

/** The arrival kinds whose schedule is generated (a contract names them as they are; a trace it names by its file). */
export const GENERATED_ARRIVALS = [
  /** Closed loop: C streams, each sends again the moment its stream ends. Levels are C. */
  z.object({ kind: z.literal('concurrency') }).strict(),
  /**
   * Open loop at a rate (requests/s): fixed gaps (constant) or exponential gaps (poisson, seeded), or
   * with `burstiness` gamma gaps of that shape (vLLM's --burstiness: 1 is poisson). Levels are req/s.
   */
  z
    .object({
      kind: z.literal('rate'),
      process: z.enum(['constant', 'poisson'], { error: 'process must be constant or poisson' }).default('poisson'),
      /** Poisson only: the gaps are gamma-distributed with this shape and the rate's mean; below 1 burstier, above 1 more even. */
      burstiness: z.number({ error: 'burstiness must be a number' }).positive('burstiness must be positive').optional(),
      seed: z.number().int('seed must be a whole number').default(1),
      /** In-flight limit; a request due while it is reached waits for a slot (reported). Null: no limit but the client's 1,024 sockets. */
      maxConcurrency: cap,
    })
    .strict()
    .superRefine((a, ctx) => {
      if (a.burstiness !== undefined && a.process !== 'poisson')
        ctx.addIssue({ code: 'custom', path: ['burstiness'], message: 'burstiness shapes the gaps of process poisson (constant gaps have none)' });
    }),
  /** Open loop in bursts: `level` requests at once every `intervalMs`. Levels are burst sizes. */
  z
    .object({
      kind: z.literal('burst'),
      intervalMs: z.number({ error: 'intervalMs must be a number of ms' }).positive('intervalMs must be positive'),
      maxConcurrency: cap,
    })
    .strict(),
] as const;

export const arrivalSchema = z.discriminatedUnion(
  'kind',
  [
    ...GENERATED_ARRIVALS,
    /** Open loop at a recorded trace's send times. Levels are speeds: 1 as recorded, 2 twice as fast. */
    z
      .object({
        kind: z.literal('trace'),
        /** Each request's send offset from the first, ms, ascending. */
        offsetsMs: z
          .array(z.number().nonnegative())
          .min(1)
          .max(LIMITS.requestsPerLevel.max)
          .refine((xs) => xs.every((x, i) => i === 0 || x >= (xs[i - 1] as number)), { error: 'offsetsMs must be ascending' }),
        source: traceSourceSchema,
        maxConcurrency: cap,
      })
      .strict(),
  ],
  { error: (iss) => (iss.code === 'invalid_union' ? `kind must be one of ${ARRIVAL_KINDS.join(', ')}` : undefined) },
);

export type ArrivalSpec = z.output<typeof arrivalSchema>;
export type ArrivalKind = ArrivalSpec['kind'];

/** How a level's load was applied and achieved, stored on each level of the result. */
export const levelLoadSchema = z.object({
  kind: z.enum(ARRIVAL_KINDS),
  /** The level value on the kind's axis (streams, req/s, burst size or trace speed). */
  level: z.number().positive(),
  /** "4 streams", "2 req/s poisson (seed 1)", "bursts of 8 every 1000 ms", "trace t.jsonl at 1×". */
  label: z.string(),
  /** Open loop only: requests per second offered by the schedule, and the rate actually sent. */
  offeredRps: z.number().nullable(),
  achievedRps: z.number().nullable(),
  /** Most requests in flight at once. */
  peakInFlight: z.number().int().nonnegative(),
  /** Open loop only: requests that waited for a free slot under maxConcurrency (or the socket limit). */
  waitedForSlot: z.number().int().nonnegative(),
  /** Open loop only: actual send − scheduled time, ms, over measured requests (includes waits for a slot). */
  scheduleLagMs: z.object({ p50: z.number(), p99: z.number(), max: z.number() }).nullable(),
});
export type LevelLoad = z.infer<typeof levelLoadSchema>;
