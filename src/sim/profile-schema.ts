/**
 * The simulator's profile: its whole performance model, GPU memory model and fault
 * plan in one zod schema. Every field has a default, so `{}` is a valid profile;
 * unknown keys are errors that name the key. All times are milliseconds.
 */
import { z } from 'zod';
import { LIMITS, loraNameSchema } from '../core/index.js';
import { SIM_DIALECT_KINDS } from './dialects/kinds.js';
import { disaggProfileSchema } from './disagg-role.js';
import { STEP_TIMINGS } from './step-timing.js';

const share = z.number().min(0).max(1);
const nonNegMs = z.number().min(0);

/** Faults, each a share (0..1) of non-warm requests, assigned by a seeded PRNG. */
const faultsSchema = z
  .object({
    /** Answer HTTP 500 with an OpenAI-style error body before any stream. */
    http500: share.default(0),
    /** Answer HTTP 429 before any stream. */
    http429: share.default(0),
    /** Answer HTTP 503 before any stream. */
    http503: share.default(0),
    /** Answer HTTP 529 (Anthropic's "overloaded") with Retry-After before any stream. */
    http529: share.default(0),
    /** Destroy the socket after about half the tokens, without `[DONE]`. */
    dropStream: share.default(0),
    /** One event mid-stream is `data: {not json`. */
    malformedSse: share.default(0),
    /** vLLM-style `data: {"error":…}` then `data: [DONE]` mid-stream on a 200. */
    midStreamError: share.default(0),
    /** The stream pauses `stallMs` mid-way, then continues. */
    stall: share.default(0),
    /** Length of a stall, ms. Default 2000. */
    stallMs: nonNegMs.default(2000),
    /**
     * The server dies like a crashed process (all sockets destroyed, no longer listening) as soon
     * as it has accepted this many chat/completions requests; the last one is cut too. 0: the
     * first request kills it. Default null (never).
     */
    dieAfterRequests: z.number().int().min(0).nullable().default(null),
  })
  .strict()
  .refine((f) => f.http500 + f.http429 + f.http503 + f.http529 + f.dropStream + f.malformedSse + f.midStreamError + f.stall <= 1, {
    message: 'the fault shares add up to more than 1',
  });

/**
 * Broken JSON on purpose: `invalid` is the share that parses but misses its schema (a required property
 * dropped), `malformed` the share that is cut JSON (unparsed). Defaults 0.
 */
const brokenJson = z.object({ invalid: share.default(0), malformed: share.default(0) }).strict();
const brokenAtMostAll = [
  (t: { invalid: number; malformed: number }) => t.invalid + t.malformed <= 1,
  { message: 'invalid and malformed add up to more than 1' },
] as const;

/** Tool calls of chat requests sent with tools (see tool-call-plan.ts): with tool_choice auto, `autoShare` of requests call a tool (default 0.5). */
const toolCallsSchema = brokenJson.extend({ autoShare: share.default(0.5) }).refine(...brokenAtMostAll);

/** JSON answers of chat requests that ask for a JSON schema (see answer-schema.ts). */
const structuredOutputSchema = brokenJson.refine(...brokenAtMostAll);

/** Memory model read by telemetry tests: used = weights + reserved KV tokens × MiB per token. */
const gpuSchema = z
  .object({
    name: z.string().min(1).default('SimGPU 80GB'),
    totalMiB: z.number().positive().default(81920),
    weightsMiB: z.number().min(0).default(16000),
    kvMiBPerToken: z.number().min(0).default(0.125),
  })
  .strict();

/** Natural answer length range (tokens) used when the request does not set `ignore_eos`. */
const naturalSchema = z
  .object({ min: z.number().int().min(1).default(20), max: z.number().int().min(1).default(400) })
  .strict()
  .refine((n) => n.max >= n.min, { message: 'max must be >= min', path: ['max'] });

/**
 * Embeddings and rerank (`/v1/embeddings`, `/api/embed`, `/v1/rerank`, `/rerank`): one encoder serves requests
 * one at a time, each taking `baseMs` + input tokens × `msPerInputToken` (rerank: query plus document tokens per
 * document), so input tokens/s at saturation is 1000 / msPerInputToken when baseMs is 0.
 */
const poolingSchema = z
  .object({
    /** Numbers in every embedding vector. Default 384. */
    dimension: z.number().int().positive().max(65_536).default(384),
    /** Fixed encoder time per request, ms. Default 0. */
    baseMs: nonNegMs.default(0),
    /** Encoder time per input token, ms. Default 0.01 (100,000 input tokens/s). */
    msPerInputToken: nonNegMs.default(0.01),
  })
  .strict();

const imagesSchema = z
  .object({
    /** Pixels on each side of one image patch: an image costs ceil(w / patch) × ceil(h / patch) tokens. Default 32. */
    patchPixels: z.number().int().positive().max(4096).default(32),
    /** Tokens every image costs besides its patches (start and end markers). Default 0. */
    baseTokens: z.number().int().min(0).max(65_536).default(0),
    /** Vision-encoder time per image, added to the request's prefill, ms. Default 30. */
    encoderMsPerImage: nonNegMs.default(30),
    /** Longest wait for one image given by URL (fetched from loopback only, before the request is queued), ms. Default 10,000. */
    fetchTimeoutMs: z.number().int().positive().max(600_000).default(10_000),
  })
  .strict();

const audioSchema = z
  .object({
    /** Prompt tokens per second of audio, rounded up per clip. Default 25 (Whisper-style encoders after pooling). */
    tokensPerSecond: z.number().positive().max(10_000).default(25),
    /** Audio-encoder time per second of audio, added to the request's prefill, ms. Default 10. */
    encoderMsPerSecond: nonNegMs.default(10),
  })
  .strict();

/** The zod schema of a simulator profile (see the field docs for units and defaults). */
export const simProfileSchema = z
  .object({
    /** Served model id. Default "goodput-sim-1". */
    model: z.string().min(1).default('goodput-sim-1'),
    /** Seed of every pseudo-random choice (lengths, words, faults). Default 1. */
    seed: z.number().int().default(1),
    /** Context limit in tokens (prompt + output), reported as `max_model_len`. Default 32768. */
    maxModelLen: z.number().int().positive().default(32768),
    /** Tokens a chat template adds to every chat request (counted in usage and by /tokenize with messages), as real models' templates do. Default 0. */
    chatTemplateTokens: z.number().int().nonnegative().max(4096).default(0),
    /** Fixed prefill cost from admission to the first token, ms. Default 20. */
    prefillBaseMs: nonNegMs.default(20),
    /** Prefill cost per uncached prompt token, ms. Default 0.05. */
    prefillMsPerToken: nonNegMs.default(0.05),
    /** Decode step time with one running sequence, ms. Default 20. */
    decodeStepMs: z.number().positive().default(20),
    /** Added to the step time for each additional running sequence, ms. Default 0.1. */
    decodeMsPerExtraSeq: nonNegMs.default(0.1),
    /**
     * How emissions are placed in time: "independent" (each stream on its own cadence) or "batched"
     * (one engine-wide step loop writes every stream's token in the same instant, as vLLM does). Default "independent".
     */
    stepTiming: z.enum(STEP_TIMINGS).default('independent'),
    /** Sequences admitted (prefilling or decoding) at once; the rest wait FIFO. Default 256. */
    maxBatch: z.number().int().positive().default(256),
    /** KV budget in tokens; an admitted request reserves prompt + max output tokens. Default 1,000,000. */
    kvCacheTokens: z.number().int().positive().default(1_000_000),
    /** Tokens per decode step and SSE chunk (speculative decoding). Default 1. */
    tokensPerChunk: z.number().int().positive().default(1),
    /**
     * A draft model (speculative decoding): each decode step verifies `positions` draft tokens, each accepted with
     * probability `accept` once the one before it was, and streams the accepted ones plus the bonus token as one chunk,
     * counted in vLLM's `spec_decode_*` counters. Absent (the default): no draft model, and a profile as it was before
     * there was one. It sets tokens per chunk itself, so `tokensPerChunk` stays 1. `accept` defaults to 0.7.
     */
    specDecode: z
      .object({
        positions: z.number().int().min(1).max(LIMITS.specDecodePositions.max),
        accept: z.number().min(0).max(1).default(0.7),
      })
      .strict()
      .optional(),
    /**
     * The simulator's part in a disaggregated server: a prefill pool, a decode pool that reads each prompt's KV over
     * a link and counts vLLM's NIXL transfer histograms, or a router in front of both (disagg-role.ts). Absent (the
     * default): none, and a profile as it was before there were roles.
     */
    disagg: disaggProfileSchema.optional(),
    /** Reasoning tokens emitted before the answer on chat requests with thinking on. Default 0. */
    reasoningTokens: z.number().int().min(0).default(0),
    /** Field that carries reasoning text in a delta. Default "reasoning_content" (vLLM before PR #27752). */
    streamShape: z.enum(['reasoning_content', 'reasoning']).default('reasoning_content'),
    /** Engine the simulator plays: its identity routes, request keys, stream shapes and errors (see dialects/). Default "goodput". */
    dialect: z.enum(SIM_DIALECT_KINDS).default('goodput'),
    /**
     * For dialects that refuse overload instead of queueing: TGI answers 429 with this many requests in flight
     * (default 128, its max_concurrent_requests), Ollama 503 with this many waiting (default 512, OLLAMA_MAX_QUEUE).
     */
    overloadLimit: z.number().int().positive().nullable().default(null),
    /** Natural answer length range, tokens. Default {min: 20, max: 400}. */
    naturalOutputTokens: naturalSchema.prefault({}),
    /** Reuse cached leading prompt blocks (skips their prefill cost). Default true. */
    prefixCaching: z.boolean().default(true),
    /** Prefix-cache block size, tokens. Default 16. */
    prefixBlockTokens: z.number().int().positive().default(16),
    /** SD (in logits, 0..10) of the seeded Gaussian noise added to every logit of the logprobs model. Default 0. */
    quantizationNoise: z.number().min(0).max(10).default(0),
    /** Largest `top_logprobs` (chat) or `logprobs` (completions) accepted; above it is a 400, like vLLM's --max-logprobs. Default 20. */
    maxTopLogprobs: z.number().int().min(0).default(20),
    pooling: poolingSchema.prefault({}),
    images: imagesSchema.prefault({}),
    audio: audioSchema.prefault({}),
    gpu: gpuSchema.prefault({}),
    faults: faultsSchema.prefault({}),
    /**
     * Play a rate-limited provider: requests and tokens (prompt + max output) per minute, null for none (the default).
     * Over budget is a 429 with Retry-After; every answer carries x-ratelimit-* and anthropic-ratelimit-* headers.
     */
    rateLimit: z
      .object({ rpm: z.number().positive().max(10_000_000).nullable().default(null), tpm: z.number().positive().max(10_000_000_000).nullable().default(null) })
      .strict()
      .prefault({}),
    toolCalls: toolCallsSchema.prefault({}),
    structuredOutput: structuredOutputSchema.prefault({}),
    /**
     * LoRA adapters served beside the model, as vLLM serves them (each listed in `/v1/models` with the model as
     * its `parent`, and a request naming one generates with it), each with the decode time it adds to every step,
     * ms (default 0), so one adapter can be slower than another. Default none.
     */
    loraAdapters: z
      .array(z.object({ name: loraNameSchema, decodeExtraMs: nonNegMs.default(0) }).strict())
      .max(LIMITS.loraAdapters.max)
      .default([]),
  })
  .strict()
  .superRefine((p, ctx) => {
    const names = new Set([p.model]);
    for (const [i, a] of p.loraAdapters.entries()) {
      if (names.has(a.name)) ctx.addIssue({ code: 'custom', path: ['loraAdapters', i, 'name'], message: `${a.name} is already served; name each model once` });
      names.add(a.name);
    }
  })
  .refine((p) => p.specDecode === undefined || p.tokensPerChunk === 1, {
    path: ['specDecode', 'positions'],
    error: 'a draft model sets the tokens of each chunk itself: leave tokensPerChunk at 1',
  });

/** A validated profile with every default applied. */
export type SimProfile = z.infer<typeof simProfileSchema>;
/** The fault plan of a profile. */
export type SimFaults = SimProfile['faults'];
/** The GPU memory model of a profile. */
export type SimGpu = SimProfile['gpu'];
