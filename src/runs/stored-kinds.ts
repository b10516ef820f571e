/**
 * What runs/ knows of each run kind, in one table keyed by core's run kinds:
 * the fields a run of the kind stores of its spec, the live event a stored
 * level of it becomes on the page, and the ingest routes a remote writer
 * posts its levels and result to. Everything else (the writer, the recorder,
 * the saving session) is the same for every kind. A new kind is one line here.
 */
import { type LevelOf, type RunKindName, refusalOf } from '../core/index.js';
import type { SpecOf } from '../runner/index.js';
import type { PoolingRunSpec, RunSpec } from '../store/index.js';
import type { LiveEvent } from './live-events.js';

interface StoredKind<K extends RunKindName> {
  /** What the store keeps of a spec of this kind (never the API key). */
  storedSpec(spec: SpecOf<K>): RunSpec | PoolingRunSpec;
  /** The live event a stored level of this kind is on the page. */
  levelEvent(level: LevelOf<K>): LiveEvent;
  /** The routes under /api/ingest/runs/:id/ a remote writer posts a level and the result to; null: a goodput serve takes none. */
  ingest: { level: string; finish: string } | null;
}

const STORED_KINDS: { [K in RunKindName]: StoredKind<K> } = {
  text: {
    storedSpec: (spec) => ({
      url: spec.url,
      model: spec.model ?? null,
      endpoint: spec.endpoint,
      levels: spec.levels,
      outputTokens: spec.outputTokens,
      promptTokens: spec.promptTokens,
      requestsPerLevel: spec.requestsPerLevel,
      warmup: spec.warmup,
      thinking: spec.thinking,
      forceLength: spec.forceLength,
      temperature: spec.temperature,
      seed: spec.seed,
      hourlyCostUsd: spec.hourlyCostUsd,
      baselineRateUsdPer1M: spec.baselineRateUsdPer1M,
      gpuLabel: spec.gpuLabel,
      command: spec.command,
      arrivalKind: spec.arrival.kind,
      promptsKind: spec.prompts.kind,
      ...(spec.images === null ? {} : { images: spec.images }),
      ...(spec.audio === null ? {} : { audio: spec.audio }),
    }),
    levelEvent: (level) => ({ kind: 'level-end', level }),
    ingest: { level: 'levels', finish: 'finish' },
  },
  pooling: {
    storedSpec: (s) => ({
      url: s.url,
      model: s.model ?? null,
      endpoint: s.endpoint,
      levels: s.levels,
      itemsPerRequest: s.itemsPerRequest,
      itemTokens: s.itemTokens,
      queryTokens: s.endpoint === 'rerank' ? s.queryTokens : null,
      requestsPerLevel: s.requestsPerLevel,
      warmup: s.warmup,
      seed: s.seed,
      hourlyCostUsd: s.hourlyCostUsd,
      latencySlo: s.latencySlo,
      command: s.command,
    }),
    levelEvent: (level) => ({ kind: 'pooling-level-end', level }),
    ingest: { level: 'pooling-levels', finish: 'pooling-finish' },
  },
  // The store's spec types are text's and pooling's; a transcription spec is kept as JSON beside them, told apart by its endpoint.
  transcriptions: {
    storedSpec: (s) =>
      ({
        url: s.url,
        model: s.model ?? null,
        endpoint: s.endpoint,
        levels: s.levels,
        audioSeconds: s.audioSeconds,
        requestsPerLevel: s.requestsPerLevel,
        warmup: s.warmup,
        seed: s.seed,
        command: s.command,
      }) as unknown as RunSpec,
    // The page draws text and pooling levels only: a transcription level reaches it as a line saying so, in the capability matrix's words.
    levelEvent: (level) => ({
      kind: 'warning',
      warning: { code: 'not-drawn', message: `concurrency ${level.concurrency}: ${refusalOf('transcriptions', 'page', { endpoint: 'transcriptions' })}` },
    }),
    // A goodput serve's ingest checks text and pooling levels only: a transcriptions run is saved to the database directly.
    ingest: null,
  },
};

/** What the store keeps of `spec`, a spec of kind `kind`. */
export function storedSpecOf(kind: RunKindName, spec: SpecOf<RunKindName>): RunSpec | PoolingRunSpec {
  return (STORED_KINDS[kind].storedSpec as (s: SpecOf<RunKindName>) => RunSpec | PoolingRunSpec)(spec);
}

/** The live event a stored level of kind `kind` is on the page. */
export function levelEventOf(kind: RunKindName, level: LevelOf): LiveEvent {
  return (STORED_KINDS[kind].levelEvent as (l: LevelOf) => LiveEvent)(level);
}

/** The ingest routes of kind `kind`; null when a goodput serve takes no run of it. */
export function ingestRoutesOf(kind: RunKindName): { level: string; finish: string } | null {
  return STORED_KINDS[kind].ingest;
}
