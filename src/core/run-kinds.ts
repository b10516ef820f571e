/**
 * The kinds of traffic a run measures, declared once: each kind's name, the
 * endpoints that make a run of it, and the schemas of its level, raw record
 * and result. Every seam that carries a run (its events, the save path, the
 * recorder, the API start) is keyed by kind through this table, the way
 * engines are keyed by dialect. A run's kind is read from its endpoint: a
 * result's `run.endpoint`, a spec's `endpoint`. The runner's drivers
 * (runner/run-kinds.ts) and the stored form (runs/stored-kinds.ts) are keyed
 * by the same names; a new kind adds a line to each.
 */
import type { z } from 'zod';
import type { Capabilities } from './capabilities.js';
import { POOLING_CAPABILITIES } from './pooling-capabilities.js';
import type { PoolingLevel } from './pooling-level.js';
import { POOLING_ENDPOINTS, type PoolingRecord } from './pooling-record.js';
import { type PoolingResult, poolingLevelSchema, poolingRecordSchema, poolingResultSchema } from './pooling-schema.js';
import type { RequestRecord } from './record.js';
import { rawRecordSchema } from './record-schema.js';
import { type LevelResult, type SweepResult, levelResultSchema, sweepResultSchema } from './result-schema.js';
import { TEXT_CAPABILITIES } from './text-capabilities.js';
import {
  TRANSCRIPTION_ENDPOINTS,
  type TranscriptionLevel,
  type TranscriptionRecord,
  type TranscriptionResult,
  transcriptionLevelSchema,
  transcriptionRecordSchema,
  transcriptionResultSchema,
} from './transcription.js';
import { TRANSCRIPTION_CAPABILITIES } from './transcription-capabilities.js';

/** The streaming text-generation endpoints. */
export const TEXT_ENDPOINTS = ['chat', 'completions', 'responses', 'messages'] as const;

/** Every endpoint a sweep can measure, each kind's in turn (the option catalogue's --endpoint choices). */
export const RUN_ENDPOINTS = [...TEXT_ENDPOINTS, ...POOLING_ENDPOINTS, ...TRANSCRIPTION_ENDPOINTS] as const;
export type RunEndpoint = (typeof RUN_ENDPOINTS)[number];

/** What one kind's sweep produces, by type: what its events, writer and recorder carry. */
export interface RunKindShapes {
  text: { level: LevelResult; record: RequestRecord; result: SweepResult };
  pooling: { level: PoolingLevel; record: PoolingRecord; result: PoolingResult };
  transcriptions: { level: TranscriptionLevel; record: TranscriptionRecord; result: TranscriptionResult };
}

export type RunKindName = keyof RunKindShapes;

/** One kind of traffic. */
export interface RunKind {
  readonly name: RunKindName;
  /** In words, for messages ("text generation"). */
  readonly label: string;
  /** The endpoints (`--endpoint`, a spec's or result's `endpoint`) that make a run of this kind. */
  readonly endpoints: readonly string[];
  readonly levelSchema: z.ZodType;
  readonly recordSchema: z.ZodType;
  readonly resultSchema: z.ZodType;
  /** Its column of the capability matrix: each surface works (and the test showing it) or refuses it (and why). */
  readonly capabilities: Capabilities;
}

/** Every kind by name (each entry's `name` is its key; a test checks it, and that no endpoint is in two kinds). */
export const RUN_KINDS: { readonly [K in RunKindName]: RunKind & { readonly name: K } } = {
  text: {
    name: 'text',
    label: 'text generation',
    endpoints: TEXT_ENDPOINTS,
    levelSchema: levelResultSchema,
    recordSchema: rawRecordSchema,
    resultSchema: sweepResultSchema,
    capabilities: TEXT_CAPABILITIES,
  },
  pooling: {
    name: 'pooling',
    label: 'embeddings or rerank',
    endpoints: POOLING_ENDPOINTS,
    levelSchema: poolingLevelSchema,
    recordSchema: poolingRecordSchema,
    resultSchema: poolingResultSchema,
    capabilities: POOLING_CAPABILITIES,
  },
  transcriptions: {
    name: 'transcriptions',
    label: 'speech to text',
    endpoints: TRANSCRIPTION_ENDPOINTS,
    levelSchema: transcriptionLevelSchema,
    recordSchema: transcriptionRecordSchema,
    resultSchema: transcriptionResultSchema,
    capabilities: TRANSCRIPTION_CAPABILITIES,
  },
};

export const RUN_KIND_NAMES = Object.keys(RUN_KINDS) as RunKindName[];

/** A level of kind K; of any kind when K is not named. */
export type LevelOf<K extends RunKindName = RunKindName> = RunKindShapes[K]['level'];
/** A raw record of kind K; of any kind when K is not named. */
export type RecordOf<K extends RunKindName = RunKindName> = RunKindShapes[K]['record'];
/** A result of kind K; of any kind when K is not named. */
export type ResultOf<K extends RunKindName = RunKindName> = RunKindShapes[K]['result'];

/**
 * The kind an endpoint belongs to. No endpoint (a spec that takes the
 * default, a result written before endpoints were recorded) is text
 * generation, as is a name no kind claims (its own schema then refuses it).
 */
export function kindOfEndpoint(endpoint: unknown): RunKindName {
  return RUN_KIND_NAMES.find((k) => (RUN_KINDS[k].endpoints as readonly unknown[]).includes(endpoint)) ?? 'text';
}

/** The kind of a result, read from its `run.endpoint`. */
export function kindOfResult(result: { run: object }): RunKindName {
  return kindOfEndpoint((result.run as { endpoint?: unknown }).endpoint);
}
