/**
 * The performance model's engine: continuous batching with a FIFO queue, a batch
 * limit, a KV-cache budget and a prefix cache. Each admitted sequence runs on its
 * own timeline of absolute due times: first token at admission + prefill, then one
 * emission per decode step, the step time taken from the number of sequences
 * running at that step (`independent` step timing), or on one engine-wide step loop
 * that emits for every ready sequence at once (`batched`, see step-timing.ts).
 * With a draft model each decode step carries the tokens its verification accepted
 * plus the bonus token; without one, `tokensPerChunk`. A sequence leaves at its last emission (or on cancel), which
 * frees its slot and KV reservation and admits the queue head at that same instant.
 */
import type { DraftModel } from './draft-model.js';
import type { PrefixCache } from './prefix-cache.js';
import type { SimProfile } from './profile-schema.js';
import type { Scheduler } from './scheduler.js';
import type { Sequence, SequenceEvents, SequenceSpec } from './sequence.js';
import { stepTiming, type StepTiming } from './step-timing.js';

/** Continuous-batching engine over one scheduler. */
export class BatchEngine {
  private readonly running = new Set<Sequence>();
  private queue: Sequence[] = [];
  private queueHead = 0;
  private queued = 0;
  private kvReserved = 0;
  private readonly timing: StepTiming;

  constructor(
    private readonly profile: SimProfile,
    private readonly scheduler: Scheduler,
    private readonly cache: PrefixCache | null,
    private readonly draft: DraftModel | null = null,
  ) {
    this.timing = stepTiming(profile.stepTiming, scheduler, () => this.stepMs());
  }

  /** Sequences admitted (prefilling or decoding). */
  get runningCount(): number {
    return this.running.size;
  }
  /** Sequences queued for admission. */
  get waitingCount(): number {
    return this.queued;
  }
  /** KV tokens reserved by admitted sequences. */
  get kvReservedTokens(): number {
    return this.kvReserved;
  }

  /** Decode step time now, ms: base + (running − 1) × per-extra-sequence cost. */
  stepMs(): number {
    return this.profile.decodeStepMs + Math.max(0, this.running.size - 1) * this.profile.decodeMsPerExtraSeq;
  }

  /** Queues a sequence (FIFO) and admits what fits at `atMs`. */
  submit(spec: SequenceSpec, events: SequenceEvents, atMs: number): Sequence {
    const seq: Sequence = { spec, events, state: 'waiting', next: null };
    this.queue.push(seq);
    this.queued++;
    this.admit(atMs);
    return seq;
  }

  /** Ends a sequence early (client gone, fault): frees its slot and KV at `atMs`. */
  cancel(seq: Sequence, atMs: number): void {
    if (seq.state === 'waiting') {
      seq.state = 'done';
      this.queued--;
    } else if (seq.state === 'running') {
      this.release(seq, atMs);
    }
  }

  /** Drops every sequence without callbacks (the server died or closed). */
  halt(): void {
    this.timing.halt();
    for (const seq of [...this.running, ...this.queue]) {
      this.scheduler.cancel(seq.next);
      seq.state = 'done';
    }
    this.running.clear();
    this.queue = [];
    this.queueHead = 0;
    this.queued = 0;
    this.kvReserved = 0;
  }

  private admit(atMs: number): void {
    const { maxBatch, kvCacheTokens } = this.profile;
    while (this.queueHead < this.queue.length) {
      const seq = this.queue[this.queueHead] as Sequence;
      if (seq.state === 'done') {
        this.queueHead++;
        continue;
      }
      if (this.running.size >= maxBatch || this.kvReserved + seq.spec.kvTokens > kvCacheTokens) break;
      this.queueHead++;
      this.queued--;
      this.start(seq, atMs);
    }
    if (this.queueHead > 1024 && this.queueHead * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.queueHead);
      this.queueHead = 0;
    }
  }

  private start(seq: Sequence, atMs: number): void {
    const { prefixBlockTokens, prefillBaseMs, prefillMsPerToken } = this.profile;
    seq.state = 'running';
    this.running.add(seq);
    this.kvReserved += seq.spec.kvTokens;
    const cachedTokens = this.cache === null ? 0 : this.cache.lookup(seq.spec.blockKeys) * prefixBlockTokens;
    seq.events.onAdmit(atMs, cachedTokens);
    const remote = seq.spec.remoteKvMs;
    const computed = remote === undefined ? prefillMsPerToken * (seq.spec.promptTokens - cachedTokens) : remote;
    const prefillMs = prefillBaseMs + computed + (seq.spec.encoderMs ?? 0);
    this.schedule(seq, 0, atMs + prefillMs, 0);
  }

  /** Schedules emission `index`, whose tokens start at `from`. */
  private schedule(seq: Sequence, index: number, dueMs: number, from: number): void {
    const stall = seq.spec.stall;
    const due = stall !== null && stall.beforeEmission === index ? dueMs + stall.ms : dueMs;
    this.timing.schedule(seq, due, (firedDueMs) => this.emit(seq, index, firedDueMs, from));
  }

  /** Tokens emission `index` carries: the prefill's one, then a verification's or `tokensPerChunk`. */
  private stepTokens(index: number): number {
    if (index === 0) return 1;
    return this.draft === null ? this.profile.tokensPerChunk : this.draft.verify();
  }

  private emit(seq: Sequence, index: number, dueMs: number, from: number): void {
    seq.next = null;
    if (seq.state !== 'running') return;
    if (index === 0) this.cache?.insert(seq.spec.blockKeys);
    const total = seq.spec.outputTokens;
    const to = Math.min(total, from + this.stepTokens(index));
    const last = to >= total;
    const goOn = seq.events.onEmit({ index, from, to, last, dueMs });
    if (seq.state !== 'running') return;
    if (last || !goOn) this.release(seq, dueMs);
    // A slower adapter's step is ready later: on the batched loop it then joins a later step.
    else this.schedule(seq, index + 1, this.timing.nextReadyMs(dueMs) + (seq.spec.stepExtraMs ?? 0), to);
  }

  private release(seq: Sequence, atMs: number): void {
    this.scheduler.cancel(seq.next);
    seq.next = null;
    seq.state = 'done';
    this.running.delete(seq);
    this.kvReserved -= seq.spec.kvTokens;
    this.admit(atMs);
  }
}
