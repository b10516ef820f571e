/**
 * Counters a test reads through `SimServer.stats()`: what was accepted, finished,
 * cancelled or faulted, the live batch, and the TTFT/TPOT the scheduler INTENDED
 * (from due times, not from writes), so a client's measurements can be checked
 * against the schedule.
 */
import { FAULT_KINDS, type FaultKind } from './faults.js';
import { LatenessRecorder, type LatenessSummary } from './lateness.js';

/** A snapshot of the simulator's counters. Times in ms. */
export interface SimStats {
  /** Embeddings and rerank requests the encoder served, and their input tokens. */
  pooling: { requests: number; inputTokens: number };
  /** Valid chat/completions requests accepted (warm-ups and faulted ones included). */
  accepted: number;
  /** Requests that ran to their finish reason (stall and malformed-SSE faults included). */
  completed: number;
  /** Requests whose client went away before the end. */
  cancelled: number;
  /** Generation requests answered 4xx (bad body, unknown model, too long). */
  rejected: number;
  /** Requests answered 429 by the rate limit it plays (--rate-limit-rpm, --rate-limit-tpm). */
  rateLimited: number;
  /** Images given by URL that the simulator fetched (from loopback) before queueing their requests. */
  imagesFetched: number;
  /** Faults injected, by kind. */
  faults: Record<FaultKind, number>;
  /** Sequences admitted now (prefilling or decoding). */
  running: number;
  /** Sequences queued now. */
  waiting: number;
  /** KV tokens reserved now. */
  kvReservedTokens: number;
  /** Mean intended TTFT of completed requests (first token due − arrival), ms; null before any. */
  meanTtftMs: number | null;
  /** Mean intended TPOT of completed requests with ≥ 2 tokens ((last − first due) / (tokens − 1)), ms. */
  meanTpotMs: number | null;
  /** Prompt and output tokens of completed requests. */
  promptTokens: number;
  completionTokens: number;
  /** How late token writes were against the schedule (write return − due time), ms. */
  writeLateness: LatenessSummary;
  /** True after `dieAfterRequests` killed the server. */
  dead: boolean;
}

/** Mutable counters behind `SimStats`. */
export class StatsCollector {
  accepted = 0;
  completed = 0;
  cancelled = 0;
  rejected = 0;
  rateLimited = 0;
  imagesFetched = 0;
  promptTokens = 0;
  completionTokens = 0;
  dead = false;
  readonly lateness = new LatenessRecorder();
  readonly faults = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  private ttftSumMs = 0;
  private tpotSumMs = 0;
  private tpotCount = 0;

  /** Records a completed request from its intended instants (ms). */
  complete(arrivalMs: number, firstDueMs: number, lastDueMs: number, promptTokens: number, outputTokens: number): void {
    this.completed++;
    this.promptTokens += promptTokens;
    this.completionTokens += outputTokens;
    this.ttftSumMs += firstDueMs - arrivalMs;
    if (outputTokens >= 2) {
      this.tpotSumMs += (lastDueMs - firstDueMs) / (outputTokens - 1);
      this.tpotCount++;
    }
  }

  /** A snapshot, with the live batch figures supplied by the engine. */
  snapshot(live: { running: number; waiting: number; kvReservedTokens: number; pooling: SimStats['pooling'] }): SimStats {
    return {
      accepted: this.accepted,
      completed: this.completed,
      cancelled: this.cancelled,
      rejected: this.rejected,
      rateLimited: this.rateLimited,
      imagesFetched: this.imagesFetched,
      faults: { ...this.faults },
      ...live,
      meanTtftMs: this.completed > 0 ? this.ttftSumMs / this.completed : null,
      meanTpotMs: this.tpotCount > 0 ? this.tpotSumMs / this.tpotCount : null,
      promptTokens: this.promptTokens,
      completionTokens: this.completionTokens,
      writeLateness: this.lateness.summary(),
      dead: this.dead,
    };
  }
}
