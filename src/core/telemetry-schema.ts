/**
 * Result-schema parts for what the server and the accelerator said about a level:
 * the server's own view from its Prometheus endpoint beside ours, and GPU
 * utilisation, power and energy. Additive to schema version 1: files written
 * before these fields existed still validate. "Not available" is a null with a
 * reason, never a zero.
 */
import { z } from 'zod';
import { LIMITS, limitMessage } from './limits.js';

const num = z.number();

/** A gauge sampled during the level: mean and max of the readings, and how many there were. */
export const gaugeStatsSchema = z.object({ mean: num, max: num, samples: z.number().int().positive() });

/** One figure we measured next to the server's, judged against a stated tolerance. */
export const comparisonRowSchema = z.object({
  metric: z.enum(['ttft-mean-ms', 'itl-mean-ms', 'generated-tokens', 'requests', 'e2e-mean-ms']),
  client: num,
  server: num,
  /** client − server. */
  diff: num,
  /** diff / server × 100; null when the server's figure is 0. */
  diffPct: num.nullable(),
  /** The range diff may fall in and still agree. */
  allowedMin: num,
  allowedMax: num,
  agrees: z.boolean(),
  /** How the range was set, in words. */
  basis: z.string(),
});

/** The server's view of one level, from counter and histogram deltas over its measured requests. */
export const serverTruthSchema = z.object({
  metricsUrl: z.string(),
  family: z.string().nullable(),
  requests: num.nullable(),
  ttftMeanMs: num.nullable(),
  itlMeanMs: num.nullable(),
  /** What one inter-token observation is: a streamed chunk (engine step), a token, or a request's mean. */
  itlPer: z.enum(['chunk', 'token', 'request']).nullable(),
  e2eMeanMs: num.nullable(),
  queueMeanMs: num.nullable(),
  generatedTokens: num.nullable(),
  promptTokens: num.nullable(),
  prefixCacheHitPct: num.nullable(),
  /** The server's own write lateness over the level (p99, ms), where it reports it (goodput's simulator); it widens the TTFT allowance. */
  lateP99Ms: num.nullable().optional(),
  running: gaugeStatsSchema.nullable(),
  waiting: gaugeStatsSchema.nullable(),
  kvCacheUsagePct: gaugeStatsSchema.nullable(),
  /** Roles the server does not expose (by name, e.g. "ttftMs"). */
  missing: z.array(z.string()),
  /** Counter resets, histograms without observations, and the like. */
  notes: z.array(z.string()),
  /** TCP connect round trip to the server before the level, ms (median of a few). */
  rttMs: num.nullable(),
  comparison: z.array(comparisonRowSchema),
  /** True when the server held requests in its queue: load showing up as latency. */
  queued: z.boolean(),
});

/**
 * Speculative decoding over one level: the engine's own figures (vLLM's counters' differences over the
 * level's window, or SGLang's gauge) beside our estimate from the tokens each streamed chunk carried.
 * Present only where the server reports speculative decoding (absent in earlier results).
 */
export const specDecodeSchema = z.object({
  /** Where the server's figures come from: vLLM's `spec_decode_*` counters, SGLang's `spec_accept_length` gauge, or TensorRT-LLM's counters and gauge. */
  source: z.enum(['vllm-counters', 'sglang-gauge', 'trtllm']),
  /** Mean tokens per verification step, the bonus token included (vLLM: 1 + Δaccepted / Δdrafts); the headline. */
  acceptanceLength: num.positive(),
  /** Δaccepted tokens / Δdraft tokens (vLLM's and TensorRT-LLM's counters); null where the engine does not say (SGLang's gauge). */
  acceptanceRate: num.min(0).max(1).nullable(),
  /** Δaccepted at draft position i / Δdrafts, from position 0; empty where the engine does not say. */
  perPosition: z.array(num.min(0).max(1)).max(LIMITS.specDecodePositions.max, {
    error: (i) => limitMessage('specDecodePositions', Array.isArray(i.input) ? i.input.length : Number(i.input), 'specDecode.perPosition'),
  }),
  /** The counters' differences over the level (vLLM), so the arithmetic can be redone; null for SGLang's gauge. */
  counters: z.object({ drafts: num.positive(), draftTokens: num.nonnegative(), acceptedTokens: num.nonnegative() }).nullable(),
  /** Our estimate: mean tokens per content chunk after each request's first (one verification step each), and how many chunks; null without any. */
  client: z.object({ tokensPerChunk: num.positive(), chunks: z.number().int().positive(), exact: z.boolean() }).nullable(),
  /** Whether our estimate lies within the stated tolerance of the server's acceptance length; null without an estimate. */
  agrees: z.boolean().nullable(),
});

/** What the run found at the server's metrics endpoint, once, at the start. */
export const serverMetricsRunSchema = z.object({
  available: z.boolean(),
  url: z.string().nullable(),
  family: z.string().nullable(),
  /** Role → the metric name used. */
  found: z.record(z.string(), z.string()),
  missing: z.array(z.string()),
  /** Why there is no server view, when unavailable. */
  reason: z.string().nullable(),
});

/** GPU utilisation, power and energy of a level, with the source of the readings. */
export const gpuLevelSchema = z.discriminatedUnion('available', [
  z.object({
    available: z.literal(true),
    source: z.string(),
    samples: z.number().int().positive(),
    utilizationPct: z.object({ mean: num, max: num }).nullable(),
    /** Summed over the GPUs, W. */
    powerW: z.object({ mean: num, max: num }).nullable(),
    /** Mean power over the level × its duration, J. */
    energyJ: num.nullable(),
    /** 'counter': mean power from the source's energy counter delta; 'power': from its power readings. */
    energyMethod: z.enum(['counter', 'power']).nullable(),
    joulesPerOutputToken: num.nullable(),
    /** Why a figure is null, and the source's own warnings (e.g. a DCGM interval longer than the level). */
    notes: z.array(z.string()),
  }),
  z.object({ available: z.literal(false), source: z.literal('not available'), reason: z.string() }),
]);

const share = z.number().min(0).max(1);
const joules = num.nonnegative().nullable();

/**
 * A level's energy over its measured window only (first measured send to last
 * measured end; the warm-up is outside), valid or not. Not valid: no joules and
 * no per-token figure, and the reason (a gap named from when to when, or too
 * few readings). Absent in results of earlier versions.
 */
export const energyLevelSchema = z.object({
  source: z.string(),
  valid: z.boolean(),
  /** Why the energy is not valid; null when it is. */
  reason: z.string().nullable(),
  /** The measured window, ms. */
  windowMs: num.nonnegative(),
  /** Readings used inside the window. */
  samples: z.number().int().nonnegative(),
  /** Readings left out: taken before the first measured send or after the last measured end. */
  outside: z.number().int().nonnegative(),
  /** The source's sample interval, ms (else the readings' median spacing); null with fewer than two readings. */
  intervalMs: num.positive().nullable(),
  /** Share of the window between the first and last reading used, 0–1. */
  coverage: share.nullable(),
  /** 'counter': the source's energy counter difference; 'power': trapezoids over power readings. */
  method: z.enum(['counter', 'power']).nullable(),
  joules,
  meanPowerW: joules,
  outputTokens: z.number().int().nonnegative(),
  inputTokens: z.number().int().nonnegative().nullable(),
  joulesPerOutputToken: joules,
  joulesPerInputToken: joules,
  joulesPerTotalToken: joules,
});

export type EnergyLevel = z.infer<typeof energyLevelSchema>;
export type GaugeStats = z.infer<typeof gaugeStatsSchema>;
export type ComparisonRow = z.infer<typeof comparisonRowSchema>;
export type ServerTruth = z.infer<typeof serverTruthSchema>;
export type SpecDecode = z.infer<typeof specDecodeSchema>;
export type ServerMetricsRun = z.infer<typeof serverMetricsRunSchema>;
export type GpuLevel = z.infer<typeof gpuLevelSchema>;
