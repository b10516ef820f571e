/**
 * A sequence: one request as the batch engine sees it. What it needs (prompt, KV
 * reservation, output length, a stall), the emissions it makes (output token ranges
 * at absolute due times) and the callbacks through which the HTTP side writes them.
 */
import type { TimedTask } from './min-heap.js';

/** What one sequence needs from the engine. */
export interface SequenceSpec {
  promptTokens: number;
  /** KV reserved while admitted: prompt + max output tokens. */
  kvTokens: number;
  /** Prefix-cache block keys of the prompt (empty: nothing cacheable). */
  blockKeys: number[];
  /** Tokens to emit in total (≥ 1). */
  outputTokens: number;
  /** Vision-encoder time of the request's images, added to its prefill, ms. */
  encoderMs?: number;
  /** A decode pool's: the prompt's KV arrives from the prefill pool in this time instead of being computed, ms. */
  remoteKvMs?: number;
  /** Added to every decode step of this sequence, ms (a slower LoRA adapter); absent: none. */
  stepExtraMs?: number;
  /** Extra pause before one emission (the stall fault), or null. */
  stall: { beforeEmission: number; ms: number } | null;
}

/** One emission: output tokens [from, to) due at `dueMs` (absolute, ms). */
export interface Emission {
  index: number;
  from: number;
  to: number;
  last: boolean;
  dueMs: number;
}

/** Callbacks of one sequence; `onEmit` returns false to end the sequence there. */
export interface SequenceEvents {
  onAdmit(atMs: number, cachedTokens: number): void;
  onEmit(emission: Emission): boolean;
}

/** Engine-side state of one request. */
export interface Sequence {
  readonly spec: SequenceSpec;
  readonly events: SequenceEvents;
  state: 'waiting' | 'running' | 'done';
  next: TimedTask | null;
}

/** Emissions a sequence makes: the first (prefill) emission carries 1 token, each decode step `tokensPerChunk`. */
export function emissionCount(outputTokens: number, tokensPerChunk: number): number {
  return 1 + Math.ceil(Math.max(0, outputTokens - 1) / tokensPerChunk);
}
