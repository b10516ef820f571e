/**
 * The Dialect contract: everything goodput knows about one serving engine's
 * OpenAI-compatible (or native) API, as data plus two small functions. Generic
 * code reads these fields; it never branches on an engine's name.
 */
import type { RequestSpec, TextEndpoint } from '../types.js';

/** Engines detection can name; `generic` is any other OpenAI-compatible server. */
export const ENGINE_KINDS = ['vllm', 'sglang', 'tgi', 'tei', 'llamacpp', 'ollama', 'trtllm', 'lmdeploy', 'openai', 'generic'] as const;
export type EngineKind = (typeof ENGINE_KINDS)[number];

/** Dialects: one per engine, plus Ollama's native NDJSON API (`/api/chat`, `/api/generate`). */
export const DIALECT_KINDS = [...ENGINE_KINDS, 'ollama-native'] as const;
export type DialectKind = (typeof DIALECT_KINDS)[number];

/** How the output length is capped and, where the engine allows it, forced. */
export type LengthControl =
  /** `ignore_eos: true` plus a minimum (`min_tokens`, or LMDeploy's `min_new_tokens`). */
  | { kind: 'ignore-eos-min'; minKey: 'min_tokens' | 'min_new_tokens' }
  /** `ignore_eos: true` alone: runs to the cap (llama.cpp has no minimum). */
  | { kind: 'ignore-eos' }
  /** The engine only caps; actual lengths are checked and short requests flagged. */
  | { kind: 'cannot'; reason: string };

/** Where reasoning text, token counts and usage arrive in a stream, as precomputed field lists. */
/**
 * How an engine serves the Responses API: `stored` keeps each answer, so a session's next turn sends only
 * its new message with `previous_response_id`; `via-chat` converts each request to a chat request (llama.cpp's
 * tools/server/server-chat.cpp), refuses `previous_response_id`, and reads the chat keys besides (length forcing,
 * sampling, cold cache), so a session's turn resends the conversation and the length can be forced.
 */
export type ResponsesMode = 'stored' | 'via-chat';

export interface StreamReading {
  /** Chunk format: OpenAI `chat.completion.chunk`/`text_completion`, or Ollama's native NDJSON lines. */
  readonly chunk: 'openai' | 'ollama-native';
  /** Delta (or message) fields carrying reasoning text, e.g. `reasoning`, `reasoning_content`. */
  readonly reasoningFields: readonly string[];
  /** Reasoning may arrive inside content as `<think>…</think>`, or only a closing `</think>`. */
  readonly inlineThink: boolean;
  /** Paths to a cumulative completion-token count on a chunk (exact tokens per chunk). */
  readonly cumulativeTokenPaths: ReadonlyArray<readonly string[]>;
  /** Paths (inside `usage`) to the reasoning-token count. */
  readonly reasoningTokenPaths: ReadonlyArray<readonly string[]>;
}

/** Facts about usage reporting, for documentation, warnings and the other engineers' tools. */
export interface UsageFacts {
  /** Where the final usage arrives. */
  readonly placement: 'usage-only-chunk' | 'final-ndjson-line';
  /** How exact tokens per chunk are obtained: `continuous_usage_stats`, llama.cpp `timings_per_token`, or not at all. */
  readonly perChunk: 'continuous_usage_stats' | 'timings_per_token' | 'none';
  /** When `prompt_tokens_details.cached_tokens` is reported: always, never, or only with a server flag (named). */
  readonly cachedTokens: 'always' | 'never' | 'unknown' | { flag: string };
}

/** Roles of server-side Prometheus metrics; names are looked up per dialect. */
export type MetricRole =
  | 'ttftSeconds'
  | 'itlSeconds'
  | 'tpotSeconds'
  | 'e2eSeconds'
  | 'queueSeconds'
  | 'running'
  | 'waiting'
  | 'kvCacheUsage'
  | 'promptTokens'
  | 'generationTokens'
  | 'prefixCacheHits'
  | 'prefixCacheQueries'
  | 'prefixCacheHitRate'
  | 'requestDuration';

/** Where a server exposes Prometheus text, and under which names (data for server-side ground truth). */
export interface MetricsFacts {
  /** Path of the Prometheus text, or null when the engine has none. */
  readonly path: string | null;
  /** The server flag that turns it on, or null when it is on by default. */
  readonly enabledBy: string | null;
  readonly names: Readonly<Partial<Record<MetricRole, string>>>;
}

/** The engine's tokenize route: POST `path` with `body(text, model)`; the count is read from the answer. */
export interface TokenizeRoute {
  readonly path: string;
  body(text: string, model: string): Record<string, unknown>;
}

/** One GET answer collected by detection. `json` is null when the body was not JSON. */
export interface ProbeReply {
  status: number;
  headers: Readonly<Record<string, string>>;
  json: unknown;
  text: string;
}

/** Every GET answer detection collected, by path (`/v1/models` included). Missing: no answer. */
export type ProbeEvidence = ReadonlyMap<string, ProbeReply>;

/** Where an engine reports how many tokens a request (prompt plus output) may hold. */
export interface ContextReading {
  /** Where the number comes from, in words, e.g. `GET /props: default_generation_settings.n_ctx (per slot)`. */
  readonly source: string;
  /** The context length for `model`, tokens, from the detection answers; null when they do not say. */
  read(evidence: ProbeEvidence, model: string): number | null;
}

/**
 * Where an engine reports its configuration (slots, batch, context): a GET route
 * detection already fetches, and the object in its answer that holds the settings
 * (the answer itself unless `select` says otherwise, e.g. vLLM's model entry).
 * Which settings are read, and their documented defaults, is core's SERVER_SETTINGS.
 */
export interface ConfigurationReading {
  readonly route: string;
  select?(json: Record<string, unknown>, model: string): Record<string, unknown> | null;
}

/** What a dialect recognised in the evidence. */
export interface Identification {
  version: string | null;
  /** Human-readable facts, e.g. `GET /props: build_info "b9928-81ff7ab"`. */
  evidence: string[];
}

/** Run settings a dialect warns about. */
export interface DialectSettings {
  model: string;
  endpoint: RequestSpec['endpoint'];
  thinking: boolean;
  forceLength: boolean;
}

/** A run-level warning in the result's `warnings` shape. */
export interface DialectWarning {
  code: 'cannot-force-length' | 'cannot-disable-thinking' | 'cannot-enable-thinking' | 'engine-note';
  message: string;
}

/**
 * How a pooling route is spoken: OpenAI's `data[].embedding`, Ollama's
 * `embeddings`, TEI's `/embed` (a bare array of vectors), the Cohere/Jina rerank
 * (`{query, documents}` → `results[].relevance_score`), TEI's rerank
 * (`{query, texts}` → a bare `[{index, score}]`), or vLLM's score
 * (`{text_1, text_2}` → `data[].score`).
 */
export type PoolingShape = 'openai' | 'ollama' | 'tei-embed' | 'rerank' | 'tei-rerank' | 'score';

/** One pooling route: its path and how it is spoken. */
export interface PoolingRouteDef {
  readonly path: string;
  readonly shape: PoolingShape;
}

/**
 * The non-streaming endpoints an engine serves: the route a run uses unless told
 * otherwise (embeddings; rerank), and every other route it serves for them
 * (`--route` picks one). Null: the engine has none, and a run asking for it is
 * refused before anything is sent.
 */
export interface PoolingRoutes {
  readonly embeddings: { readonly path: string; readonly shape: 'openai' | 'ollama' | 'tei-embed' } | null;
  readonly rerank: { readonly path: string; readonly shape: 'rerank' | 'tei-rerank' | 'score' } | null;
  /** Further routes, by endpoint: vLLM's `/score` beside its `/v1/rerank`, TEI's `/embed` beside `/v1/embeddings`. */
  readonly more: ReadonlyArray<PoolingRouteDef & { readonly endpoint: 'embeddings' | 'rerank' }>;
  /** What to do about a refusal whose message matches `when` (llama-server without `--pooling` answers 400 to every embeddings request). */
  readonly refusalHints?: ReadonlyArray<{ readonly when: RegExp; readonly hint: string }>;
}

/**
 * The engine's own admin routes goodput may call between levels, never during
 * one: how its prefix cache is emptied (one POST, or llama.cpp's erase of every
 * slot that `GET /props` counts) and where its profiler starts and stops.
 */
export interface EngineHooks {
  readonly resetCache: { readonly kind: 'post'; readonly path: string } | { readonly kind: 'slots-erase' } | null;
  readonly profiler: { readonly start: string; readonly stop: string } | null;
  /** What the engine needs before it serves them (a start flag, an environment variable), quoted when a call fails. */
  readonly needs: string;
}

/** One engine's dialect. See README "Engines: detection, dialects and server-side ground truth". */
export interface Dialect {
  readonly kind: DialectKind;
  /** The engine this dialect speaks to (what `run.engine.name` records). */
  readonly engine: EngineKind;
  /** Display name, e.g. "llama.cpp". */
  readonly label: string;
  /**
   * Framing, generation paths, Accept header, and the engine's own request-id
   * headers: each request also carries its id in them (besides `X-Request-Id`,
   * always sent), so the engine's own logs name the request by our id.
   */
  readonly api: {
    framing: 'sse' | 'ndjson';
    paths: Readonly<Record<TextEndpoint, string>> & {
      /** The OpenAI Responses API route, or null when the engine has none. */
      readonly responses: string | null;
      /** Anthropic's Messages API route, or null when the engine has none. */
      readonly messages: string | null;
    };
    accept: string;
    requestIdHeaders: readonly string[];
  };
  /** How the Responses route keeps a conversation and which keys it reads (see {@link ResponsesMode}); absent without one. */
  readonly responsesMode?: ResponsesMode;
  readonly pooling: PoolingRoutes;
  /** False for an engine that serves only embeddings and rerank (TEI): text sweeps are refused before anything is sent. Default true. */
  readonly generatesText?: boolean;
  /** The model an engine without `/v1/models` names in its own info route (TEI's `/info`), read from detection's answers. */
  readonly servedModel?: (e: ProbeEvidence) => string | null;
  readonly length: LengthControl;
  /** Sampling parameters sent with every request besides temperature and seed, so engine defaults never differ. */
  readonly sampling: Readonly<Record<string, number>>;
  /** Top-level body keys per endpoint when the engine rejects unknown ones (TRT-LLM, OpenAI); 'any' otherwise. */
  readonly acceptedKeys: Readonly<Record<TextEndpoint, ReadonlySet<string>>> | 'any';
  /** How a cold request keeps the prefix cache cold: `cache_salt`, llama.cpp's `cache_prompt: false`, or only the prompt's salt. */
  readonly cacheControl: 'cache_salt' | 'cache_prompt' | 'prompt-salt-only';
  readonly stream: StreamReading;
  readonly usage: UsageFacts;
  /** Error body shape (all four are read; classification is by HTTP status) and per-status meanings. */
  readonly errors: { shape: 'nested' | 'flat' | 'tgi' | 'ollama'; statusNotes: Readonly<Partial<Record<number, string>>> };
  readonly tokenize: TokenizeRoute | null;
  /** How prompt logprobs can be had, in words ("none" when they cannot). */
  readonly promptLogprobs: string;
  readonly metrics: MetricsFacts;
  /** Where the engine reports its context length (read from the detection answers), or null when it does not. */
  readonly context: ContextReading | null;
  /** Where the engine reports its configuration, read from the detection answers; absent when it reports none. */
  readonly configuration?: ConfigurationReading;
  /** The engine's admin routes for the server hooks (cache reset, profiler); absent when it has none. */
  readonly hooks?: EngineHooks;
  /** GET paths detection should fetch for this dialect (never a generation route). */
  readonly probePaths: readonly string[];
  /** Recognises the engine from the collected GET answers, or null. */
  identify(evidence: ProbeEvidence): Identification | null;
  /** The request body for `spec`, as JSON text. Decided once per request. */
  buildBody(spec: RequestSpec): string;
  /** What this engine cannot do for these settings, as run warnings. */
  warnings(settings: DialectSettings): DialectWarning[];
}
