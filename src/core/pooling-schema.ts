/**
 * The JSON result of an embeddings or rerank sweep: its own shape beside the
 * text sweep's (no tokens out, no TTFT), tagged by `run.endpoint` so a reader
 * never takes one for the other. Every count is bounded by the limits table.
 */
import { z } from 'zod';
import { LIMITS } from './limits.js';
import { POOLING_ENDPOINTS, isPoolingEndpoint } from './pooling-record.js';
import { spanIdSchema, traceIdSchema } from './record-schema.js';
import { SCHEMA_VERSION, clientBoundSchema, runSetSchema, serverReportSchema, warningSchema } from './result-schema.js';
import { serverAccountSchema } from './server-account-schema.js';
import { serverTruthSchema } from './telemetry-schema.js';
import { wholeLevelHead, wholeRecordSchema, wholeRunEnd, wholeRunPlan } from './whole-level.js';

const rate = z.number().nonnegative().nullable();
const count = z.number().int().nonnegative();

export const poolingLevelSchema = z
  .object({
    ...wholeLevelHead,
    itemsPerS: rate,
    inputTokensPerS: rate,
    inputTokensPerRequest: rate,
    latencyMs: z
      .object({ p50: z.number().nonnegative(), p95: z.number().nonnegative(), p99: z.number().nonnegative(), mean: z.number().nonnegative() })
      .nullable(),
    dimension: z.number().int().positive().max(LIMITS.embeddingDimension.max).nullable(),
    costPerMInputTokensUsd: rate,
    failures: z.array(z.object({ reason: z.string().max(4096), count: count })).max(5),
    slo: z
      .object({
        p: z.number().gt(0).lte(100),
        maxMs: z.number().positive(),
        observedMs: z.number().nonnegative().nullable(),
        holds: z.boolean(),
        metPerS: rate,
        metShare: z.number().min(0).max(1).nullable(),
      })
      .strict()
      .nullable(),
    /** Whether our own client bounded the level; absent in results of earlier versions (judged then by warnings only). */
    clientBound: clientBoundSchema.optional(),
    /** The server's own view of the whole level from its Prometheus endpoint, beside ours; null when it has none, absent in earlier results. */
    serverTruth: serverTruthSchema.nullable().optional(),
  })
  .strict();

/** A latency objective: the p-th percentile of latency at most maxMs. */
export const poolingSloSchema = z
  .object({
    p: z.number({ error: 'p must be a number' }).gt(0, 'p must be above 0').lte(100, 'p must be at most 100'),
    maxMs: z.number({ error: 'max must be a number of ms' }).positive('max must be a positive number of ms'),
  })
  .strict();

/** The highest level at which the latency objective held with no failed request: capacity at SLO over the levels measured. */
export const poolingCapacitySchema = z
  .object({
    concurrency: z.number().int().positive().nullable(),
    itemsPerS: z.number().nonnegative().nullable(),
    inputTokensPerS: z.number().nonnegative().nullable(),
    /** In words: where it held and where it first missed, or why there is none. */
    statement: z.string(),
  })
  .strict();

/** The best level of a run, from its levels: the Engine card of a non-streaming endpoint. */
export const poolingPeakSchema = z
  .object({
    concurrency: z.number().int().positive(),
    itemsPerS: z.number().nonnegative(),
    inputTokensPerS: z.number().nonnegative().nullable(),
  })
  .strict();

export const poolingRunSchema = z
  .object({
    url: z.string(),
    model: z.string(),
    endpoint: z.enum(POOLING_ENDPOINTS),
    /** The route requests went to, e.g. `/v1/embeddings`, `/api/embed`, `/v1/rerank`. */
    path: z.string(),
    engine: z.object({ name: z.string(), version: z.string().nullable(), dialect: z.string(), detection: z.enum(['detected', 'override']) }).strict(),
    /** Inputs per embeddings request, or documents per rerank query. */
    itemsPerRequest: z.number().int().positive().max(Math.max(LIMITS.embeddingBatch.max, LIMITS.rerankDocuments.max)),
    /** Tokens per input (embeddings) or per document (rerank), by `tokenizer`. */
    itemTokens: z.number().int().positive().max(LIMITS.promptTokens.max),
    /** Rerank: tokens of the query; null for embeddings. */
    queryTokens: z.number().int().positive().max(LIMITS.promptTokens.max).nullable(),
    /** How lengths were counted, e.g. `server (/tokenize)` or `approximate (words; …)`. */
    tokenizer: z.object({ exact: z.boolean(), label: z.string() }).strict(),
    ...wholeRunPlan,
    hourlyCostUsd: z.number().nonnegative().nullable(),
    ...wholeRunEnd,
    latencySlo: poolingSloSchema.nullable(),
  })
  .strict();

/** One raw embeddings or rerank request record (pooling-record.ts) as another process sends it: bounded like the level it makes. */
export const poolingRecordSchema = wholeRecordSchema({
  items: z.number().int().positive().max(Math.max(LIMITS.embeddingBatch.max, LIMITS.rerankDocuments.max)),
  inputTokens: count.nullable(),
  dimension: z.number().int().positive().max(LIMITS.embeddingDimension.max).nullable(),
  traceId: traceIdSchema.optional(),
  spanId: spanIdSchema.optional(),
});

/** Records one pooling run may keep: every level's warm-ups and measured requests. */
export const MAX_POOLING_RECORDS = LIMITS.levels.max * (LIMITS.requestsPerLevel.max + LIMITS.warmupRequests.max);

const poolingEvidence = {
  /** Every request record, warm-ups included, in the order recorded, and sha256 of their canonical JSON: what each level is recomputed from. */
  records: z.array(poolingRecordSchema).max(MAX_POOLING_RECORDS).optional(),
  recordsSha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'must be a sha256 (64 lowercase hex digits)')
    .optional(),
};

/** What one run holds, the top one or a repeat: its run facts, warnings, levels, peak and capacity. */
const poolingRunFields = {
  run: poolingRunSchema,
  warnings: z.array(warningSchema),
  levels: z.array(poolingLevelSchema).max(LIMITS.levels.max),
  /** The level with the most items per second among levels without failures, not client-bound; null when none. */
  peak: poolingPeakSchema.nullable(),
  /** With a latency objective: capacity at SLO over the levels measured; null without one. */
  capacity: poolingCapacitySchema.nullable(),
};

/** One more run of the same contract (goodput run --repeats N): its own run facts, levels and records. */
export const poolingRepeatSchema = z.object({ ...poolingRunFields, ...poolingEvidence }).strict();

export const poolingResultSchema = z
  .object({
    schemaVersion: z.literal(SCHEMA_VERSION),
    ...poolingRunFields,
    /** From a contract (goodput run): the resolved contract and its hash. */
    contract: z.record(z.string(), z.unknown()).optional(),
    contractHash: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'must be a sha256 (64 lowercase hex digits)')
      .optional(),
    /** What the server reported about itself, each declared contract field checked against it. */
    serverReport: serverReportSchema.optional(),
    /** The server's account of itself and its configuration, as a text run records it; absent in results written before pooling runs recorded it. */
    serverAccount: serverAccountSchema.optional(),
    /** The machine that ran the client, in words (OS, CPU, memory, Node; never its name); absent in earlier results. */
    clientMachine: z.string().max(200).optional(),
    ...poolingEvidence,
    /** goodput run --repeats N: the other runs of the contract, the first being the top level. */
    repeats: z.array(poolingRepeatSchema).max(LIMITS.repeats.max).optional(),
    /** A signed repeat set, as a text result carries it (goodput run --repeats N --sign); absent unsigned, for one run, and in earlier results. */
    runSet: runSetSchema.optional(),
  })
  .strict();

export type PoolingResult = z.infer<typeof poolingResultSchema>;
export type PoolingRunInfo = z.infer<typeof poolingRunSchema>;
export type PoolingPeak = z.infer<typeof poolingPeakSchema>;
export type PoolingCapacity = z.infer<typeof poolingCapacitySchema>;

/**
 * Capacity at SLO over the measured levels: the highest level at which the objective held
 * with no failed request, below the first level that missed (levels above a miss do not count:
 * capacity is where load can rise to, not a lucky level past a failure).
 */
export function poolingCapacity(levels: ReadonlyArray<z.infer<typeof poolingLevelSchema>>, slo: { p: number; maxMs: number }): PoolingCapacity {
  const what = `latency p${slo.p} ≤ ${slo.maxMs} ms`;
  let held: z.infer<typeof poolingLevelSchema> | null = null;
  for (const l of levels) {
    const ok = l.slo?.holds === true && l.failed === 0;
    if (!ok) {
      const why =
        l.failed > 0
          ? `${l.failed} failed requests`
          : `latency p${slo.p} ${l.slo?.observedMs === null || l.slo === null ? 'failed' : `${l.slo.observedMs.toFixed(1)} ms`}`;
      const statement =
        held === null
          ? `no level meets ${what}: concurrency ${l.concurrency} missed it (${why})`
          : `capacity at ${what}: concurrency ${held.concurrency}; concurrency ${l.concurrency} missed it (${why})`;
      return { concurrency: held?.concurrency ?? null, itemsPerS: held?.itemsPerS ?? null, inputTokensPerS: held?.inputTokensPerS ?? null, statement };
    }
    held = l;
  }
  if (held === null) return { concurrency: null, itemsPerS: null, inputTokensPerS: null, statement: `no level was measured against ${what}` };
  return {
    concurrency: held.concurrency,
    itemsPerS: held.itemsPerS,
    inputTokensPerS: held.inputTokensPerS,
    statement: `capacity at ${what}: at least concurrency ${held.concurrency}, the highest level measured (every level held)`,
  };
}

/** Why a level counts for no peak, or null when it counts: a failed request, no success, or our own client bounding it. */
export function poolingExclusion(l: z.infer<typeof poolingLevelSchema>): string | null {
  if (l.failed > 0) return `${l.failed} of ${l.requests} requests failed`;
  if (l.itemsPerS === null) return 'no request succeeded';
  if (l.clientBound?.bound === true) return `client-bound: ${l.clientBound.reason ?? 'our own client lagged'}`;
  return null;
}

/** The peak of a run's levels: most items per second among levels that count (poolingExclusion), as a text sweep's peak leaves client-bound levels out. */
export function poolingPeak(levels: ReadonlyArray<z.infer<typeof poolingLevelSchema>>): PoolingPeak | null {
  let best: PoolingPeak | null = null;
  for (const l of levels) {
    if (l.itemsPerS === null || poolingExclusion(l) !== null) continue;
    if (best === null || l.itemsPerS > best.itemsPerS) best = { concurrency: l.concurrency, itemsPerS: l.itemsPerS, inputTokensPerS: l.inputTokensPerS };
  }
  return best;
}

/** Whether a stored or exported result is an embeddings or rerank run's (the text sweep's `run` has no such endpoint). */
export function isPoolingResult(r: { run: object }): r is PoolingResult {
  return isPoolingEndpoint((r.run as { endpoint?: unknown }).endpoint);
}
