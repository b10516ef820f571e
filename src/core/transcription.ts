/**
 * Speech to text (OpenAI's `/v1/audio/transcriptions`) as a kind of traffic:
 * one record per request (its two instants, the seconds of audio sent, the
 * words the text held), a level's figures from its records (requests/s,
 * latency percentiles, real-time factor, words and audio seconds per second,
 * failures), and the result file tagged by `run.endpoint: 'transcriptions'`.
 * The schemas are what the run-kind table (run-kinds.ts) registers; nothing
 * here does I/O.
 */
import { z } from 'zod';
import { LIMITS } from './limits.js';
import { mean, percentiles } from './percentiles.js';
import type { PoolingOutcome } from './pooling-record.js';
import { poolingRecordSchema } from './pooling-schema.js';
import { SCHEMA_VERSION } from './result-schema.js';

/** The endpoint that makes a transcription run. */
export const TRANSCRIPTION_ENDPOINTS = ['transcriptions'] as const;

/** The route requests go to. */
export const TRANSCRIPTION_PATH = '/v1/audio/transcriptions';

/** One transcription request, as measured. Instants are monotonic nanoseconds; a request ends as a whole answer does (pooling-record.ts). */
export interface TranscriptionRecord {
  seq: number;
  concurrency: number;
  warmup: boolean;
  sentNs: number;
  endNs: number;
  /** Seconds of audio the clip sent held. */
  audioS: number;
  /** Words of the text answered; null for a failed request. */
  words: number | null;
  outcome: PoolingOutcome;
}

const count = z.number().int().nonnegative();
const rate = z.number().nonnegative().nullable();
const spread = z
  .object({ p50: z.number().nonnegative(), p90: z.number().nonnegative(), p99: z.number().nonnegative(), mean: z.number().nonnegative() })
  .strict();

export const transcriptionRecordSchema = z
  .object({
    seq: count.max(LIMITS.requestsPerLevel.max + LIMITS.warmupRequests.max),
    concurrency: z.number().int().positive().max(LIMITS.concurrency.max),
    warmup: z.boolean(),
    sentNs: z.number().nonnegative(),
    endNs: z.number().nonnegative(),
    audioS: z.number().positive().max(LIMITS.audioSeconds.max),
    words: count.nullable(),
    // The same endings as any whole answer's.
    outcome: poolingRecordSchema.shape.outcome,
  })
  .strict()
  .refine((r) => r.endNs >= r.sentNs, { error: 'endNs must not be before sentNs', path: ['endNs'] });

export const transcriptionLevelSchema = z
  .object({
    concurrency: z.number().int().positive().max(LIMITS.concurrency.max),
    requests: count.max(LIMITS.requestsPerLevel.max),
    failed: count.max(LIMITS.requestsPerLevel.max),
    /** First measured send to last end, seconds; null without measured requests. */
    durationS: z.number().positive().nullable(),
    requestsPerS: rate,
    /** Send to last byte of successful requests, ms. */
    latencyMs: spread.nullable(),
    /** Real-time factor of successful requests: processing time over the audio's duration (below 1: faster than real time). */
    realTimeFactor: spread.nullable(),
    /** Words of successful answers per second of the level. */
    wordsPerS: rate,
    /** Seconds of audio transcribed (successful requests) per second of the level. */
    audioSecondsPerS: rate,
    /** The most common reasons first (at most 5 kept). */
    failures: z.array(z.object({ reason: z.string().max(4096), count }).strict()).max(5),
  })
  .strict();

export const transcriptionRunSchema = z
  .object({
    url: z.string(),
    model: z.string(),
    endpoint: z.enum(TRANSCRIPTION_ENDPOINTS),
    path: z.string(),
    /** Seconds of every clip sent (synthetic 8 kHz mono WAV drawn from `seed`). */
    audioSeconds: z.number().positive().max(LIMITS.audioSeconds.max),
    levelsRequested: z.array(z.number().int().positive()).max(LIMITS.levels.max),
    requestsPerLevel: z.union([z.number().int().positive().max(LIMITS.requestsPerLevel.max), z.literal('auto')]),
    warmupPerLevel: count.max(LIMITS.warmupRequests.max),
    seed: z.number().int(),
    command: z.string(),
    startedAt: z.string(),
    endedAt: z.string(),
    status: z.enum(['complete', 'stopped', 'server-failed']),
    stopReason: z.string().nullable(),
    toolVersion: z.string(),
  })
  .strict();

export const transcriptionResultSchema = z
  .object({
    schemaVersion: z.literal(SCHEMA_VERSION),
    run: transcriptionRunSchema,
    warnings: z.array(z.object({ code: z.string(), message: z.string() })),
    levels: z.array(transcriptionLevelSchema).max(LIMITS.levels.max),
  })
  .strict();

export type TranscriptionLevel = z.infer<typeof transcriptionLevelSchema>;
export type TranscriptionResult = z.infer<typeof transcriptionResultSchema>;

/** A failed request's reason, one line; null for a success. */
function failureReason(o: PoolingOutcome): string | null {
  if (o.kind === 'ok') return null;
  if (o.kind === 'aborted') return 'aborted';
  return o.kind === 'http-error' ? `HTTP ${o.status}: ${o.message}` : o.message;
}

function spreadOf(samples: readonly number[]): z.infer<typeof spread> | null {
  const p = percentiles(samples, [50, 90, 99] as const);
  return p === null ? null : { ...p, mean: mean(samples) as number };
}

/** The level's figures from its records (warm-ups are ignored); a level where every request failed has no rates. */
export function transcriptionLevel(concurrency: number, records: readonly TranscriptionRecord[]): TranscriptionLevel {
  const measured = records.filter((r) => !r.warmup);
  const ok = measured.filter((r) => r.outcome.kind === 'ok');
  const start = Math.min(...measured.map((r) => r.sentNs));
  const end = Math.max(...measured.map((r) => r.endNs));
  const durationS = measured.length > 0 && end > start ? (end - start) / 1e9 : null;
  const per = (n: number) => (durationS === null || ok.length === 0 ? null : n / durationS);
  const latencies = ok.map((r) => (r.endNs - r.sentNs) / 1e6);
  const counts = new Map<string, number>();
  for (const r of measured) {
    const why = failureReason(r.outcome);
    if (why !== null) counts.set(why, (counts.get(why) ?? 0) + 1);
  }
  return {
    concurrency,
    requests: measured.length,
    failed: measured.length - ok.length,
    durationS,
    requestsPerS: per(measured.length),
    latencyMs: spreadOf(latencies),
    realTimeFactor: spreadOf(ok.map((r, i) => (latencies[i] as number) / 1000 / r.audioS)),
    wordsPerS: per(ok.reduce((a, r) => a + (r.words ?? 0), 0)),
    audioSecondsPerS: per(ok.reduce((a, r) => a + r.audioS, 0)),
    failures: [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([reason, n]) => ({ reason, count: n })),
  };
}
