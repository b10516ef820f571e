/**
 * What a sweep is asked to do: one zod schema for the CLI, the API and tests,
 * yielding the type, the defaults and the messages that name the bad field.
 */
import { z } from 'zod';
import {
  DEFAULT_CLIENT_BUDGET_MS,
  DEFAULT_RETRY,
  ratePacingSchema,
  LIMITS,
  arrivalSchema,
  numericDefault,
  audioInputsSchema,
  disaggSpecSchema,
  extraBodySchema,
  extraHeadersSchema,
  imageBaseUrlSchema,
  imageInputsSchema,
  levelsSchema,
  limitedCount,
  limitedInt,
  limitMessage,
  loraMixSchema,
  loadShapeProblem,
  providerPriceSchema,
  responseSchemaSpecSchema,
  sloSchema,
  toolsSpecSchema,
  urlCredentialProblem,
  ROUTE_POLICIES,
} from '../core/index.js';
import { agentTurnsOf, arrivalOps, promptSourceSchema, turnsOf } from '../workload/index.js';
import { cancelSpecSchema } from './cancel-point.js';
import { GPU_SOURCE_CHOICES } from '../telemetry/index.js';
import { ENGINE_CHOICES, type EngineChoice, MIN_THINKING_BUDGET, type Target, isLoopback, serverRoot } from '../client/index.js';

/** The Messages API version sent unless told otherwise (the one Anthropic's documentation sends). */
export const ANTHROPIC_VERSION = '2023-06-01';

/** A name sent in a path or a header (an Azure deployment, an API version): printable, no slash, bounded. */
const limitedName = (what: string) =>
  z
    .string()
    .min(1, `${what} must not be empty`)
    .max(LIMITS.azureNameChars.max, { error: (i) => limitMessage('azureNameChars', String(i.input).length, what) })
    .regex(/^[\x21-\x7e]+$/, `${what} must be visible ASCII characters without spaces`)
    .refine((v) => !v.includes('/') && !v.includes('?') && !v.includes('#'), `${what} must not hold / ? or #`);

/** What every kind's spec opens with: the server, its key (never printed, stored or logged) and the model (the first one the server lists when omitted). */
export const serverFields = {
  url: z
    .url({ protocol: /^https?$/, error: 'url must be an http(s) URL, e.g. http://127.0.0.1:8000' })
    .refine((u) => urlCredentialProblem(u) === null, { error: (i) => `url ${urlCredentialProblem(String(i.input))}` }),
  apiKey: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
};

/** How many requests every kind's level sends: the measured ones ('auto' = the axis' own count; concurrency: max(8, 4 × C)) after its warm-ups. */
export const countFields = {
  requestsPerLevel: z.union([limitedInt('requestsPerLevel', 'requests per level'), z.literal('auto')]).default('auto'),
  warmup: limitedCount('warmupRequests', 'warm-up').default(numericDefault('warmup')),
};

/** Concurrency levels (requests in flight) of a kind that sends closed loops alone. */
export const concurrencyLevels = levelsSchema
  .refine((l) => l.every((c) => Number.isInteger(c)), 'each level must be a whole number of requests in flight')
  .refine((l) => l.every((c) => c <= LIMITS.concurrency.max), { error: (i) => limitMessage('concurrency', Math.max(...(i.input as number[])), 'level') });

/** Measured requests of a closed-loop level: the fixed count, or max(8, 4 × concurrency). */
export const closedLoopRequests = (spec: { requestsPerLevel: number | 'auto' }, concurrency: number): number =>
  spec.requestsPerLevel === 'auto' ? Math.max(8, 4 * concurrency) : spec.requestsPerLevel;

/** What a provider's API cannot take: an Azure deployment off chat and completions, thinking without room for its budget. */
function providerIssues(
  spec: { endpoint: string; thinking: boolean; outputTokens: number; azure: object | null },
  ctx: { addIssue(issue: { code: 'custom'; path: string[]; message: string }): void },
): void {
  // Extended thinking takes a budget of at least 1024 tokens, below max_tokens: a smaller cap is Anthropic's 400 on every request.
  if (spec.endpoint === 'messages' && spec.thinking && spec.outputTokens <= MIN_THINKING_BUDGET)
    ctx.addIssue({
      code: 'custom',
      path: ['outputTokens'],
      message: `extended thinking on the Messages API takes a budget of at least ${MIN_THINKING_BUDGET} tokens below max_tokens: output tokens must be above ${MIN_THINKING_BUDGET} with thinking on`,
    });
  if (spec.azure !== null && spec.endpoint !== 'chat' && spec.endpoint !== 'completions')
    ctx.addIssue({ code: 'custom', path: ['azure'], message: `an Azure deployment serves chat and completions here, not ${spec.endpoint}` });
}

/** Retries of answers 429, 529 or 503 with Retry-After (retries: 0 turns them off), a text or pooling sweep's; docs/rate-limits.md. */
export const retrySpec = z
  .object({
    retries: limitedCount('retryAttempts', 'retries').default(DEFAULT_RETRY.retries),
    maxWaitMs: z
      .number()
      .nonnegative('retry maxWaitMs must be 0 or more')
      .max(LIMITS.retryWaitS.max * 1000, { error: (i) => limitMessage('retryWaitS', Number(i.input) / 1000, 'retry wait (s)') })
      .default(DEFAULT_RETRY.maxWaitMs),
  })
  .prefault({});

export const sweepSpecSchema = z
  .object({
    ...serverFields,
    /** chat, completions, or responses (the OpenAI Responses API; sessions continue with previous_response_id). */
    endpoint: z.enum(['chat', 'completions', 'responses', 'messages']).default('chat'),
    /** The engine's dialect, or 'auto' to detect it from cheap GETs (README: Engines). */
    engine: z.enum(ENGINE_CHOICES as [EngineChoice, ...EngineChoice[]], { error: `engine must be one of ${ENGINE_CHOICES.join(', ')}` }).default('auto'),
    /**
     * 'cold' (default): every request keeps the prefix cache cold where the engine has a switch
     * (cache_salt, llama.cpp cache_prompt: false) besides its unique prompt, and a cache hit is warned about.
     * 'warm': no cache control is sent (prompts that share a prefix on purpose).
     */
    cache: z.enum(['cold', 'warm'], { error: 'cache must be cold or warm' }).default('cold'),
    /** Level values on the arrival kind's axis: streams (concurrency), req/s (rate) or burst size (burst). */
    levels: levelsSchema,
    /** How requests arrive; closed-loop concurrency by default. */
    arrival: arrivalSchema.default({ kind: 'concurrency' }),
    /** Where prompts come from; synthetic words by default. */
    prompts: promptSourceSchema.default({ kind: 'synthetic' }),
    /**
     * How synthetic prompts are counted: 'auto' (the server's tokenize route, else
     * words labelled approximate), a local tokenizer.json, or words on purpose.
     */
    tokenizer: z
      .discriminatedUnion(
        'kind',
        [
          z.object({ kind: z.literal('auto') }).strict(),
          z.object({ kind: z.literal('approximate') }).strict(),
          z.object({ kind: z.literal('file'), path: z.string().min(1) }).strict(),
        ],
        { error: (iss) => (iss.code === 'invalid_union' ? 'tokenizer kind must be auto, approximate or file' : undefined) },
      )
      .default({ kind: 'auto' }),
    /** Tools offered with every chat request and the tool_choice; each answer's calls are judged (docs/agents.md). */
    tools: toolsSpecSchema.nullable().default(null),
    /** A JSON schema every chat answer must match, with the share of plain control requests (docs/agents.md). */
    responseSchema: responseSchemaSpecSchema.nullable().default(null),
    /** Chat only: synthetic images (drawn from the seed) sent with every request's user message. */
    images: imageInputsSchema.nullable().default(null),
    /** Images by URL: the address the server reaches goodput's image server at (it listens there); null = 127.0.0.1 on a free port, for a server on this machine. */
    imageBaseUrl: imageBaseUrlSchema.nullable().default(null),
    /** Seed of the images and audio clips when not `seed` (a contract's cells each draw their own, so an engine's image cache cannot serve one cell from another). */
    mediaSeed: z.number().int().nullable().default(null),
    /** Chat only: a synthetic WAV clip (drawn from the seed) sent with every request's user message. */
    audio: audioInputsSchema.nullable().default(null),
    /** LoRA adapters each request names one of as its model, chosen by weight from the seed (see core/lora-mix.ts); null: every request names `model`. */
    lora: loraMixSchema.nullable().default(null),
    /** Latency objectives; each level then reports its goodput. */
    slo: sloSchema.nullable().default(null),
    outputTokens: limitedInt('outputTokens', 'output tokens').default(numericDefault('outputTokens')),
    promptTokens: limitedInt('promptTokens', 'prompt tokens').default(numericDefault('promptTokens')),
    ...countFields,
    /** A level bounded by time: its streams send for this many seconds instead of a request count (a closed loop); null: a count. */
    durationS: seconds('levelDurationS', 'durationS'),
    /** Seconds over which a timed level opens its streams, evenly; their requests are marked `ramp` and kept out of every number. Null: all at once. */
    rampUpS: seconds('rampUpS', 'rampUpS'),
    thinking: z.boolean().default(false),
    forceLength: z.boolean().default(true),
    temperature: z.number().nonnegative().default(numericDefault('temperature')),
    /** Nucleus sampling, sent as top_p when set. */
    topP: z.number().gt(0, 'top_p must be above 0').lte(1, 'top_p must be at most 1').nullable().default(null),
    seed: z.number().int().default(numericDefault('seed')),
    hourlyCostUsd: z.number().nonnegative('hourly cost must not be negative').nullable().default(null),
    baselineRateUsdPer1M: z.number().positive('baseline rate must be positive').nullable().default(null),
    /** A hosted provider's price row the run is sent at, recorded in the result (`--provider-price`). */
    providerPrice: providerPriceSchema.nullable().default(null),
    gpuLabel: z.string().min(1).nullable().default(null),
    clientBudgetMs: z.number().positive().default(DEFAULT_CLIENT_BUDGET_MS),
    /**
     * Client threads a level is split over, each with its own event loop and sockets
     * ('auto': the machine's cores); never more than the level has streams.
     */
    clientThreads: z.union([limitedInt('clientThreads', 'client threads'), z.literal('auto')]).default('auto'),
    /** Per-request limits, ms. */
    timeouts: z
      .object({
        connectMs: z.number().positive().default(10_000),
        headersMs: z.number().positive().default(120_000),
        idleMs: z.number().positive().default(60_000),
        totalMs: z.number().positive().default(600_000),
      })
      .prefault({}),
    /** Retries of answers 429, 529 or 503 with Retry-After (retries: 0 turns them off); docs/rate-limits.md. */
    retry: retrySpec,
    /** Sends paced to a provider's rate limit (a budget, or its headers' limits); null: not paced. One client thread sends it. */
    rateLimit: ratePacingSchema.nullable().default(null),
    /** The command line that started the sweep, recorded in the result. */
    command: z.string().default(''),
    /** Sent with every request (a gateway's tenant, an affinity hint); secret-looking values are redacted wherever they are written. */
    headers: extraHeadersSchema.default([]),
    /** Merged into every request body as given (a provider's option, a router's priority). */
    extraBody: extraBodySchema.nullable().default(null),
    /** An Azure OpenAI deployment: requests go to its path with the api-key header; null: the /v1 routes. */
    azure: z
      .object({ deployment: limitedName('Azure deployment'), apiVersion: limitedName('Azure api-version') })
      .strict()
      .nullable()
      .default(null),
    /** The anthropic-version header of the Messages API. */
    anthropicVersion: limitedName('anthropic-version').default(ANTHROPIC_VERSION),
    /** Scrape the server's Prometheus endpoint around each level (the server's own view beside ours). */
    serverMetrics: z.boolean().default(true),
    /** Requests given up on purpose (their sockets closed at a time or a token count), recorded as `cancelled`; null: every request read to its end. */
    cancel: cancelSpecSchema.nullable().default(null),
    /** Send a W3C traceparent with every request, its ids kept on the record (a request joins the server's traces). */
    traceparent: z.boolean().default(true),
    /** The metrics URL; null: probe /prometheus/metrics then /metrics under the server's root. */
    metricsUrl: z
      .url({ protocol: /^https?$/, error: 'metricsUrl must be an http(s) URL' })
      .nullable()
      .default(null),
    /** A disaggregated server's pools, each scraped around every level as the server's endpoint is; null: none. */
    disagg: disaggSpecSchema.nullable().default(null),
    /**
     * A fleet (`--url` given more than once): every target, the first being `url`, and how each request picks
     * one; null: `url` alone. Preflight and the server checks ask every target; records name theirs by index.
     */
    fleet: z
      .object({
        urls: z
          .array(serverFields.url)
          .min(2, 'fleet.urls must list at least two targets')
          .max(LIMITS.fleetTargets.max, { error: (i) => limitMessage('fleetTargets', (i.input as unknown[]).length, 'fleet.urls') }),
        route: z.enum(ROUTE_POLICIES, { error: `fleet.route must be one of ${ROUTE_POLICIES.join(', ')}` }).default('round-robin'),
      })
      .strict()
      .nullable()
      .default(null),
    /** The server's counters from a Prometheus server's query API (summed over the series `selector` picks) instead of its own endpoint; null: scrape the server. */
    prometheus: z
      .object({
        url: z.url({ protocol: /^https?$/, error: 'prometheus.url must be an http(s) URL' }),
        selector: z
          .string()
          .max(1024)
          .regex(/^\{.*\}$/s, 'prometheus.selector must be label matchers in braces, e.g. {job="vllm"}'),
      })
      .strict()
      .nullable()
      .default(null),
    /** How often gauges (running, waiting, KV-cache usage) are scraped during a level, ms. */
    metricsIntervalMs: z.number().int().min(100, 'metricsIntervalMs must be at least 100').default(1000),
    /** Where GPU readings come from. */
    gpuSource: z.enum(GPU_SOURCE_CHOICES, { error: `gpuSource must be one of ${GPU_SOURCE_CHOICES.join(', ')}` }).default('auto'),
    /** A DCGM exporter's metrics URL (e.g. http://gpu-host:9400/metrics). */
    dcgmUrl: z
      .url({ protocol: /^https?$/, error: 'dcgmUrl must be an http(s) URL' })
      .nullable()
      .default(null),
    /**
     * The engine's admin routes called between levels: its prefix cache emptied before every level, or before
     * the first (a contract cell's), and its profiler started before the level of `profileLevel` and stopped after it;
     * and a primed cell's prefix sent before each level.
     */
    serverHooks: z
      .object({
        resetCache: z.enum(['every-level', 'first-level'], { error: 'resetCache must be every-level or first-level' }).nullable().default(null),
        profileLevel: z.number().positive('profileLevel must be a level').nullable().default(null),
        /** A primed contract cell's shared prefix, sent `times` times before each level (after a reset) so the level starts on it cached. */
        prime: z
          .object({
            prefix: z.string().min(1, 'prime.prefix must not be empty').max(LIMITS.requestBodyBytes.max, 'prime.prefix is longer than one request body may be'),
            times: limitedInt('primeRequests', 'prime.times'),
          })
          .strict()
          .nullable()
          .default(null),
      })
      .strict()
      .prefault({}),
  })
  .superRefine((spec, ctx) => {
    const ops = arrivalOps(spec.arrival);
    if (spec.disagg !== null && !spec.serverMetrics)
      ctx.addIssue({ code: 'custom', path: ['disagg'], message: "the pools' metrics endpoints are scraped only with serverMetrics on" });
    if (spec.prompts.kind === 'sessions') {
      if (spec.endpoint === 'completions')
        ctx.addIssue({ code: 'custom', path: ['endpoint'], message: 'sessions are conversations: they need the chat or responses endpoint' });
      if (spec.arrival.kind !== 'concurrency' && spec.arrival.kind !== 'rate')
        ctx.addIssue({ code: 'custom', path: ['arrival', 'kind'], message: 'sessions start at a session concurrency or a session rate' });
      if (spec.warmup !== 0) ctx.addIssue({ code: 'custom', path: ['warmup'], message: 'sessions run no warm-ups' });
    }
    if (spec.prompts.kind === 'agents') {
      if (spec.arrival.kind !== 'trace')
        ctx.addIssue({ code: 'custom', path: ['arrival', 'kind'], message: 'an agent trace starts its roots at their recorded times: arrival kind trace' });
      else if (spec.arrival.maxConcurrency !== null)
        ctx.addIssue({ code: 'custom', path: ['arrival', 'maxConcurrency'], message: 'an agent trace follows its own graph: no concurrency cap' });
      if (spec.warmup !== 0) ctx.addIssue({ code: 'custom', path: ['warmup'], message: 'an agent trace runs no warm-ups' });
    }
    if (spec.tools !== null) {
      if (spec.endpoint === 'completions' || spec.endpoint === 'messages')
        ctx.addIssue({ code: 'custom', path: ['tools'], message: 'tools need the chat or responses endpoint' });
      // A forced length (ignore_eos, min_tokens) would make the model write on past its call.
      if (spec.forceLength)
        ctx.addIssue({ code: 'custom', path: ['forceLength'], message: 'a request with tools ends when its call is complete: forceLength must be false' });
    }
    if (spec.responseSchema !== null) {
      if (spec.endpoint === 'completions' || spec.endpoint === 'messages')
        ctx.addIssue({ code: 'custom', path: ['responseSchema'], message: 'a JSON schema for the answer needs the chat or responses endpoint' });
      if (spec.forceLength)
        ctx.addIssue({
          code: 'custom',
          path: ['forceLength'],
          message: 'an answer to a JSON schema ends when its JSON is complete: forceLength must be false',
        });
      if (spec.prompts.kind === 'sessions') ctx.addIssue({ code: 'custom', path: ['responseSchema'], message: 'sessions carry text answers turn to turn' });
    }
    imageIssues(spec, ctx);
    if (spec.imageBaseUrl !== null && spec.images?.delivery !== 'url')
      ctx.addIssue({ code: 'custom', path: ['imageBaseUrl'], message: 'an image server address applies to images by URL (delivery url) alone' });
    if (spec.audio !== null) {
      if (spec.endpoint !== 'chat' && spec.endpoint !== 'responses')
        ctx.addIssue({
          code: 'custom',
          path: ['audio'],
          message: `audio is sent in chat messages: it needs the chat or responses endpoint, not ${spec.endpoint}`,
        });
      if (spec.prompts.kind === 'sessions' || spec.prompts.kind === 'agents')
        ctx.addIssue({ code: 'custom', path: ['audio'], message: `audio is sent with single requests, not with ${spec.prompts.kind}` });
    }
    fleetIssues(spec, ctx);
    providerIssues(spec, ctx);
    if (spec.slo?.toolCallValid === true && spec.tools === null)
      ctx.addIssue({ code: 'custom', path: ['slo', 'toolCallValid'], message: 'the toolCallValid SLO needs tools' });
    // Trace prompts are matched to the trace's send offsets by position: a warm-up would shift every one.
    if (spec.prompts.kind === 'trace' && spec.warmup !== 0)
      ctx.addIssue({ code: 'custom', path: ['warmup'], message: 'a trace replay runs no warm-ups (they would shift its recorded schedule)' });
    cancelIssue(spec, ctx);
    profiledLevelIssue(spec, ctx);
    loadShapeIssues(spec, ctx);
    spec.levels.forEach((level, i) => {
      const problem = ops.checkLevel(level);
      if (problem) ctx.addIssue({ code: 'custom', path: ['levels', i], message: `${problem} (arrival ${spec.arrival.kind})` });
    });
  });

export type SweepSpecInput = z.input<typeof sweepSpecSchema>;

/**
 * The first target of `urls` that names a server an earlier one names, or null. A server written two ways (with
 * its /v1, a default port, the host in capitals) is one target: as two, its rows would split its figures in two.
 */
export function sameTargetProblem(urls: readonly string[]): { at: number; message: string } | null {
  const roots = urls.map((u) => serverRoot(u));
  for (const [i, root] of roots.entries()) {
    const first = roots.indexOf(root);
    if (first === i) continue;
    const u = urls[i] as string;
    return { at: i, message: urls[first] === u ? `${u} is given twice` : `${u} is ${urls[first] as string} again, written another way` };
  }
  return null;
}

/** A fleet's first target is `url`; session routing needs sessions; its counters come from the targets or a Prometheus server, never one --metrics-url. */
function fleetIssues(
  spec: {
    url: string;
    fleet: { urls: string[]; route: string } | null;
    prompts: { kind: string };
    metricsUrl: string | null;
    prometheus: unknown;
    serverHooks: { resetCache: string | null; profileLevel: number | null };
  },
  ctx: z.RefinementCtx,
): void {
  if (spec.prometheus !== null && spec.metricsUrl !== null)
    ctx.addIssue({ code: 'custom', path: ['prometheus'], message: 'the counters come from a Prometheus server or from metricsUrl, not both' });
  const { fleet } = spec;
  if (fleet === null) return;
  if (fleet.urls[0] !== spec.url) ctx.addIssue({ code: 'custom', path: ['fleet', 'urls', 0], message: 'the first target must be url' });
  const problem = sameTargetProblem(fleet.urls);
  if (problem !== null) ctx.addIssue({ code: 'custom', path: ['fleet', 'urls', problem.at], message: `${problem.message}; each target once` });
  if (fleet.route === 'session' && spec.prompts.kind !== 'sessions' && spec.prompts.kind !== 'agents')
    ctx.addIssue({ code: 'custom', path: ['fleet', 'route'], message: 'session routing keeps a session on one target: it needs sessions or an agent trace' });
  if (spec.serverHooks.resetCache !== null || spec.serverHooks.profileLevel !== null)
    ctx.addIssue({ code: 'custom', path: ['serverHooks'], message: "server hooks call one server's admin routes: a fleet run takes none" });
  if (spec.metricsUrl !== null && spec.prometheus === null)
    ctx.addIssue({
      code: 'custom',
      path: ['metricsUrl'],
      message: "one metrics URL cannot speak for a fleet: each target's own endpoint is scraped, or give a Prometheus server (prometheus)",
    });
}

/** Images go in chat messages, one request at a time; by URL, every target must reach goodput's image server. */
function imageIssues(
  spec: {
    images: { delivery: string } | null;
    endpoint: string;
    url: string;
    fleet: { urls: string[] } | null;
    imageBaseUrl: string | null;
    prompts: { kind: string };
  },
  ctx: z.RefinementCtx,
): void {
  if (spec.images === null) return;
  if (spec.endpoint !== 'chat' && spec.endpoint !== 'responses')
    ctx.addIssue({
      code: 'custom',
      path: ['images'],
      message: `images are sent in chat messages: they need the chat or responses endpoint, not ${spec.endpoint}`,
    });
  // Every target of a fleet fetches the images: the first one off this machine is named.
  const remote = (spec.fleet?.urls ?? [spec.url]).find((u) => !isLoopback(new URL(u).hostname));
  if (spec.images.delivery === 'url' && spec.imageBaseUrl === null && remote !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['images', 'delivery'],
      message: `the server at ${new URL(remote).host} is not on this machine, so it cannot fetch images from goodput's image server on 127.0.0.1: give an address it can reach (imageBaseUrl, --image-base-url) or send them as data`,
    });
  }
  if (spec.prompts.kind === 'sessions' || spec.prompts.kind === 'agents')
    ctx.addIssue({ code: 'custom', path: ['images'], message: `images are sent with single requests, not with ${spec.prompts.kind}` });
}

/** Requests are given up one by one: a session's or agent's next turn carries the answer before it, so a turn given up would change the workload itself. */
function cancelIssue(
  spec: {
    cancel: { afterMs: number | null; afterTokens: number | null } | null;
    prompts: { kind: string };
    outputTokens: number;
    timeouts: { totalMs: number };
  },
  ctx: z.RefinementCtx,
): void {
  if (spec.cancel !== null && (spec.prompts.kind === 'sessions' || spec.prompts.kind === 'agents'))
    ctx.addIssue({
      code: 'custom',
      path: ['cancel'],
      message: `requests are cancelled one by one, not in ${spec.prompts.kind} (each turn carries the answer before it)`,
    });
  // No request outlives its total timeout: a point at or past it would fail each request as timed out, never give it up.
  const afterMs = spec.cancel?.afterMs ?? null;
  if (afterMs !== null && afterMs >= spec.timeouts.totalMs)
    ctx.addIssue({
      code: 'custom',
      path: ['cancel', 'afterMs'],
      message: `${afterMs} is not below a request's total timeout (${spec.timeouts.totalMs} ms): each would fail as timed out before it is given up`,
    });
  // A synthetic request ends at outputTokens: a point at or past it would cut none, and the run would say it cancelled nothing.
  const at = spec.cancel?.afterTokens ?? null;
  if (at !== null && spec.prompts.kind === 'synthetic' && at >= spec.outputTokens)
    ctx.addIssue({
      code: 'custom',
      path: ['cancel', 'afterTokens'],
      message: `${at} is not below the output tokens (${spec.outputTokens}): every request ends there before it would be cut`,
    });
}

/** A number of seconds above 0 within its row of the limits table, or null (absent). */
function seconds(limit: 'levelDurationS' | 'rampUpS', name: string) {
  return z
    .number({ error: `${name} must be a number of seconds` })
    .positive(`${name} must be above 0 seconds`)
    .max(LIMITS[limit].max, { error: (i) => limitMessage(limit, Number(i.input), name) })
    .nullable()
    .default(null);
}

/** A level bounded by time (and its ramp) is a closed loop's of single requests, never also bounded by a count. */
function loadShapeIssues(
  spec: { durationS: number | null; rampUpS: number | null; arrival: { kind: string }; prompts: { kind: string }; requestsPerLevel: number | 'auto' },
  ctx: z.RefinementCtx,
): void {
  const problem = loadShapeProblem(spec.durationS, spec.rampUpS);
  if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  if (spec.durationS === null) return;
  const issue = (message: string) => ctx.addIssue({ code: 'custom', path: ['durationS'], message });
  if (spec.arrival.kind !== 'concurrency')
    issue(`a level bounded by time is a closed loop whose streams send until it ends: it needs arrival concurrency, not ${spec.arrival.kind}`);
  const kind = spec.prompts.kind;
  if (kind === 'sessions' || kind === 'agents' || kind === 'trace') issue(`a level bounded by time sends single prompts; ${kind} send their own requests`);
  if (spec.requestsPerLevel !== 'auto') issue('a level is bounded by a request count or by a duration, not both: leave requestsPerLevel auto');
}

/** The level profiled (serverHooks.profileLevel) must be one of the levels. */
function profiledLevelIssue(spec: { serverHooks: { profileLevel: number | null }; levels: number[] }, ctx: z.RefinementCtx): void {
  const profiled = spec.serverHooks.profileLevel;
  if (profiled !== null && !spec.levels.includes(profiled))
    ctx.addIssue({
      code: 'custom',
      path: ['serverHooks', 'profileLevel'],
      message: `${profiled} is not one of the levels (${levelOrder(spec.levels).join(', ')})`,
    });
}

/**
 * Where a sweep sends and how it signs in: the key in the header its API reads (Azure's `api-key`, the Messages
 * API's `x-api-key` beside its `anthropic-version`, else `Authorization: Bearer`), the extra headers after it.
 */
export function targetOf(spec: Pick<SweepSpec, 'url' | 'apiKey' | 'endpoint' | 'headers' | 'azure' | 'anthropicVersion'>): Target {
  const messages = spec.endpoint === 'messages';
  return {
    baseUrl: spec.url,
    ...(spec.apiKey === undefined ? {} : { apiKey: spec.apiKey }),
    auth: spec.azure !== null ? 'api-key' : messages ? 'x-api-key' : 'bearer',
    headers: messages ? [{ name: 'anthropic-version', value: spec.anthropicVersion }, ...spec.headers] : spec.headers,
    ...(spec.azure === null ? {} : { azure: spec.azure }),
  };
}
export type SweepSpec = z.output<typeof sweepSpecSchema>;

/** Requests a level runs: the fixed count, or the arrival kind's 'auto' (concurrency: max(8, 4 × C)). */
export function requestsFor(spec: SweepSpec, level: number): number {
  // Sessions: every turn of every session, once per level.
  if (spec.prompts.kind === 'sessions') return turnsOf(spec.prompts);
  if (spec.prompts.kind === 'agents') return agentTurnsOf(spec.prompts);
  // A level bounded by time sends until its duration ends: at most the measured requests a level may hold.
  if (spec.durationS !== null) return LIMITS.requestsPerLevel.max;
  return spec.requestsPerLevel === 'auto' ? arrivalOps(spec.arrival).autoRequests(level) : spec.requestsPerLevel;
}

/** Levels are measured one at a time in ascending order, whatever order they were given in; duplicates once. */
export function levelOrder(levels: readonly number[]): number[] {
  return [...new Set(levels)].sort((a, b) => a - b);
}
