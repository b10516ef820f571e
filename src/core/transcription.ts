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
import type { WholeRecord } from './pooling-record.js';
import { SCHEMA_VERSION, warningSchema } from './result-schema.js';
import { wholeLevelBase, wholeLevelHead, wholeRecordSchema, wholeRunEnd, wholeRunPlan } from './whole-level.js';

/** The endpoint that makes a transcription run. */
export const TRANSCRIPTION_ENDPOINTS = ['transcriptions'] as const;

/** The route requests go to. */
export const TRANSCRIPTION_PATH = '/v1/audio/transcriptions';

/** One transcription request, as measured. Instants are monotonic nanoseconds; a request ends as a whole answer does (pooling-record.ts). */
export interface TranscriptionRecord extends WholeRecord {
  /** Seconds of audio the clip sent held. */
  audioS: number;
  /** Words of the text answered; null for a failed request. */
  words: number | null;
}

const count = z.number().int().nonnegative();
const rate = z.number().nonnegative().nullable();
const spread = z
  .object({ p50: z.number().nonnegative(), p90: z.number().nonnegative(), p99: z.number().nonnegative(), mean: z.number().nonnegative() })
  .strict();

export const transcriptionRecordSchema = wholeRecordSchema({
  audioS: z.number().positive().max(LIMITS.audioSeconds.max),
  words: count.nullable(),
});

export const transcriptionLevelSchema = z
  .object({
    ...wholeLevelHead,
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
    ...wholeRunPlan,
    ...wholeRunEnd,
  })
  .strict();

export const transcriptionResultSchema = z
  .object({
    schemaVersion: z.literal(SCHEMA_VERSION),
    run: transcriptionRunSchema,
    warnings: z.array(warningSchema),
    levels: z.array(transcriptionLevelSchema).max(LIMITS.levels.max),
  })
  .strict();

export type TranscriptionLevel = z.infer<typeof transcriptionLevelSchema>;
export type TranscriptionResult = z.infer<typeof transcriptionResultSchema>;

function spreadOf(samples: readonly number[]): z.infer<typeof spread> | null {
  const p = percentiles(samples, [50, 90, 99] as const);
  return p === null ? null : { ...p, mean: mean(samples) as number };
}

/** The level's figures from its records (warm-ups are ignored); a level where every request failed has no rates. */
export function transcriptionLevel(concurrency: number, records: readonly TranscriptionRecord[]): TranscriptionLevel {
  const { head, ok, per, latenciesMs, failures } = wholeLevelBase(concurrency, records);
  return {
    ...head,
    latencyMs: spreadOf(latenciesMs),
    realTimeFactor: spreadOf(ok.map((r, i) => (latenciesMs[i] as number) / 1000 / r.audioS)),
    wordsPerS: per(ok.reduce((a, r) => a + (r.words ?? 0), 0)),
    audioSecondsPerS: per(ok.reduce((a, r) => a + r.audioS, 0)),
    failures,
  };
}
