/**
 * The JSON result (`--json`), versioned by `schemaVersion`. One zod schema is the
 * type, the validator for files read back (`goodput cards RESULT.json`) and the
 * reference the README documents. Statistics are named in the keys (p50, mean);
 * a statistic with no samples is null, never zero.
 */
import { z } from 'zod';

export const SCHEMA_VERSION = 1;

const ms = z.number().nonnegative();
const nullable = <T extends z.ZodTypeAny>(t: T) => t.nullable();

export const failureKindSchema = z.enum(['http-error', 'stream-error', 'truncated', 'timeout', 'connection-error', 'aborted']);

export const clientBoundSchema = z.object({
  bound: z.boolean(),
  /** p99 of replacement sends' lag (send − the end of the request it replaced); the ramp is excluded. */
  /** Why, in words, when bound. */
  reason: z.string().nullable(),
  sendLagMs: z.object({ p50: ms, p99: ms, max: ms }).nullable(),
  loopDelayMs: z.object({ p50: ms, p99: ms, max: ms }).nullable(),
  budgetMs: z.number().positive(),
  /** Our CPU use during the level, % of one core. */
  clientCpuPct: z.number().nonnegative().nullable(),
  /** Time to put the level's first C requests on the wire, ms (not judged: no client sends C at once). */
  rampMs: ms.nullable(),
});

/** GPU memory of a level, MiB: peak and mean of the samples, or why there is none (never a zero). */
export const gpuMemSchema = z.discriminatedUnion('available', [
  z.object({ available: z.literal(true), source: z.string(), gpu: z.string(), totalMiB: z.number(), peak: z.number(), mean: z.number(), samples: z.number().int() }),
  z.object({ available: z.literal(false), source: z.literal('not available'), reason: z.string() }),
]);

export const levelResultSchema = z.object({
  concurrency: z.number().int().positive(),
  requests: z.number().int().nonnegative(),
  succeeded: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  failures: z.partialRecord(failureKindSchema, z.number().int()),
  /** First few distinct failure messages, for the reason shown beside an invalid level. */
  failureExamples: z.array(z.string()),
  invalid: z.boolean(),
  invalidReason: z.string().nullable(),
  warmupRequests: z.number().int().nonnegative(),
  durationMs: ms,
  outputTokensTotal: z.number().nonnegative(),
  throughputTokS: z.number().nonnegative(),
  steadyThroughputTokS: z.number().nonnegative().nullable(),
  steadyWindowMs: ms.nullable(),
  perRequestTokS: z.object({ mean: z.number() }).nullable(),
  ttftMs: nullable(z.object({ p50: ms, p95: ms, p99: ms })),
  ttfaMs: nullable(z.object({ p50: ms, p95: ms })),
  tpotMs: nullable(z.object({ p50: ms, p95: ms })),
  itlMs: nullable(z.object({ p50: ms, p99: ms })),
  iclMs: nullable(z.object({ p50: ms, p99: ms })),
  tokensPerChunk: nullable(z.object({ mean: z.number() })),
  e2eMs: nullable(z.object({ p50: ms, p95: ms })),
  outputTokens: z.object({
    mean: z.number().nullable(),
    min: z.number().nullable(),
    max: z.number().nullable(),
    source: z.enum(['usage', 'tokenizer', 'chunks', 'mixed', 'none']),
    /** Requests that ended below the requested length although it was forced. */
    short: z.number().int(),
  }),
  reasoningTokens: z.object({ total: z.number(), source: z.enum(['usage', 'chunks', 'none']) }),
  promptTokens: z.object({ mean: z.number().nullable() }),
  clientBound: clientBoundSchema,
  gpuMemMiB: gpuMemSchema,
});

export const warningSchema = z.object({ code: z.string(), message: z.string() });

export const runSchema = z.object({
  url: z.string(),
  model: z.string(),
  engine: z.object({ name: z.string(), version: z.string().nullable() }).nullable(),
  endpoint: z.enum(['chat', 'completions']),
  outputTokens: z.number().int().positive(),
  forceLength: z.boolean(),
  promptTokens: z.number().int().positive(),
  thinking: z.enum(['off', 'on']),
  temperature: z.number(),
  seed: z.number().int(),
  levelsRequested: z.array(z.number().int().positive()),
  levelsOrder: z.array(z.number().int().positive()),
  /** A fixed count, or 'auto' = max(8, 4 × concurrency). */
  requestsPerLevel: z.union([z.number().int().positive(), z.literal('auto')]),
  warmupPerLevel: z.number().int().nonnegative(),
  hourlyCostUsd: z.number().nonnegative().nullable(),
  baselineRateUsdPer1M: z.number().positive().nullable(),
  gpuLabel: z.string().nullable(),
  command: z.string(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  status: z.enum(['complete', 'stopped', 'server-failed']),
  stopReason: z.string().nullable(),
  toolVersion: z.string(),
});

export const modelCardSchema = z.union([
  z.object({
    available: z.literal(true),
    concurrency: z.literal(1),
    singleStreamTokS: z.number(),
    ttftMsP50: z.number(),
    tpotMsP50: z.number().nullable(),
  }),
  z.object({ available: z.literal(false), reason: z.string() }),
]);

export const engineCardSchema = z.object({
  peakThroughputTokS: z.number().nullable(),
  peakConcurrency: z.number().nullable(),
  curve: z.array(z.object({
    concurrency: z.number(),
    throughputTokS: z.number(),
    perRequestTokS: z.number().nullable(),
    invalid: z.boolean(),
    clientBound: z.boolean(),
  })),
  /** Levels left out of the peak, each with why. */
  excluded: z.array(z.object({ concurrency: z.number(), reason: z.string() })),
});

export const platformCardSchema = z.object({
  gpu: z.string().nullable(),
  gpuMemMiBPeak: z.number().nullable(),
  gpuMemMiBTotal: z.number().nullable(),
  gpuMemSource: z.string(),
  hourlyCostUsd: z.number().nullable(),
  costPer1MOutputTokensUsd: z.number().nullable(),
  baselineRateUsdPer1M: z.number().nullable(),
  savingPct: z.number().nullable(),
  basis: z.string(),
});

export const cardsSchema = z.object({ model: modelCardSchema, engine: engineCardSchema, platform: platformCardSchema });

export const sweepResultSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  run: runSchema,
  warnings: z.array(warningSchema),
  levels: z.array(levelResultSchema),
  cards: cardsSchema,
});

export type FailureKind = z.infer<typeof failureKindSchema>;
export type ClientBound = z.infer<typeof clientBoundSchema>;
export type GpuMem = z.infer<typeof gpuMemSchema>;
export type LevelResult = z.infer<typeof levelResultSchema>;
export type RunInfo = z.infer<typeof runSchema>;
export type Warning = z.infer<typeof warningSchema>;
export type Cards = z.infer<typeof cardsSchema>;
export type ModelCard = z.infer<typeof modelCardSchema>;
export type EngineCard = z.infer<typeof engineCardSchema>;
export type PlatformCard = z.infer<typeof platformCardSchema>;
export type SweepResult = z.infer<typeof sweepResultSchema>;
