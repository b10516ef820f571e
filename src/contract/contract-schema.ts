/**
 * The benchmark contract (goodput.yaml): one zod schema that is the type, the
 * validation with messages naming each field, and the reference the README
 * documents. It freezes everything that defines the experiment; `server.url`
 * and `server.apiKeyEnv` say where, not what, and are left out of its hash.
 */
import { z } from 'zod';
import { repeatsProblem } from './repeat-runs.js';
import { poolingContractIssues } from './pooling-contract.js';
import {
  GENERATED_ARRIVALS,
  LIMITS,
  type LimitName,
  audioInputsSchema,
  costLineSchema,
  imageBaseUrlSchema,
  levelsSchema,
  limitedCount,
  limitedInt,
  loraMixSchema,
  sloSchema,
  toolChoiceSchema,
  unionError,
} from '../core/index.js';
import { arrivalOps } from '../workload/index.js';
import { isLoopback } from '../client/index.js';
import { imageAxisSchema } from './image-axis.js';
import { providerPolicySchema } from './provider-policy.js';
import { fleetContractSchema, poolsContractSchema, serverPartsIssues, serverUrlSchema } from './server-parts.js';

/** A positive whole number within the limits table's row `limit`. */
const int = (what: string, limit: LimitName) => limitedInt(limit, what);
const text = (what: string) => z.string({ error: `${what} must be text` }).min(1, `${what} must not be empty`);
const date = (what: string) => z.string({ error: `${what} must be a date` }).regex(/^\d{4}-\d{2}-\d{2}/, `${what} must be a date like 2025-06-01`);
const sha = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lowercase hex digits')
  .optional();
const oneOrMany = <T extends z.ZodTypeAny>(t: T) => z.union([t, z.array(t).min(1)]).transform((v) => (Array.isArray(v) ? v : [v]) as Array<z.output<T>>);

const tokenizerSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('file'), path: text('path'), sha256: sha }).strict(),
    z.object({ kind: z.literal('server') }).strict(),
    z.object({ kind: z.literal('approximate') }).strict(),
    z.object({ kind: z.literal('auto') }).strict(),
  ],
  { error: (i) => (i.code === 'invalid_union' ? 'kind must be one of file, server, approximate, auto' : undefined) },
);

const promptsSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('synthetic'), tokens: oneOrMany(int('tokens', 'promptTokens')) }).strict(),
    z.object({ kind: z.literal('jsonl'), path: text('path'), sha256: sha, seed: z.number().int().default(1) }).strict(),
    z.object({ kind: z.literal('sharegpt'), path: text('path'), sha256: sha, seed: z.number().int().default(1) }).strict(),
    /** Each request's prompt from the trace of `load.pattern` (kind trace). */
    z.object({ kind: z.literal('trace') }).strict(),
  ],
  { error: (i) => (i.code === 'invalid_union' ? 'kind must be one of synthetic, jsonl, sharegpt, trace' : undefined) },
);

/** A recorded trace replayed at its send times (levels are speeds: 1 = as recorded); its sha256 is pinned at the first run. */
const tracePatternSchema = z
  .object({
    kind: z.literal('trace'),
    path: text('path'),
    sha256: sha,
    blockTokens: limitedInt('traceBlockTokens', 'blockTokens').default(512),
    window: z
      .object({ startS: z.number().nonnegative(), endS: z.number().positive() })
      .strict()
      .refine((w) => w.endS > w.startS, { error: 'window.endS must be after window.startS' })
      .optional(),
    strict: z.boolean().default(false),
    maxConcurrency: limitedInt('concurrency', 'maxConcurrency').nullable().default(null),
  })
  .strict();

const patternSchema = z.discriminatedUnion('kind', [...GENERATED_ARRIVALS, tracePatternSchema], {
  error: (i) => (i.code === 'invalid_union' ? 'kind must be one of concurrency, rate, burst, trace' : undefined),
});

const cacheSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('cold') }).strict(),
    z.object({ kind: z.literal('warm'), sharedPrefixTokens: int('sharedPrefixTokens', 'promptTokens') }).strict(),
    /** Warm on purpose: the shared prefix sent `times` times before each level, so its first measured request finds it cached. */
    z
      .object({ kind: z.literal('primed'), sharedPrefixTokens: int('sharedPrefixTokens', 'promptTokens'), times: int('times', 'primeRequests').default(1) })
      .strict(),
  ],
  { error: (i) => (i.code === 'invalid_union' ? 'kind must be cold, warm or primed' : undefined) },
);

const toolsSchema = z.discriminatedUnion(
  'kind',
  [
    z
      .object({
        kind: z.literal('builtin'),
        count: z.union([z.literal(1), z.literal(8), z.literal(64)], { error: 'count must be 1, 8 or 64' }),
        choice: toolChoiceSchema.default('auto'),
      })
      .strict(),
    /** A JSON file of OpenAI-style tools; sha256 is of the tool list's canonical JSON, pinned at the first run. */
    z.object({ kind: z.literal('file'), path: text('path'), sha256: sha, choice: toolChoiceSchema.default('auto') }).strict(),
  ],
  { error: (i) => (i.code === 'invalid_union' ? 'kind must be builtin or file' : undefined) },
);

/**
 * The address a published copy of a contract gives in place of a withheld one
 * (the server's, the quality baseline's): `.invalid` is reserved (RFC 2606), so
 * no server answers there and nothing is run against it by mistake.
 */
export const WITHHELD_URL = 'http://withheld.invalid/';
const WITHHELD_HOST = new URL(WITHHELD_URL).hostname;

export const contractSchema = z
  .object({
    version: z.literal(1, { error: 'version must be 1' }),
    name: text('name').optional(),
    server: z
      .object({
        url: serverUrlSchema('url'),
        apiKeyEnv: text('apiKeyEnv').optional(),
        endpoint: z
          .enum(['chat', 'completions', 'embeddings', 'rerank'], { error: 'endpoint must be chat, completions, embeddings or rerank' })
          .default('chat'),
        /** Images by URL: where the server reaches goodput's image server (a location, outside the hash); default 127.0.0.1 for a server on this machine. */
        imageBaseUrl: imageBaseUrlSchema.optional(),
        /** A fleet: the targets besides url and how each request picks one (docs/metrics.md#fleets); the addresses are outside the hash, their count and the routing in it. */
        fleet: fleetContractSchema.optional(),
        /** A disaggregated server's pools (docs/metrics.md#disaggregated-serving): each role's metrics endpoint (outside the hash), its GPUs and the KV link (in it). */
        pools: poolsContractSchema.optional(),
      })
      .strict(),
    model: z
      .object({
        name: text('name'),
        revision: text('revision'),
        tokenizer: tokenizerSchema.default({ kind: 'auto' }),
        precision: text('precision'),
        quantization: text('quantization'),
      })
      .strict(),
    workload: z
      .object({
        prompts: promptsSchema,
        /** Required for chat and completions; embeddings and rerank generate no tokens. */
        outputTokens: z
          .union(
            [oneOrMany(int('outputTokens', 'outputTokens')), z.literal('corpus'), z.literal('trace')],
            unionError('outputTokens must be a positive whole number, a list of them, "corpus" or "trace"'),
          )
          .optional(),
        // One condition is read as a list of one, so a bad field in it is named (a union of the two forms named neither).
        cache: z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(cacheSchema).min(1)).default([{ kind: 'cold' }]),
        requestsPerLevel: z.union([int('requestsPerLevel', 'requestsPerLevel'), z.literal('auto')]).default('auto'),
        warmup: limitedCount('warmupRequests', 'warmup').default(1),
        /** Tools offered with every chat request (docs/agents.md). */
        tools: toolsSchema.optional(),
        /** Synthetic images sent with every chat request (docs/endpoints.md), or a list of settings (a matrix axis); the hash covers them, so a rerun sends the same bytes. */
        images: imageAxisSchema.optional(),
        /** A synthetic WAV clip sent with every chat request; the hash covers it. */
        audio: audioInputsSchema.optional(),
        /** LoRA adapters each request names one of as its model, by weight (docs/engines.md#lora-adapters); absent: every request names model.name. */
        lora: loraMixSchema.optional(),
        /** Embeddings: inputs per request, each of the prompt length (docs/endpoints.md). */
        batchSize: int('batchSize', 'embeddingBatch').optional(),
        /** Rerank: documents per query, each of the prompt length. */
        documents: int('documents', 'rerankDocuments').optional(),
        /** Rerank: tokens of the query. */
        queryTokens: int('queryTokens', 'promptTokens').optional(),
      })
      .strict(),
    decoding: z
      .object({
        temperature: z.number().nonnegative('temperature must not be negative').default(0),
        topP: z.number().gt(0, 'topP must be above 0').lte(1, 'topP must be at most 1').default(1),
        seed: z.number().int('seed must be a whole number').default(42),
        ignoreEos: z.boolean().default(true),
      })
      .strict()
      .prefault({}),
    thinking: z.enum(['off', 'on'], { error: 'thinking must be off or on' }).default('off'),
    load: z
      .object({
        pattern: patternSchema.default({ kind: 'concurrency' }),
        levels: levelsSchema,
      })
      .strict(),
    quality: z
      .object({
        metric: text('metric'),
        floor: z.number().min(0).max(1).optional(),
        /** Measure the quality score in the run itself against this baseline server (goodput run --quality-baseline); the hash keeps that it is measured, not where. */
        baselineUrl: serverUrlSchema('baselineUrl').optional(),
      })
      .strict()
      .default({ metric: 'none' }),
    /** Runs of the contract declared up front (goodput run --repeats N writes it): a receipt ships every one of them. */
    repeats: z.number().int('repeats must be a whole number').min(1, 'repeats must be at least 1').optional(),
    slo: sloSchema,
    /** How a hosted provider's rate limit is met: retries and pacing (docs/rate-limits.md); absent: the defaults, unpaced. In the hash. */
    provider: providerPolicySchema.optional(),
    hardware: z
      .object({
        label: text('label'),
        gpuHourlyUsd: z.number().nonnegative('gpuHourlyUsd must not be negative').optional(),
        priceAsOf: date('priceAsOf').optional(),
        utilisation: z.number().gt(0, 'utilisation must be above 0').lte(1, 'utilisation must be at most 1').optional(),
        utilisationAsOf: date('utilisationAsOf').optional(),
        overheads: z.array(costLineSchema.extend({ asOf: date('asOf') }).strict()).default([]),
        baselineRateUsdPer1M: z.number().positive('baselineRateUsdPer1M must be positive').optional(),
      })
      .strict(),
  })
  .strict()
  .superRefine((c, ctx) => {
    serverPartsIssues(c.server, ctx);
    const pattern = c.load.pattern;
    const speed = (x: number) =>
      x > 0 && x <= LIMITS.traceSpeed.max ? null : `${x} is not a speed above 0 and at most ${LIMITS.traceSpeed.max} (1 = as recorded)`;
    c.load.levels.forEach((level, i) => {
      const problem = pattern.kind === 'trace' ? speed(level) : arrivalOps(pattern).checkLevel(level);
      if (problem) ctx.addIssue({ code: 'custom', path: ['load', 'levels', i], message: `${problem} (pattern ${pattern.kind})` });
    });
    // A trace decides each request's prompt, output and send time; warm-ups would shift its schedule.
    const traced = pattern.kind === 'trace';
    if (traced !== (c.workload.prompts.kind === 'trace'))
      ctx.addIssue({
        code: 'custom',
        path: ['workload', 'prompts', 'kind'],
        message: traced ? 'a trace pattern takes its prompts from the trace: kind trace' : 'prompts of kind trace need load.pattern kind trace',
      });
    if (traced !== (c.workload.outputTokens === 'trace'))
      ctx.addIssue({
        code: 'custom',
        path: ['workload', 'outputTokens'],
        message: traced ? 'a trace pattern takes each output length from the trace: "trace"' : '"trace" needs load.pattern kind trace',
      });
    if (traced && c.workload.warmup !== 0)
      ctx.addIssue({ code: 'custom', path: ['workload', 'warmup'], message: 'a trace replay runs no warm-ups (they would shift its recorded schedule): 0' });
    if (traced && c.workload.cache.length !== 1)
      ctx.addIssue({ code: 'custom', path: ['workload', 'cache'], message: 'a trace replay has one cache condition: its own shared blocks' });
    const synthetic = c.workload.prompts.kind === 'synthetic' ? c.workload.prompts.tokens : null;
    primedIssues(c.workload.cache, c.workload.lora !== undefined, ctx);
    c.workload.cache.forEach((cache, i) => {
      if (traced && cache.kind === 'primed')
        ctx.addIssue({ code: 'custom', path: ['workload', 'cache', i, 'kind'], message: 'a trace replay shares its own blocks: it has no prefix to prime' });
      if (cache.kind !== 'cold' && synthetic && synthetic.some((t) => cache.sharedPrefixTokens >= t)) {
        ctx.addIssue({
          code: 'custom',
          path: ['workload', 'cache', i, 'sharedPrefixTokens'],
          message: `the shared prefix must be shorter than every prompt length (${synthetic.join(', ')})`,
        });
      }
    });
    if (c.server.endpoint === 'embeddings' || c.server.endpoint === 'rerank') poolingContractIssues(c, c.server.endpoint, ctx);
    else if (c.workload.outputTokens === undefined)
      ctx.addIssue({ code: 'custom', path: ['workload', 'outputTokens'], message: `outputTokens is required for server.endpoint ${c.server.endpoint}` });
    if ((c.server.endpoint === 'embeddings' || c.server.endpoint === 'rerank') && c.provider?.rateLimit !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['provider', 'rateLimit'],
        message: `applies to chat and completions: ${c.server.endpoint} requests are retried, never paced (docs/rate-limits.md)`,
      });
    if (c.workload.outputTokens === 'corpus' && synthetic) {
      ctx.addIssue({ code: 'custom', path: ['workload', 'outputTokens'], message: '"corpus" needs a jsonl or sharegpt corpus' });
    }
    const pooled = c.server.endpoint === 'embeddings' || c.server.endpoint === 'rerank';
    for (const field of ['batchSize', 'documents', 'queryTokens'] as const) {
      if (!pooled && c.workload[field] !== undefined)
        ctx.addIssue({ code: 'custom', path: ['workload', field], message: `needs server.endpoint ${field === 'batchSize' ? 'embeddings' : 'rerank'}` });
    }
    if (c.workload.tools !== undefined) {
      if (c.server.endpoint !== 'chat') ctx.addIssue({ code: 'custom', path: ['workload', 'tools'], message: 'tools need server.endpoint chat' });
      if (c.decoding.ignoreEos)
        ctx.addIssue({ code: 'custom', path: ['decoding', 'ignoreEos'], message: 'a request with tools ends when its call is complete: set ignoreEos false' });
    }
    if (c.workload.images !== undefined && c.server.endpoint !== 'chat')
      ctx.addIssue({ code: 'custom', path: ['workload', 'images'], message: 'images need server.endpoint chat' });
    if (c.workload.lora !== undefined && (c.server.endpoint === 'embeddings' || c.server.endpoint === 'rerank'))
      ctx.addIssue({
        code: 'custom',
        path: ['workload', 'lora'],
        message: `LoRA adapters are a generation model's: not for server.endpoint ${c.server.endpoint}`,
      });
    if (c.workload.audio !== undefined && c.server.endpoint !== 'chat')
      ctx.addIssue({ code: 'custom', path: ['workload', 'audio'], message: 'audio needs server.endpoint chat' });
    if (traced && (c.workload.images?.length ?? 0) > 1)
      ctx.addIssue({ code: 'custom', path: ['workload', 'images'], message: 'a trace replay has one cell: one images setting' });
    const byUrl = c.workload.images?.some((i) => i?.delivery === 'url') === true;
    // A published copy withholds the address (WITHHELD_URL): where that server could fetch from is not the copy's to say.
    const host = new URL(c.server.url).hostname;
    if (byUrl && c.server.imageBaseUrl === undefined && !isLoopback(host) && host !== WITHHELD_HOST) {
      ctx.addIssue({
        code: 'custom',
        path: ['workload', 'images'],
        message: `images by URL: the server at ${new URL(c.server.url).host} is not on this machine, so it cannot fetch them from goodput's image server on 127.0.0.1: give server.imageBaseUrl, an address it can reach`,
      });
    }
    if (!byUrl && c.server.imageBaseUrl !== undefined)
      ctx.addIssue({ code: 'custom', path: ['server', 'imageBaseUrl'], message: 'applies to images by URL (delivery url) alone' });
    if (c.slo.toolCallValid === true && c.workload.tools === undefined)
      ctx.addIssue({ code: 'custom', path: ['slo', 'toolCallValid'], message: 'the toolCallValid SLO needs workload.tools' });
    const priced = c.hardware.gpuHourlyUsd !== undefined;
    if (priced && c.hardware.priceAsOf === undefined)
      ctx.addIssue({ code: 'custom', path: ['hardware', 'priceAsOf'], message: 'a price needs the date it was taken (priceAsOf)' });
    if (c.hardware.utilisation !== undefined && c.hardware.utilisationAsOf === undefined) {
      ctx.addIssue({ code: 'custom', path: ['hardware', 'utilisationAsOf'], message: 'a declared utilisation needs its date (utilisationAsOf)' });
    }
    if (!priced && (c.hardware.utilisation !== undefined || c.hardware.overheads.length > 0)) {
      ctx.addIssue({ code: 'custom', path: ['hardware', 'gpuHourlyUsd'], message: 'utilisation and overheads need an hourly GPU cost' });
    }
    const repeats = c.repeats === undefined ? null : repeatsProblem(c.repeats);
    if (repeats !== null) ctx.addIssue({ code: 'custom', path: ['repeats'], message: repeats });
    if (c.quality.floor !== undefined && c.slo.qualityFloor !== undefined && c.quality.floor !== c.slo.qualityFloor) {
      ctx.addIssue({ code: 'custom', path: ['slo', 'qualityFloor'], message: 'differs from quality.floor; state the floor once' });
    }
  });

/**
 * Primed conditions: a cell is keyed by its prefix, not by `times`, so two primes of one prefix would be one cell
 * twice; and the prime is sent to the base model, while an engine caches each LoRA adapter's prefix blocks apart
 * (vLLM keys them by adapter), so a mix of adapters would start its level on nothing cached.
 */
function primedIssues(cache: readonly z.output<typeof cacheSchema>[], lora: boolean, ctx: z.RefinementCtx): void {
  const primed = cache.map((c) => (c.kind === 'primed' ? c.sharedPrefixTokens : null));
  primed.forEach((prefix, i) => {
    if (prefix === null) return;
    if (lora)
      ctx.addIssue({
        code: 'custom',
        path: ['workload', 'cache', i, 'kind'],
        message: "a prime is sent to the base model, and an engine caches each LoRA adapter's prefixes apart: with workload.lora, take cold or warm",
      });
    const first = primed.indexOf(prefix);
    if (first !== i)
      ctx.addIssue({
        code: 'custom',
        path: ['workload', 'cache', i, 'sharedPrefixTokens'],
        message: `cache[${first}] primes the same ${prefix}-token prefix: a cell is keyed by its prefix, not its times, so both would be one cell; give each prefix once`,
      });
  });
}

/** A contract as written (defaults not yet applied). */
export type ContractInput = z.input<typeof contractSchema>;
/** A validated contract with every default applied. */
export type Contract = z.output<typeof contractSchema>;
