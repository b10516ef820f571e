/**
 * The limits every entry point shares (the CLI's flags, a contract, the page's
 * form, the API's body, and what the client accepts from a server), defined once
 * so they cannot drift apart. A value past a limit is refused naming the limit:
 * exit 2 on the CLI, HTTP 400 on the API.
 */
import { z } from 'zod';

const MiB = 1024 * 1024;

/** One row per bounded input: the value and what it bounds, in words a refusal can quote. */
export const LIMITS = {
  levels: { max: 64, what: 'levels in one run' },
  concurrency: { max: 4096, what: 'concurrent streams in one level' },
  promptTokens: { max: 262_144, what: 'prompt tokens per request' },
  outputTokens: { max: 32_768, what: 'output tokens per request' },
  requestsPerLevel: { max: 20_000, what: 'measured requests per level' },
  warmupRequests: { max: 100, what: 'warm-up requests per level' },
  // A level bounded by time still holds at most requestsPerLevel measured requests: its streams share them.
  levelDurationS: { max: 3600, what: 'seconds one level bounded by time sends for (--duration)' },
  // A time as text is a few characters (60s, 2m, 1.5h): a longer one is refused before it is parsed.
  timeTextChars: { max: 32, what: 'characters of a time given as text (--duration, --ramp-up: 60s, 2m, 1h)' },
  rampUpS: { max: 3600, what: "seconds a level's closed loop takes to open all its streams (--ramp-up)" },
  requestBodyBytes: { max: 4 * MiB, what: 'bytes in one request body we send' },
  sseLineBytes: { max: 1 * MiB, what: 'bytes in one SSE line from a server' },
  sseEventBytes: { max: 1 * MiB, what: 'bytes in one SSE event from a server' },
  ndjsonLineBytes: { max: 1 * MiB, what: 'bytes in one NDJSON line from a server' },
  probeResponseBytes: { max: 8 * MiB, what: 'bytes in a probe response (/v1/models, /props, /metrics)' },
  // A gateway lists hundreds of models; each id is what a request names and a run records, so it is bounded where it is read.
  servedModels: { max: 10_000, what: 'models one server lists in /v1/models' },
  modelIdChars: { max: 1024, what: 'characters in one model id (or its parent) a server lists in /v1/models' },
  serverSettings: { max: 48, what: "settings kept from a server's report of its configuration (/props, /get_server_info, /info, /sim/config)" },
  errorBodyBytes: { max: 64 * 1024, what: 'bytes of an error body kept for its message' },
  apiBodyBytes: { max: 1 * MiB, what: 'bytes in one body sent to goodput serve' },
  // A sweep saving through serve sends each level with its raw records in one body: far above 1 MiB.
  apiIngestBodyBytes: { max: 256 * MiB, what: 'bytes in one level with its raw records sent to goodput serve' },
  // Result files carry every raw record: a full 64-level sweep at 20,000 requests per level stays far below this.
  inputFileBytes: { max: 512 * MiB, what: 'bytes in one result, receipt, score or evidence file we read' },
  // One request record: its chunk timings and tool-call arguments are bounded (RECORD_BOUNDS), far below this.
  recordLineBytes: { max: 16 * MiB, what: 'bytes in one line (one request record) of a raw records file' },
  // A run's stated start and end are inside its evidence; a start moved back alone (to drop a stale-rate limitation) stretches the run past this.
  runDays: { max: 7, what: "days from a run's start to its end" },
  sessionTurns: { max: 64, what: 'turns in one multi-turn session' },
  // A recorded coding agent runs hundreds of turns; a trace's turns together stay within requestsPerLevel.
  agentTurns: { max: 1024, what: 'turns in one agent session of a replayed trace' },
  // Every turn's context is counted in blocks (a perfect cache's hits are judged block by block): bounded over the whole trace.
  agentTraceBlocks: { max: 16_777_216, what: "blocks over every turn of an agent trace (each turn's prompt tokens / block tokens, rounded up)" },
  traceLineBytes: { max: 1 * MiB, what: 'bytes in one line of a replayed trace' },
  /** Under apiBodyBytes with room for JSON's escaping of the trace's quotes. */
  agentTraceTextBytes: { max: 384 * 1024, what: 'bytes of an agent trace sent in a start body (a file picked in the page)' },
  traceBlockTokens: { max: 65_536, what: 'prompt tokens per trace block (one Mooncake hash id)' },
  traceSpeed: { max: 1000, what: 'times the recorded speed of a replayed trace' },
  // Earliest to latest, whichever rows hold them: a row far before the first would sort to the front and push the rest years later.
  traceSpanDays: { max: 366, what: "days from a replayed trace's earliest request to its latest (a dataset's rows with --column timestamp= too)" },
  // A dataset is read whole (Parquet's footer is at its end); its rows past requestsPerLevel are not read.
  datasetFileBytes: { max: 512 * MiB, what: 'bytes in one dataset file (Parquet, JSONL, CSV or ShareGPT JSON)' },
  datasetFieldBytes: { max: 1 * MiB, what: 'bytes in one text field of a dataset row' },
  clientThreads: { max: 64, what: 'client threads sending one level' },
  workers: { max: 256, what: 'goodput worker processes one sweep is split over' },
  repeats: { max: 20, what: 'runs of one contract in one result (goodput run --repeats)' },
  // The spend guard's ceiling: a run estimated above it is refused unless --yes, whatever --max-spend says.
  providerPriceFileBytes: { max: 1 * MiB, what: 'bytes in a provider price table (--provider-prices)' },
  providerPrices: { max: 500, what: 'rows in a provider price table (--provider-prices)' },
  maxSpendUsd: { max: 100_000, what: 'USD a run against a priced provider may be estimated to spend (--max-spend)' },
  runSetSignatureBytes: { max: 8192, what: "characters of one run-set signature's payload (a signed repeat set's manifest or one run's statement)" },
  fleetTargets: { max: 64, what: 'targets one run routes its requests over (--url given more than once)' },
  prometheusSeries: { max: 100_000, what: "series in one answer of a Prometheus server's query API (--prometheus)" },
  specDecodePositions: {
    max: 64,
    what: 'draft positions of speculative decoding per verification step (vLLM --speculative-config num_speculative_tokens; goodput sim --spec-decode-positions)',
  },
  poolGpus: { max: 100_000, what: 'GPUs in one pool of a disaggregated server (--pool-gpus)' },
  kvLinkGbps: { max: 100_000, what: 'Gbit/s of the declared link between the prefill and decode pools (--kv-link-gbps)' },
  chunkTokens: { max: 256, what: 'tokens one stream chunk carries (a recorded chunk above it cannot have been streamed)' },
  streamTokS: { max: 20_000, what: 'tokens per second one stream decodes (a recorded stream faster than it cannot have been measured)' },
  encodeTokS: {
    max: 10_000_000,
    what: 'input tokens per second one embeddings or rerank request is encoded at (a recorded request faster than it cannot have been measured)',
  },
  tools: { max: 128, what: 'tools offered with one request' },
  toolDefinitionBytes: { max: 64 * 1024, what: 'bytes of one tool definition, its JSON schema included' },
  toolCallsPerResponse: { max: 32, what: 'tool calls read from one response' },
  toolArgumentBytes: { max: 256 * 1024, what: 'bytes of tool-call arguments kept from one response' },
  responseSchemaBytes: { max: 64 * 1024, what: 'bytes of the JSON schema a structured-output workload sends' },
  embeddingBatch: { max: 2048, what: 'inputs in one embeddings request' },
  rerankDocuments: { max: 1024, what: 'documents in one rerank request' },
  embeddingDimension: { max: 65_536, what: 'numbers in one embedding vector from a server' },
  routeChars: { max: 256, what: 'characters in a pooling route path (--route)' },
  // Embeddings come back whole and non-streamed: 2,048 vectors of 1,024 floats written as text is ~40 MiB.
  poolingResponseBytes: { max: 64 * MiB, what: 'bytes in one embeddings or rerank response from a server' },
  // A vision request carries its images inline; the request-body row still bounds their bytes together.
  imagesPerRequest: { max: 16, what: 'images in one chat request' },
  imageSide: { max: 4096, what: 'pixels on one side of a synthetic image' },
  imageSets: { max: 8, what: "image settings on a contract's workload matrix axis" },
  // 8 kHz 16-bit mono WAV: 120 s is 1.9 MB, 2.6 MB as base64, inside the request-body row.
  audioSeconds: { max: 120, what: 'seconds of synthetic audio in one chat request' },
  retryAttempts: { max: 10, what: 'retries of one request answered 429, 529 or 503 with Retry-After' },
  retryWaitS: { max: 600, what: 'seconds one request may wait for retries in all (and the longest Retry-After honoured)' },
  rateLimitRpm: { max: 10_000_000, what: 'requests per minute of a rate-limit budget' },
  rateLimitTpm: { max: 10_000_000_000, what: 'tokens per minute of a rate-limit budget' },
  rateLimitResetS: { max: 86_400, what: 'seconds until a rate limit resets, as a server states it' },
  cancelAfterMs: { max: 3_600_000, what: 'ms after its send a request is given up on purpose (--cancel-after-ms)' },
  qualityPrompts: { max: 256, what: "prompts in one quality score's per-prompt evidence" },
  qualityTopK: { max: 20, what: "top logprobs per prompt and side in a quality score's evidence (the largest top_logprobs asked for)" },
  qualityTokenChars: { max: 256, what: "characters of one token's text in a quality score's evidence" },
  qualityReferenceTokens: { max: 4096, what: "scored reference-text tokens per side in a quality score's evidence" },
  // Gateways and routers read a tenant, an affinity hint or a provider option: a handful, never a second request.
  extraHeaders: { max: 32, what: 'extra headers sent with every request (--header)' },
  headerNameChars: { max: 128, what: 'characters in the name of an extra header' },
  headerValueChars: { max: 4096, what: 'characters in the value of an extra header' },
  extraBodyBytes: { max: 64 * 1024, what: 'bytes of JSON merged into every request body (--extra-body)' },
  apiKeyFileBytes: { max: 16 * 1024, what: 'bytes in an API key file (--api-key-file)' },
  azureNameChars: { max: 256, what: 'characters in an Azure deployment name or api-version' },
  // Server hooks run between levels, never during one: each call is bounded in time, and what it answers is kept short.
  hookWaitS: { max: 600, what: 'seconds one server hook (a cache reset, the profiler) may take to answer' },
  hookAnswerChars: { max: 512, what: "characters of a server hook's answer kept in the level" },
  serverSlots: { max: 1024, what: 'slots of a llama.cpp server erased by one cache reset' },
  primeRequests: { max: 16, what: "requests that send a primed cell's shared prefix before each of its levels" },
  coldStartRuns: { max: 20, what: 'cold starts one goodput coldstart times' },
  coldStartWaitS: { max: 3600, what: 'seconds goodput coldstart waits for a started server to answer ready and stream its first token' },
  processStopS: { max: 30, what: 'seconds a started server process is given to exit after SIGTERM before it is killed' },
  commandArgs: { max: 256, what: 'arguments in a server command (goodput coldstart --cmd)' },
  // Spans wait between levels for their export: past this further spans are dropped, and counted, rather than memory growing with a slow collector.
  otlpQueueSpans: { max: 65_536, what: 'spans waiting to be exported over OTLP (--otlp); past it further spans are dropped and counted' },
  otlpBatchSpans: { max: 512, what: 'spans in one OTLP export request (--otlp)' },
  otlpResponseBytes: { max: 64 * 1024, what: "bytes of an OTLP collector's answer read (--otlp)" },
  metricsConnections: { max: 16, what: 'connections open at once to the live metrics endpoint (--serve-metrics)' },
  // Each adapter is one model id a request may name: a serving mix of dozens, never a catalogue to browse.
  loraAdapters: { max: 64, what: 'LoRA adapters one run sends to (--lora)' },
  loraNameChars: { max: 256, what: 'characters in the name of one LoRA adapter (--lora)' },
  loraWeight: { max: 1_000_000, what: 'weight of one LoRA adapter in --lora' },
} as const;

export type LimitName = keyof typeof LIMITS;

/**
 * Events and token-carrying chunks a stream may send, relative to the output cap:
 * a server that keeps streaming far past max_tokens is cut off, not buffered.
 */
export function maxEventsPerRequest(outputCap: number): number {
  return 4 * outputCap + 1024;
}
export function maxTokensPerRequest(outputCap: number): number {
  return 2 * outputCap + 1024;
}

/**
 * What one stored request record may hold, whoever wrote it (a file, a worker's
 * row, an imported run): each count follows from the limits above, so no reader
 * allocates per token or per chunk past what a real stream could have sent.
 * A stream cut off as an overrun is recorded one token past its limit.
 */
export const RECORD_BOUNDS = {
  /** Output, reasoning and per-chunk token counts, and their sum over a record's chunks. */
  tokens: maxTokensPerRequest(LIMITS.outputTokens.max) + 1,
  /** Token-carrying chunks in one record. */
  chunks: maxEventsPerRequest(LIMITS.outputTokens.max),
  /** Prompt tokens a server may report for one request (a session's context grows turn by turn). */
  promptTokens: LIMITS.promptTokens.max * LIMITS.sessionTurns.max,
  /** A record's sequence number within its level (warm-ups first; a session's turns each take one). */
  seq: (LIMITS.requestsPerLevel.max + LIMITS.warmupRequests.max) * LIMITS.sessionTurns.max,
  /** Records in one level (warm-ups included). */
  levelRecords: (LIMITS.requestsPerLevel.max + LIMITS.warmupRequests.max) * LIMITS.sessionTurns.max,
  /** Characters of a failure message, a finish reason, a system error code. */
  messageChars: 4096,
  finishReasonChars: 256,
  codeChars: 64,
  /** An instant is nanoseconds on a float64, exact to the nanosecond within this (~104 days). */
  instantNs: Number.MAX_SAFE_INTEGER,
} as const;

/** The refusal sentence for a value past its limit, naming the limit. */
export function limitMessage(name: LimitName, value: number, label: string = name): string {
  const l = LIMITS[name];
  return `${label} ${value} is above the limit of ${l.max} ${l.what}`;
}

/** At most this many levels in one run. */
export const MAX_LEVELS = LIMITS.levels.max;
/** The largest concurrency level the page and the API accept. */
export const MAX_CONCURRENCY = LIMITS.concurrency.max;
/** The longest output the page and the API accept, tokens. */
export const MAX_OUTPUT_TOKENS = LIMITS.outputTokens.max;
/** Below this output length per-request overhead hides real differences (a warning, not a refusal). */
export const SHORT_OUTPUT_TOKENS = 128;

/** Level values of a sweep or a contract, on the arrival kind's axis (streams, req/s or burst size). */
export const levelsSchema = z
  .array(z.number({ error: 'each level must be a number' }).positive('each level must be positive'))
  .min(1, 'give at least one level')
  .max(MAX_LEVELS, { error: (issue) => limitMessage('levels', Array.isArray(issue.input) ? issue.input.length : Number(issue.input), 'levels') });
