/**
 * What one level's requests are built from (LevelContext) and how: request
 * `seq` of a level, its prompt built the moment it is sent, salted so no level
 * or run is served from another's prefix cache. Shared by the level's loops
 * (run-level.ts) and its sessions and agent traces (level-sessions.ts).
 */
import { type RequestRecord, adapterAt } from '../core/index.js';
import type { CancelPoint, Clock, RequestSpec, StreamingClient } from '../client/index.js';
import { type PromptItem, promptFor } from '../workload/index.js';
import { cancelPointFor } from './cancel-point.js';
import { imagesOf } from './image-pool.js';
import type { RatePacer } from './rate-pacer.js';
import type { RunState } from './run-state.js';
import type { SweepSpec } from './sweep-spec.js';

export interface LevelContext {
  client: StreamingClient;
  spec: SweepSpec;
  /** What the sweep set for itself (its image server's address); none when absent. */
  state?: RunState;
  model: string;
  /** The level value on the arrival kind's axis (streams, req/s or burst size); recorded as each record's `concurrency`. */
  concurrency: number;
  requests: number;
  clock: Clock;
  /** Distinguishes this run's prompts from every other run's (prefix-cache salt). */
  runId: string;
  /** Requests (warm-ups included) the sweep sent before this level: where a prompt list continues. */
  promptOffset?: number;
  signal: AbortSignal;
  /** Called for every finished request, warm-ups included. */
  onRecord(r: RequestRecord): void;
  /** Asked after a connection failure: does the server still answer? Resolves a reason when it does not. */
  checkServer(): Promise<string | null>;
  /** Awaited after the warm-ups, just before the measured requests: telemetry opens its window here. */
  beforeMeasured?(): Promise<void>;
  /** Chat with images: the level's drawn images (see image-pool.ts); set by runLevel. */
  imagePool?: readonly string[];
  /** Chat with audio: the level's drawn clips (base64 WAV); set by runLevel. */
  audioPool?: readonly string[];
  /** Paces sends to a provider's rate limit (--rate-limit); absent: not paced. */
  pacer?: RatePacer;
  /** Set when this client sends only its share of the level (a client thread); the other shares run elsewhere. */
  share?: LevelShare;
}

/**
 * One client's part of a level split over `count` clients. Every share computes
 * the same plan from the same spec and takes its own part of it: a closed loop's
 * streams and a contiguous run of its requests (splitConcurrency, splitRequests),
 * an open loop's sends (and session starts) round-robin, so each share's arrivals
 * thin the whole schedule evenly. Share 0 alone sends the warm-ups.
 */
export interface LevelShare {
  index: number;
  count: number;
  /** Resolves with the level's agreed start instant (ns, on `clock`) once every share is ready to send. */
  startAt(): Promise<number>;
}

/**
 * The salt a level's shared prompts (trace blocks, session openings) start with:
 * the run's and the level's, so no level is served from the prefix cache another
 * level warmed, while the trace's own shared prefixes stay shared inside the level.
 */
export function levelSalt(ctx: { runId: string; concurrency: number }): string {
  return `${ctx.runId}l${ctx.concurrency}`;
}

/** Request `seq` of the level; `given` is its prompt when the caller built it (a session's turn). */
export function requestSpec(ctx: LevelContext, seq: number, given?: PromptItem): RequestSpec {
  const { spec } = ctx;
  const salt = `${ctx.runId}c${ctx.concurrency}n${seq}`;
  const item =
    given ??
    promptFor(spec.prompts, { index: (ctx.promptOffset ?? 0) + seq, promptTokens: spec.promptTokens, seed: spec.seed + seq, salt, run: levelSalt(ctx) });
  return {
    endpoint: spec.endpoint,
    model: modelOf(ctx, seq),
    prompt: item.text,
    maxTokens: item.outputTokens ?? spec.outputTokens,
    forceLength: spec.forceLength,
    thinking: spec.thinking,
    temperature: spec.temperature,
    seed: spec.seed,
    // A cold run also asks the engine's own switch (cache_salt, cache_prompt: false) to keep the prefix cache cold.
    ...(spec.cache === 'cold' ? { cacheSalt: salt } : {}),
    ...(spec.topP === null ? {} : { topP: spec.topP }),
    ...(spec.extraBody === null ? {} : { passThrough: spec.extraBody }),
    ...(spec.tools === null ? {} : { tools: spec.tools }),
    ...(spec.images === null || ctx.imagePool === undefined ? {} : { images: imagesOf(ctx.imagePool, spec.images.perRequest, seq) }),
    ...(ctx.audioPool === undefined || ctx.audioPool.length === 0 ? {} : { audio: ctx.audioPool[seq % ctx.audioPool.length] as string }),
    ...(spec.responseSchema === null ? {} : { structured: { spec: spec.responseSchema, control: isControl(seq, spec.responseSchema.control) } }),
    ...cancelOf(spec, seq),
  };
}

/** Request `seq`'s cancel point when the sweep gives it up on purpose (cancel-point.ts), as a spread-in field. */
function cancelOf(spec: SweepSpec, seq: number): { cancel?: CancelPoint } {
  const cancel = cancelPointFor(spec.cancel, spec.warmup, seq);
  return cancel === undefined ? {} : { cancel };
}

/** Request `seq` is a plain control of a structured-output level: the control share spread evenly over the sequence. */
export const isControl = (seq: number, share: number): boolean => Math.floor((seq + 1) * share) > Math.floor(seq * share);

/** The model request `seq` names: the run's, or with several LoRA adapters the one its seed, level and number draw. */
export const modelOf = (ctx: Pick<LevelContext, 'spec' | 'model' | 'concurrency'>, seq: number): string =>
  ctx.spec.lora === null ? ctx.model : adapterAt(ctx.spec.lora, ctx.spec.seed, ctx.concurrency, seq);

/** The record with the adapter it was sent to, in a run over several; as it is otherwise. */
export const withAdapter = (ctx: Pick<LevelContext, 'spec' | 'model' | 'concurrency'>, r: RequestRecord): RequestRecord =>
  ctx.spec.lora === null ? r : { ...r, adapter: modelOf(ctx, r.seq) };
