/**
 * What the store keeps and returns. Times are ISO-8601 text; rates tok/s;
 * money USD. A server's API key is stored but never part of any returned view.
 */
import {
  type AudioInputs,
  type Cards,
  type ImageInputs,
  type LevelResult,
  type PoolingEndpoint,
  isPoolingEndpoint,
  type PoolingLevel,
  type PoolingResult,
  type RunInfo,
  type Warning,
} from '../core/index.js';

/** A server's state from its last probe. */
export type ServerState = 'running' | 'stopped' | 'unreachable';

export interface ServerStatus {
  state: ServerState;
  /** Why it is not running, or a caveat (e.g. it does not serve the registered model). */
  detail: string | null;
  /** The model the server answers with (the registered one when served, else the first it lists). */
  model: string | null;
  checkedAt: string;
}

/** A registered server as shown anywhere: the key is only ever `hasApiKey`. */
export interface ServerView {
  id: number;
  name: string;
  baseUrl: string;
  hasApiKey: boolean;
  model: string | null;
  engine: string | null;
  gpuLabel: string | null;
  hourlyCostUsd: number | null;
  status: ServerStatus;
  createdAt: string;
}

/** How a run ended, or `running`; `interrupted` = its process is gone (see liveness.ts). */
export type RunStatus = 'running' | 'complete' | 'stopped' | 'server-failed' | 'interrupted';

/** The sweep as asked, stored at start (no API key, ever). */
export interface RunSpec {
  url: string;
  model: string | null;
  endpoint: 'chat' | 'completions' | 'responses' | 'messages';
  levels: number[];
  outputTokens: number;
  promptTokens: number;
  requestsPerLevel: number | 'auto';
  warmup: number;
  thinking: boolean;
  forceLength: boolean;
  temperature: number;
  seed: number;
  hourlyCostUsd: number | null;
  baselineRateUsdPer1M: number | null;
  gpuLabel: string | null;
  command: string;
  /** How requests arrived (absent in runs stored before it was kept: closed-loop concurrency). */
  arrivalKind?: 'concurrency' | 'rate' | 'burst' | 'trace';
  /** Where prompts came from; a trace's or session's requests carry their own lengths (absent in earlier runs). */
  promptsKind?: 'synthetic' | 'list' | 'trace' | 'sessions' | 'agents';
  /** Chat with images or audio: what every request carried (absent without them, and in earlier runs). */
  images?: ImageInputs;
  audio?: AudioInputs;
}

/** An embeddings or rerank sweep as asked, stored at start (no API key, ever). */
export interface PoolingRunSpec {
  url: string;
  model: string | null;
  endpoint: PoolingEndpoint;
  levels: number[];
  /** Inputs per embeddings request, or documents per rerank query. */
  itemsPerRequest: number;
  /** Tokens per input or document. */
  itemTokens: number;
  /** Rerank: tokens of the query; null for embeddings. */
  queryTokens: number | null;
  requestsPerLevel: number | 'auto';
  warmup: number;
  seed: number;
  hourlyCostUsd: number | null;
  latencySlo: { p: number; maxMs: number } | null;
  command: string;
}

/** A stored embeddings or rerank run: its finished levels, and its result once it ended (each checked by the core schemas on reading). */
export interface StoredPooling {
  endpoint: PoolingEndpoint;
  levels: PoolingLevel[];
  /** The whole result (`sweep --endpoint … --json`); null while running and for interrupted runs. */
  result: PoolingResult | null;
}

/** What starting a run records. */
export interface BeginRun {
  serverId: number | null;
  serverName: string | null;
  /** Normalized base URL of the target: the key that keeps two runs off one server. */
  targetUrl: string;
  spec: RunSpec | PoolingRunSpec;
  ownerPid: number;
  ownerHost: string;
}

/** A row of the run history. */
export interface RunSummary {
  id: number;
  serverId: number | null;
  serverName: string | null;
  targetUrl: string;
  model: string | null;
  status: RunStatus;
  stopReason: string | null;
  startedAt: string;
  endedAt: string | null;
  /** Peak throughput over valid, not client-bound levels, tok/s; null when there is none. */
  peakThroughputTokS: number | null;
  peakConcurrency: number | null;
  levelsDone: number;
  levelsPlanned: number;
  outputTokens: number;
  thinking: boolean;
  /** The run's level axis and prompt kind as stored with its spec (absent in earlier runs). */
  arrivalKind?: RunSpec['arrivalKind'];
  promptsKind?: RunSpec['promptsKind'];
  /** The endpoint measured (absent in runs read from an older goodput serve). */
  endpoint?: RunSpec['endpoint'] | PoolingEndpoint;
  /** Embeddings and rerank runs: peak inputs/s (documents/s for rerank) over levels without failures; their peakThroughputTokS is null. */
  peakItemsPerS?: number | null;
}

/** One run with everything stored about it except its raw records. */
export interface RunDetail extends RunSummary {
  spec: RunSpec | PoolingRunSpec;
  /** The run's contract: the result's `run` object; null until the run ends. */
  runInfo: RunInfo | null;
  /** The result's other top-level fields (contract hash, tokenizer, …) as the sweep wrote them. */
  extras: Record<string, unknown>;
  warnings: Warning[];
  /** Finished levels in ascending concurrency. */
  levels: LevelResult[];
  /** The result's cards; null until the run ends (and for interrupted runs). */
  cards: Cards | null;
  owner: { pid: number; host: string };
  /** Embeddings and rerank runs: their own levels and result (`levels` above is then empty); absent for text runs. */
  pooling?: StoredPooling;
}

/** Whether a stored spec is an embeddings or rerank sweep's. */
export const isPoolingSpec = (s: RunSpec | PoolingRunSpec): s is PoolingRunSpec => isPoolingEndpoint(s.endpoint);
