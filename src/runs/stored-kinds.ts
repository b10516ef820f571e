/**
 * What runs/ knows of each run kind, in one table keyed by core's run kinds:
 * the fields a run of the kind stores of its spec, the live event a stored
 * level of it becomes on the page, and the ingest routes a remote writer
 * posts its levels and result to. Everything else (the writer, the recorder,
 * the saving session) is the same for every kind. A kind the page does not
 * draw and a serve does not ingest takes the default: a new kind needs a line
 * here only once the page draws it.
 */
import { type LevelOf, RUN_KINDS, type RunKindName, refusalOf } from '../core/index.js';
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

const STORED_KINDS: { [K in 'text' | 'pooling']: StoredKind<K> } = {
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
};

/**
 * Any other kind (speech to text): its spec kept as JSON beside the store's
 * spec types (never the API key), told apart by its endpoint; a stored level
 * reaches the page as a line saying it is not drawn, in the capability
 * matrix's words; a serve's ingest takes none (such a run is saved to the
 * database directly).
 */
function undrawn(kind: RunKindName): StoredKind<RunKindName> {
  const endpoint = RUN_KINDS[kind].endpoints[0];
  return {
    storedSpec: (spec) => {
      const { apiKey: _key, ...kept } = spec as { apiKey?: string };
      return kept as unknown as RunSpec;
    },
    levelEvent: (level) => ({
      kind: 'warning',
      warning: { code: 'not-drawn', message: `concurrency ${level.concurrency}: ${refusalOf(kind, 'page', { endpoint })}` },
    }),
    ingest: null,
  };
}

const storedKind = (kind: RunKindName): StoredKind<RunKindName> =>
  (kind === 'text' || kind === 'pooling' ? STORED_KINDS[kind] : undrawn(kind)) as StoredKind<RunKindName>;

/** What the store keeps of `spec`, a spec of kind `kind`. */
export function storedSpecOf(kind: RunKindName, spec: SpecOf<RunKindName>): RunSpec | PoolingRunSpec {
  return storedKind(kind).storedSpec(spec);
}

/** The live event a stored level of kind `kind` is on the page. */
export function levelEventOf(kind: RunKindName, level: LevelOf): LiveEvent {
  return storedKind(kind).levelEvent(level);
}

/** The ingest routes of kind `kind`; null when a goodput serve takes no run of it. */
export function ingestRoutesOf(kind: RunKindName): { level: string; finish: string } | null {
  return storedKind(kind).ingest;
}
