/**
 * When a sequence's emissions leave, in the two server modes the bench runs.
 * `independent`: each sequence on its own timeline (first token at admission +
 * prefill, then one emission per decode step after its own previous one), so
 * writes are spread over time. `batched`: one engine-wide step loop, as vLLM
 * runs: every step emits one chunk for every sequence ready by then, all in the
 * same instant, so the client receives a burst of C events per step.
 */
import type { TimedTask } from './min-heap.js';
import type { Scheduler } from './scheduler.js';
import type { Sequence } from './sequence.js';

export const STEP_TIMINGS = ['independent', 'batched'] as const;
export type StepTimingKind = (typeof STEP_TIMINGS)[number];

/** Places emissions in time; `fire(dueMs)` runs the emission. */
export interface StepTiming {
  /** When the emission after one made at `prevDueMs` becomes ready, ms. */
  nextReadyMs(prevDueMs: number): number;
  /** Runs `fire` at the first instant this timing allows at or after `readyMs`. */
  schedule(seq: Sequence, readyMs: number, fire: (dueMs: number) => void): void;
  /** Drops everything scheduled (the server stopped). */
  halt(): void;
}

class IndependentTiming implements StepTiming {
  constructor(
    private readonly scheduler: Scheduler,
    private readonly stepMs: () => number,
  ) {}
  nextReadyMs(prevDueMs: number): number {
    return prevDueMs + this.stepMs();
  }
  schedule(seq: Sequence, readyMs: number, fire: (dueMs: number) => void): void {
    seq.next = this.scheduler.at(readyMs, fire);
  }
  halt(): void {}
}

interface Ready {
  seq: Sequence;
  readyMs: number;
  fire: (dueMs: number) => void;
}

/**
 * The step loop runs while anything waits to emit; an idle engine restarts it at
 * the ready time of the first sequence that arrives. A decode emission is ready
 * at once and leaves at the next step, so every running sequence emits once per
 * step; a first token leaves at the first step at or after its prefill ends.
 */
class BatchedTiming implements StepTiming {
  private pending: Ready[] = [];
  private step: TimedTask | null = null;
  private inStep = false;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly stepMs: () => number,
  ) {}

  nextReadyMs(prevDueMs: number): number {
    return prevDueMs;
  }

  schedule(seq: Sequence, readyMs: number, fire: (dueMs: number) => void): void {
    this.pending.push({ seq, readyMs, fire });
    if (!this.inStep && this.step === null) this.step = this.scheduler.at(readyMs, this.run);
  }

  halt(): void {
    this.scheduler.cancel(this.step);
    this.step = null;
    this.pending = [];
  }

  private readonly run = (dueMs: number): void => {
    this.step = null;
    this.inStep = true;
    const now = this.pending;
    this.pending = [];
    try {
      for (const p of now) {
        if (p.seq.state !== 'running') continue;
        if (p.readyMs <= dueMs) p.fire(dueMs);
        else this.pending.push(p);
      }
    } finally {
      this.inStep = false;
    }
    if (this.pending.length === 0) return;
    const nextMs = dueMs + this.stepMs();
    let soonest = Infinity;
    for (const p of this.pending) soonest = Math.min(soonest, p.readyMs);
    // Only prefills pending: the loop idles until the first of them is ready.
    this.step = this.scheduler.at(soonest <= nextMs ? nextMs : soonest, this.run);
  };
}

/** The timing of a kind, over the engine's scheduler and its current step time (ms). */
export function stepTiming(kind: StepTimingKind, scheduler: Scheduler, stepMs: () => number): StepTiming {
  return kind === 'batched' ? new BatchedTiming(scheduler, stepMs) : new IndependentTiming(scheduler, stepMs);
}
