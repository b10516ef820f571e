/**
 * The JSON result (`--json`), versioned by `schemaVersion`. One zod schema is the
 * type, the validator for files read back (`goodput cards RESULT.json`) and the
 * reference the README documents. Statistics are named in the keys (p50, mean);
 * a statistic with no samples is null, never zero.
 */
import { adapterLevelsSchema } from './adapter-summary.js';
import { agentSummarySchema } from './agent-summary.js';
import { cancelledProblem, cancelledSummarySchema } from './cancel-summary.js';
import { z } from 'zod';
import { ratePacingSchema } from './rate-pacing.js';
import { arrivalSchema, levelLoadSchema } from './arrival-spec.js';
import { levelWindowSchema, loadShapeSchema } from './load-shape.js';
import { audioInputsSchema, imageFilesSchema, imageInputsSchema } from './image-inputs.js';
import { businessCostSchema } from './cost-success.js';
import { providerPriceSchema } from './provider-price.js';
import { providerCostSchema } from './provider-cost.js';
import { levelGoodputSchema } from './goodput.js';
import { inFlightSchema } from './in-flight.js';
import { rawRecordSchema } from './record-schema.js';
import { LIMITS, limitMessage } from './limits.js';
import { loraMixSchema } from './lora-mix.js';
import { sloSchema } from './slo.js';
import { sessionSummarySchema } from './session-summary.js';
import { structuredSummarySchema } from './structured-summary.js';
import { toolCallSummarySchema } from './tool-call-summary.js';
import { seriesPointSchema } from './replay-series-schema.js';
import { MAX_HOOK_CALLS, serverHookCallSchema } from './server-hooks.js';
import { serverAccountSchema } from './server-account-schema.js';
import { qualityScoreSchema } from './quality-score-schema.js';
import { disaggLevelSchema } from './disagg-schema.js';
import { fleetRunSchema, targetLevelsSchema } from './fleet.js';
import { energyLevelSchema, gpuLevelSchema, serverMetricsRunSchema, serverTruthSchema, specDecodeSchema } from './telemetry-schema.js';

export const SCHEMA_VERSION = 1;

const ms = z.number().nonnegative();
const nullable = <T extends z.ZodTypeAny>(t: T) => t.nullable();

export const failureKindSchema = z.enum([
  'http-error',
  'stream-error',
  'truncated',
  'timeout',
  'connection-error',
  'response-too-large',
  'stream-overrun',
  'aborted',
  'client-lost',
  'not-sent',
]);

export const clientBoundSchema = z.object({
  bound: z.boolean(),
  /** p99 of replacement sends' lag (send − the end of the request it replaced); the ramp is excluded. */
  /** Why, in words, when bound. */
  reason: z.string().nullable(),
  sendLagMs: z.object({ p50: ms, p99: ms, max: ms }).nullable(),
  loopDelayMs: z.object({ p50: ms, p99: ms, max: ms }).nullable(),
  /** The floor of the budgets (--client-budget-ms); results of earlier versions judged every lateness against it alone. */
  budgetMs: z.number().positive(),
  /**
   * The budgets the level was judged against, ms: each a share of what it distorts
   * (sends: TTFT p50; the event loop: TPOT p50), never below budgetMs. Absent in
   * results of earlier versions.
   */
  budgets: z.object({ sendMs: z.number().positive(), loopMs: z.number().positive() }).strict().optional(),
  /**
   * How busy our sending event loop was over the level's measured requests, % (its
   * event-loop utilisation; with client threads the busiest thread's). Results of
   * earlier versions hold the process's CPU over the whole level here.
   */
  clientCpuPct: z.number().nonnegative().nullable(),
  /** Time to put the level's first C requests on the wire, ms (judged through sendLatenessMs, which includes them). */
  rampMs: ms.nullable(),
  /**
   * Per request, its last byte written minus the instant it was meant to leave (its
   * slot freed, its schedule, or the level's start for the first C): p50/p99/max, ms.
   * Judged against the budget. Absent in results of earlier versions.
   */
  sendLatenessMs: z.object({ p50: ms, p99: ms, max: ms }).nullable().optional(),
});

/** GPU memory of a level, MiB: peak and mean of the samples, or why there is none (never a zero). */
export const gpuMemSchema = z.discriminatedUnion('available', [
  /** totalMiB is null when the source reports no total (an engine's own memory gauge). */
  z.object({
    available: z.literal(true),
    source: z.string(),
    gpu: z.string(),
    totalMiB: z.number().nullable(),
    peak: z.number(),
    mean: z.number(),
    samples: z.number().int(),
  }),
  z.object({ available: z.literal(false), source: z.literal('not available'), reason: z.string() }),
]);

export const levelResultSchema = z
  .object({
    concurrency: z.number().int().positive(),
    requests: z.number().int().nonnegative(),
    succeeded: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    failures: z.partialRecord(failureKindSchema, z.number().int()),
    /** First few distinct failure messages, for the reason shown beside an invalid level. */
    failureExamples: z.array(z.string()),
    invalid: z.boolean(),
    invalidReason: z.string().nullable(),
    /** Measured requests the workload gave up on purpose (--cancel-after-ms, --cancel-after-tokens): neither succeeded nor failed; absent when none. */
    cancelled: cancelledSummarySchema.optional(),
    /** Measured requests sent a second time after failing on a reused keep-alive socket before any response byte (absent in earlier results). */
    clientRetries: z.number().int().nonnegative().optional(),
    /** Measured requests sent again after a 429, 529 or 503 with Retry-After: requests, retries, the time waited and the statuses (absent when none). */
    retries: z
      .object({
        requests: z.number().int().nonnegative(),
        attempts: z.number().int().nonnegative(),
        waitMs: ms,
        statuses: z.record(z.string().regex(/^\d{3}$/), z.number().int().nonnegative()),
      })
      .optional(),
    /** What the provider's rate-limit headers said, the budget the sends were paced to, and whether the limit set the level's pace (absent when none of it). */
    rateLimit: z
      .object({
        headers: z
          .object({
            limitRequests: z.number().nonnegative().nullable(),
            remainingRequestsMin: z.number().nonnegative().nullable(),
            remainingRequestsLast: z.number().nonnegative().nullable(),
            resetRequestsMs: z.number().nonnegative().nullable(),
            limitTokens: z.number().nonnegative().nullable(),
            remainingTokensMin: z.number().nonnegative().nullable(),
            remainingTokensLast: z.number().nonnegative().nullable(),
            resetTokensMs: z.number().nonnegative().nullable(),
          })
          .nullable(),
        pace: z.object({ rpm: z.number().positive().nullable(), tpm: z.number().positive().nullable(), source: z.enum(['flag', 'headers']) }).nullable(),
        answered429: z.number().int().nonnegative(),
        limited: z.boolean(),
        reason: z.string().nullable(),
      })
      .optional(),
    warmupRequests: z.number().int().nonnegative(),
    durationMs: ms,
    outputTokensTotal: z.number().nonnegative(),
    throughputTokS: z.number().nonnegative(),
    steadyThroughputTokS: z.number().nonnegative().nullable(),
    steadyWindowMs: ms.nullable(),
    /**
     * What the client held: requests open at each measured send after the level's first (median, min),
     * beside the concurrency asked and their ratio; a closed loop below 95 % of it is marked. Recomputed
     * from the records' send and end instants wherever a result is verified. Absent in earlier results
     * and where no send followed the level's first ones.
     */
    inFlight: inFlightSchema.optional(),
    perRequestTokS: z.object({ mean: z.number() }).nullable(),
    ttftMs: nullable(z.object({ p50: ms, p95: ms, p99: ms })),
    /**
     * TTFT of the level's initial burst (the requests that all targeted its start:
     * C simultaneous sends in a closed loop) apart from the steady state after it.
     * Absent in results of earlier versions.
     */
    ttftSplitMs: z
      .object({
        burst: nullable(z.object({ p50: ms, p99: ms })),
        steady: nullable(z.object({ p50: ms, p99: ms })),
      })
      .optional(),
    /**
     * The clients a level was split over (client threads, worker processes), each
     * judged client-bound on its own; absent when one event loop sent it all.
     */
    shares: z
      .array(
        z.object({
          label: z.string(),
          requests: z.number().int().nonnegative(),
          bound: z.boolean(),
          reason: z.string().nullable(),
          clientCpuPct: z.number().nonnegative().nullable(),
          loopDelayMs: z.object({ p50: ms, p99: ms, max: ms }).nullable(),
          /** The share's own send lateness (see clientBound.sendLatenessMs); absent in results of earlier versions. */
          sendLatenessMs: z.object({ p50: ms, p99: ms, max: ms }).nullable().optional(),
          /** Added to the share's instants to put them on the level's clock, whole ns (0 for threads of one process). */
          clockOffsetNs: z.number().int(),
          /** A worker process: the database's clock minus its own at the level's start, and how well that is known, ms; null for threads. */
          clockToDb: z.object({ offsetMs: z.number(), uncertaintyMs: z.number().nonnegative() }).nullable(),
          /** Why this client never finished its share (a worker that stopped answering): its unfinished requests failed with this. */
          lost: z.string().nullable(),
        }),
      )
      .optional(),
    ttfaMs: nullable(z.object({ p50: ms, p95: ms })),
    tpotMs: nullable(z.object({ p50: ms, p95: ms })),
    itlMs: nullable(z.object({ p50: ms, p99: ms })),
    iclMs: nullable(z.object({ p50: ms, p99: ms })),
    tokensPerChunk: nullable(z.object({ mean: z.number() })),
    e2eMs: nullable(z.object({ p50: ms, p95: ms })),
    /**
     * Open-loop levels (rate, burst, trace, session rate): TTFT and e2e measured from
     * each request's scheduled send instead of its actual send — what a user due at
     * that moment waits. They exceed ttftMs/e2eMs by the schedule lag (load.scheduleLagMs).
     * Absent for closed loops and in earlier results.
     */
    fromSchedule: z
      .object({
        ttftMs: nullable(z.object({ p50: ms, p95: ms, p99: ms })),
        e2eMs: nullable(z.object({ p50: ms, p95: ms })),
      })
      .optional(),
    outputTokens: z.object({
      mean: z.number().nullable(),
      min: z.number().nullable(),
      max: z.number().nullable(),
      source: z.enum(['usage', 'tokenizer', 'chunks', 'mixed', 'none']),
      /** Requests that ended below the requested length although it was forced. */
      short: z.number().int(),
    }),
    reasoningTokens: z.object({ total: z.number(), source: z.enum(['usage', 'chunks', 'none']) }),
    promptTokens: z.object({
      /** Mean usage.prompt_tokens of successful requests: what the server counted. */
      mean: z.number().nullable(),
      /**
       * Tokens of each synthetic prompt as sent (the label); for a replayed trace or agent trace, the mean of its
       * requests' own lengths over the requests the server counted; null when not known (sessions, literal prompts). Absent in earlier results.
       */
      sent: z.number().positive().nullable().optional(),
      /** What the server added to each prompt (chat template, BOS, and the tool definitions, images and audio the requests carried: see serverAddedLabel): mean − sent, when `sent` was counted exactly; else null. Absent in earlier results. */
      templateTokens: z.number().nullable().optional(),
      /** How `sent` was counted (the tokenizer's label: exact, or approximate and why). Absent in earlier results. */
      countedBy: z.string().optional(),
    }),
    clientBound: clientBoundSchema,
    gpuMemMiB: gpuMemSchema,
    /** GPU utilisation, power and energy with their source; null when no GPU source was used (absent in earlier results). */
    gpu: gpuLevelSchema.nullable().optional(),
    /** Energy over the measured window, valid or not and why (absent in earlier results and without a GPU source). */
    energy: energyLevelSchema.optional(),
    /** The server's own view from its Prometheus endpoint, beside ours; null when it has none (absent in earlier results). */
    serverTruth: serverTruthSchema.nullable().optional(),
    /** A fleet run: the level per target (requests, failures, throughput over the level's window, TTFT and e2e), from its records (absent for one target and in earlier results). */
    targets: targetLevelsSchema.optional(),
    /** Speculative decoding over the level where the server reports it: acceptance length, rate and per position, beside our tokens-per-chunk estimate (absent in earlier results and for servers without it). */
    specDecode: specDecodeSchema.optional(),
    /** A disaggregated server's pools (`--metrics-url ROLE=URL`): figures per role, the KV moved between them and the TTFT split (absent in earlier results and without roles). */
    disagg: disaggLevelSchema.optional(),
    /** How the load was applied (absent in results of earlier versions: closed-loop concurrency). */
    load: levelLoadSchema.optional(),
    /** A level bounded by time (--duration), ramped or not: its window as sent and its counts (absent for a level of a request count). */
    window: levelWindowSchema.optional(),
    /** Mean prompt tokens the server reported as served from its prefix cache (usage.prompt_tokens_details.cached_tokens). */
    cachedPromptTokens: z.object({ mean: z.number().nullable() }).optional(),
    /** Multi-turn runs: figures per turn index and per session. */
    sessions: sessionSummarySchema.optional(),
    /** Agent traces: goodput per session and per job, sub-agent start lag, critical paths, theoretical vs reported prefix-cache hits. */
    agents: agentSummarySchema.optional(),
    /** Trace replays: arrivals, requests in flight, tok/s and SLO attainment over the level, in 60 buckets. */
    replaySeries: z.array(seriesPointSchema).optional(),
    /** Goodput against the run's SLOs; null when the run had none. */
    goodput: levelGoodputSchema.nullable().optional(),
    /** Requests sent with tools: parse and validity rates, time to first tool-call token, argument times (absent otherwise). */
    toolCalls: toolCallSummarySchema.optional(),
    /** Structured-output runs: the answers' validity against the schema and the latency cost against plain controls (absent otherwise). */
    structured: structuredSummarySchema.optional(),
    /** Chat with image inputs: how many images of what size each request carried (their tokens are in promptTokens.mean). Absent without images. */
    images: imageInputsSchema.optional(),
    /** Images by URL: the files goodput's image server offered the level (count, bytes, digest); absent otherwise and in earlier results. */
    imageFiles: imageFilesSchema.optional(),
    /** Chat with audio inputs: the clip each request carried (its tokens are in promptTokens.mean). Absent without audio. */
    audio: audioInputsSchema.optional(),
    /** The engine's admin routes called beside the level (a prefix-cache reset before it, the profiler around it): when and what each answered. Absent when none. */
    serverHooks: z.array(serverHookCallSchema).max(MAX_HOOK_CALLS).optional(),
    /** A run over several LoRA adapters (--lora): each adapter's requests, failures, throughput, TTFT and TPOT, by name; they add up to the level's. Absent otherwise. */
    adapters: adapterLevelsSchema.optional(),
  })
  .superRefine((l, ctx) => {
    const cancelled = cancelledProblem(l);
    if (cancelled !== null) ctx.addIssue({ code: 'custom', path: ['cancelled'], message: cancelled });
    if (l.toolCalls !== undefined && l.toolCalls.requests > l.succeeded) {
      ctx.addIssue({
        code: 'custom',
        path: ['toolCalls', 'requests'],
        message: `is ${l.toolCalls.requests}, more than the level's ${l.succeeded} successful requests`,
      });
    }
  });

export const warningSchema = z.object({ code: z.string(), message: z.string() });

const sha256Inline = z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 (64 lowercase hex digits)');

export const runSchema = z.object({
  url: z.string(),
  model: z.string(),
  /** sha256 of the server's `/v1/models` answer without call-time fields (client's serverFingerprint); null when it had no data array, absent in earlier results. */
  serverFingerprint: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'must be a sha256 (64 lowercase hex digits)')
    .nullable()
    .optional(),
  /** The engine the run spoke to; the optional fields are absent in results written before engine dialects. */
  engine: z
    .object({
      name: z.string(),
      version: z.string().nullable(),
      /** The dialect spoken (differs from `name` for Ollama's native API: `ollama-native`). */
      dialect: z.string().optional(),
      detection: z.enum(['detected', 'override']).optional(),
      /** What detection saw, e.g. `GET /props: build_info "b6500"`. */
      evidence: z.array(z.string()).optional(),
      /** Sampling values sent with every request besides temperature and seed, so engine defaults never differ. */
      sampling: z.record(z.string(), z.number()).optional(),
    })
    .nullable(),
  endpoint: z.enum(['chat', 'completions', 'responses', 'messages']),
  outputTokens: z.number().int().positive(),
  forceLength: z.boolean(),
  promptTokens: z.number().int().positive(),
  thinking: z.enum(['off', 'on']),
  temperature: z.number(),
  seed: z.number().int(),
  /** Level values on the arrival kind's axis: streams (concurrency), req/s (rate) or burst size. */
  levelsRequested: z.array(z.number().positive()),
  levelsOrder: z.array(z.number().positive()),
  arrival: arrivalSchema.optional(),
  /** Levels bounded by time (--duration) and the ramp opening their streams (--ramp-up, 0: none); absent for levels of a request count. */
  loadShape: loadShapeSchema.optional(),
  slo: sloSchema.nullable().optional(),
  /** A fixed count, or 'auto' = max(8, 4 × concurrency). */
  requestsPerLevel: z.union([z.number().int().positive(), z.literal('auto')]),
  warmupPerLevel: z.number().int().nonnegative(),
  hourlyCostUsd: z.number().nonnegative().nullable(),
  baselineRateUsdPer1M: z.number().positive().nullable(),
  /** The hosted provider's price row the run was sent at (`--provider-price`), dated and cited; absent for a self-hosted run and in earlier results. */
  providerPrice: providerPriceSchema.optional(),
  gpuLabel: z.string().nullable(),
  command: z.string(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  status: z.enum(['complete', 'stopped', 'server-failed']),
  stopReason: z.string().nullable(),
  toolVersion: z.string(),
  /** The tools offered with every request and the tool_choice; absent when none were. */
  tools: z
    .object({
      /** "built-in 64", or the file's name. */
      label: z.string(),
      count: z.number().int().positive(),
      /** auto, required, or the name of the tool every request must call. */
      choice: z.string(),
      /** sha256 of the tool definitions as sent (canonical JSON). */
      sha256: sha256Inline,
    })
    .optional(),
  /** The JSON schema every answer was asked to match, and the share of plain control requests; absent when none was. */
  responseSchema: z.object({ label: z.string(), name: z.string(), control: z.number(), sha256: sha256Inline }).optional(),
  /** What the server's metrics endpoint offered, found once at the start; null when scraping was off (absent in earlier results). */
  serverMetrics: serverMetricsRunSchema.nullable().optional(),
  /** A fleet run: every target (the first is `url`) and the routing policy; absent for one target and in earlier results. */
  fleet: fleetRunSchema.optional(),
  /** Extra headers sent with every request (--header), secret-looking values as `[redacted]`; absent when none were. */
  headers: z
    .array(z.object({ name: z.string().max(LIMITS.headerNameChars.max), value: z.string().max(LIMITS.headerValueChars.max) }).strict())
    .max(LIMITS.extraHeaders.max)
    .optional(),
  /** JSON merged into every request body (--extra-body), a value under a key named like a credential as `[redacted]`; absent when none was. */
  extraBody: z.record(z.string(), z.unknown()).optional(),
  /** The anthropic-version header a Messages API run sent; absent on other endpoints. */
  anthropicVersion: z.string().max(LIMITS.azureNameChars.max).optional(),
  /** The Azure OpenAI deployment and api-version the requests went to; absent for the /v1 routes. */
  azure: z
    .object({ deployment: z.string().max(LIMITS.azureNameChars.max), apiVersion: z.string().max(LIMITS.azureNameChars.max) })
    .strict()
    .optional(),
  /** Retries of answers 429, 529 or 503 with Retry-After: at most `retries` per request, waiting at most `maxWaitMs` in all (absent in earlier results). */
  retry: z.object({ retries: z.number().int().nonnegative(), maxWaitMs: z.number().nonnegative() }).strict().optional(),
  /** The rate limit the sends were paced to (--rate-limit); absent when not paced. */
  rateLimit: ratePacingSchema.optional(),
  /** The LoRA adapters each request chose its model from, by weight (--lora); absent when every request named the run's model. */
  lora: loraMixSchema.optional(),
  /** This run's place in its declared repeat set (goodput run --repeats N): index 1..N and the set's random id. */
  repeat: z
    .object({ index: z.number().int().positive(), of: z.number().int().positive(), set: z.string().regex(/^[0-9a-f]{16}$/) })
    .strict()
    .optional(),
});

export const modelCardSchema = z.union([
  z.object({
    available: z.literal(true),
    concurrency: z.literal(1),
    singleStreamTokS: z.number(),
    ttftMsP50: z.number(),
    tpotMsP50: z.number().nullable(),
    /** Why the concurrency-1 level's timing is not trusted (our client lagged); the figures are shown with it, never dropped. */
    clientBound: z.string().optional(),
  }),
  z.object({ available: z.literal(false), reason: z.string() }),
]);

export const engineCardSchema = z.object({
  peakThroughputTokS: z.number().nullable(),
  peakConcurrency: z.number().nullable(),
  /** Open loops only: the levels' axis ("Speed", "Rate (req/s)") and the peak's level on it ("speed 2×"); `peakConcurrency` is then its peak in flight. */
  axis: z.string().optional(),
  peakAt: z.string().nullable().optional(),
  curve: z.array(
    z.object({
      concurrency: z.number(),
      /** Open loops only: the level's value on its axis ("2×"). */
      level: z.string().optional(),
      throughputTokS: z.number(),
      perRequestTokS: z.number().nullable(),
      invalid: z.boolean(),
      clientBound: z.boolean(),
    }),
  ),
  /** Levels left out of the peak, each with why. */
  excluded: z.array(z.object({ concurrency: z.number(), level: z.string().optional(), reason: z.string() })),
  /** Why the peak is not a saturation point (the highest level tested gives it and the curve still rose), or null. Absent in earlier results. */
  notSaturated: z.string().nullable().optional(),
});

export const platformCardSchema = z.object({
  gpu: z.string().nullable(),
  gpuMemMiBPeak: z.number().nullable(),
  gpuMemMiBTotal: z.number().nullable(),
  gpuMemSource: z.string(),
  hourlyCostUsd: z.number().nullable(),
  costPer1MOutputTokensUsd: z.number().nullable(),
  baselineRateUsdPer1M: z.number().nullable(),
  savingPct: z.number().nullable(),
  basis: z.string(),
});

export const cardsSchema = z.object({ model: modelCardSchema, engine: engineCardSchema, platform: platformCardSchema });

/** One cell of a workload matrix: its coordinates and its own sweep. */
export const cellKeySchema = z.object({
  /** "synthetic 512 tokens" or "corpus prompts.jsonl". */
  prompt: z.string(),
  /** Exact prompt length of synthetic prompts, tokens; null for corpora. */
  promptTokens: z.number().int().positive().nullable(),
  /** Output cap, tokens; null when each corpus prompt carries its own. */
  outputTokens: z.number().int().positive().nullable(),
  /** `primed`: warm, and the shared prefix was sent before each level on purpose (the calls are on the level's serverHooks). */
  cache: z.enum(['cold', 'warm', 'primed']),
  /** Tokens of the shared prefix before each request's unique part (0 when cold). */
  sharedPrefixTokens: z.number().int().nonnegative(),
  /** The images every request of the cell carried, in words ("2 images of 512×512 PNG per request"); absent without images. */
  images: z.string().max(200).optional(),
});

/** A result's levels, bounded by the limits table like the levels a sweep is given (a file with 5,000 is refused). */
const boundedLevels = z
  .array(levelResultSchema)
  .max(LIMITS.levels.max, { error: (i) => limitMessage('levels', Array.isArray(i.input) ? i.input.length : Number(i.input), 'levels') });

export const matrixCellSchema = z.object({
  index: z.number().int().nonnegative(),
  key: cellKeySchema,
  status: z.enum(['complete', 'stopped', 'server-failed']),
  levels: boundedLevels,
  cards: cardsSchema,
});

export const matrixSchema = z.object({
  /** The order the cells ran in, in words. */
  order: z.string(),
  cells: z.array(matrixCellSchema),
  /** The whole matrix as one table: one row per cell and level. */
  table: z.object({ columns: z.array(z.string()), rows: z.array(z.array(z.union([z.string(), z.number(), z.null()]))) }),
});

/** Where prompt lengths were counted: a tokenizer file, the server's /tokenize, or the labelled approximation. */
export const tokenizerInfoSchema = z.object({
  kind: z.enum(['file', 'server', 'approximate']),
  exact: z.boolean(),
  label: z.string(),
  sha256: z.string().nullable(),
});

/** What the server reported about itself, and each declared contract field checked against it. */
export const serverReportSchema = z.object({
  engineVersion: z.string().nullable(),
  engineVersionSource: z.string().nullable(),
  checks: z.array(
    z.object({
      field: z.string(),
      declared: z.string().nullable(),
      reported: z.string().nullable(),
      source: z.string().nullable(),
      status: z.enum(['match', 'not-reported']),
    }),
  ),
});

const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 (64 lowercase hex digits)');

/**
 * The raw per-request records a result was computed from (warm-ups included,
 * each with its matrix cell), and sha256 of their canonical JSON: the evidence
 * a receipt recomputes every level from. Absent in results that did not keep them.
 */
const evidenceFields = {
  records: z.array(rawRecordSchema).optional(),
  recordsSha256: sha256Schema.optional(),
};

/** What one run of a result holds, the top one or a repeat: its run facts, warnings, levels, cards and records. */
const runFields = { run: runSchema, warnings: z.array(warningSchema), levels: boundedLevels, cards: cardsSchema, ...evidenceFields };

/** One more run of the same contract (`goodput run --repeats N`): its own run facts, levels, cards and records. */
export const repeatRunSchema = z.object(runFields);

/** A DSSE envelope as a signed repeat set carries it: one signature over a small statement. */
const runSetEnvelopeSchema = z
  .object({
    payloadType: z.string().max(200),
    payload: z.string().max(LIMITS.runSetSignatureBytes.max),
    signatures: z
      .array(z.object({ keyid: z.string().max(200), sig: z.string().max(200) }).strict())
      .min(1)
      .max(1),
  })
  .strict();

/**
 * A signed repeat set (goodput run --repeats N with a signing key): the set's
 * manifest, signed before the first run, and one signature per run, in run
 * order, over its place in the set and the manifest's hash. Absent for
 * unsigned sets, single runs and results written before sets were signed.
 */
export const runSetSchema = z.object({ manifest: runSetEnvelopeSchema, runs: z.array(runSetEnvelopeSchema).max(LIMITS.repeats.max) }).strict();

export const sweepResultSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  ...runFields,
  /** Runs 2..N of `goodput run --repeats N` (the top level is run 1); absent for a single run. */
  repeats: z.array(repeatRunSchema).max(LIMITS.repeats.max).optional(),
  runSet: runSetSchema.optional(),
  /** The resolved contract (goodput run); validated by the contract schema when rerun. */
  contract: z.record(z.string(), z.unknown()).nullable().optional(),
  /** sha256 of the canonical contract without its server URL. */
  contractHash: z.string().nullable().optional(),
  tokenizer: tokenizerInfoSchema.optional(),
  serverReport: serverReportSchema.optional(),
  serverAccount: serverAccountSchema.optional(),
  /** The machine that ran the client, in words (OS, CPU, memory, Node; never its name); absent in results written before it was recorded. */
  clientMachine: z.string().max(200).optional(),
  /** The quality score measured in this same invocation against the baseline's server (goodput run --quality-baseline), with its raw evidence. */
  quality: qualityScoreSchema.optional(),
  matrix: matrixSchema.optional(),
  businessCost: businessCostSchema.optional(),
  /** A provider run's cost per successful 1M output tokens at its recorded price row; absent for a self-hosted run and in earlier results. */
  providerCost: providerCostSchema.optional(),
});

export type FailureKind = z.infer<typeof failureKindSchema>;
export type ClientBound = z.infer<typeof clientBoundSchema>;
export type GpuMem = z.infer<typeof gpuMemSchema>;
export type LevelResult = z.infer<typeof levelResultSchema>;
export type RunInfo = z.infer<typeof runSchema>;
export type Warning = z.infer<typeof warningSchema>;
export type Cards = z.infer<typeof cardsSchema>;
export type ModelCard = z.infer<typeof modelCardSchema>;
export type EngineCard = z.infer<typeof engineCardSchema>;
export type PlatformCard = z.infer<typeof platformCardSchema>;
export type SweepResult = z.infer<typeof sweepResultSchema>;
export type RepeatRun = z.infer<typeof repeatRunSchema>;
export type RunSet = z.infer<typeof runSetSchema>;
export type CellKey = z.infer<typeof cellKeySchema>;
export type MatrixCell = z.infer<typeof matrixCellSchema>;
export type Matrix = z.infer<typeof matrixSchema>;
export type TokenizerInfo = z.infer<typeof tokenizerInfoSchema>;
export type ServerReport = z.infer<typeof serverReportSchema>;
export { serverAccountSchema, type ServerAccount, type ServerConfiguration, type ServerSetting } from './server-account-schema.js';
