/**
 * runSweep: the one programmatic entry the CLI, the API, contracts and tests
 * share, whatever the kind of traffic. The run kind comes from the spec's
 * endpoint (core's run-kind table); each kind's driver, keyed by the same
 * names, holds its spec schema and its level loop (sweep.ts for text
 * generation, pooling-sweep.ts for embeddings and rerank). A new kind is its
 * driver module plus one line here.
 */
import type { z } from 'zod';
import { type ResultOf, type RunKindName, kindOfEndpoint } from '../core/index.js';
import { type PoolingDeps, sweepPooling } from './pooling-sweep.js';
import { type PoolingSpecInput, poolingSpecSchema } from './pooling-spec.js';
import { type SweepDeps, sweepText } from './sweep.js';
import { type TranscriptionDeps, type TranscriptionSpecInput, sweepTranscription, transcriptionSpecSchema } from './transcription-sweep.js';
import { type SweepSpecInput, sweepSpecSchema } from './sweep-spec.js';

/** Every kind's driver by name: its spec schema and its sweep. */
const RUN_DRIVERS = {
  text: { specSchema: sweepSpecSchema, sweep: sweepText },
  pooling: { specSchema: poolingSpecSchema, sweep: sweepPooling },
  transcriptions: { specSchema: transcriptionSpecSchema, sweep: sweepTranscription },
} as const satisfies { [K in RunKindName]: { specSchema: unknown; sweep: (input: never, deps?: never) => Promise<ResultOf<K>> } };

/** The spec a sweep of kind K is given (text generation unless named); of any kind with `RunKindName`. */
export type SpecInputOf<K extends RunKindName = 'text'> = K extends RunKindName ? Parameters<(typeof RUN_DRIVERS)[K]['sweep']>[0] : never;
/** A spec of kind K as its schema leaves it (defaults filled). */
export type SpecOf<K extends RunKindName = 'text'> = K extends RunKindName ? z.output<(typeof RUN_DRIVERS)[K]['specSchema']> : never;
/** What a sweep of kind K takes besides its spec: the hooks every kind offers, and its own. */
export type DepsOf<K extends RunKindName = 'text'> = K extends RunKindName ? NonNullable<Parameters<(typeof RUN_DRIVERS)[K]['sweep']>[1]> : never;

/** Clients elsewhere (goodput worker processes) a sweep of kind K splits its levels over, as its driver takes them. */
export type ClientsOf<K extends RunKindName = 'text'> = DepsOf<K> extends { clients?: infer C } ? NonNullable<C> : never;
/** The kinds whose driver can split its levels over worker processes (the others refuse --workers). */
export type WorkerKindName = { [K in RunKindName]: DepsOf<K> extends { clients?: unknown } ? K : never }[RunKindName];

/** The kind a spec asks for, read from its endpoint (none: text generation). */
export function kindOfSpec(input: { endpoint?: unknown }): RunKindName {
  return kindOfEndpoint(input.endpoint);
}

/** The schema that validates a spec of the kind its endpoint names. */
export function specSchemaOf(input: { endpoint?: unknown }): (typeof RUN_DRIVERS)[RunKindName]['specSchema'] {
  return RUN_DRIVERS[kindOfSpec(input)].specSchema;
}

/**
 * Runs a sweep of the kind its spec's endpoint names: preflight, then each
 * level ascending, emitting that kind's events.
 */
export function runSweep(input: SweepSpecInput, deps?: SweepDeps): Promise<ResultOf<'text'>>;
export function runSweep(input: PoolingSpecInput, deps?: PoolingDeps): Promise<ResultOf<'pooling'>>;
export function runSweep(input: TranscriptionSpecInput, deps?: TranscriptionDeps): Promise<ResultOf<'transcriptions'>>;
export function runSweep(input: SpecInputOf<RunKindName>, deps?: DepsOf<RunKindName>): Promise<ResultOf>;
export function runSweep(input: SpecInputOf<RunKindName>, deps: DepsOf<RunKindName> = {}): Promise<ResultOf> {
  const driver = RUN_DRIVERS[kindOfSpec(input)];
  return (driver.sweep as (i: typeof input, d: typeof deps) => Promise<ResultOf>)(input, deps);
}
