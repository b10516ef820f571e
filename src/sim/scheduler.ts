/**
 * The simulator's single clock-driven scheduler. All timed work (first tokens,
 * decode steps) is a task with an ABSOLUTE due time in a min-heap; one timer is
 * armed for the earliest task, and when it fires every due task runs, in due order.
 * Node's setTimeout has ~1 ms granularity and may fire early or late by about a
 * millisecond, so the timer is set short of the due time and the last stretch is
 * covered by spinning on setImmediate (which still lets I/O run between turns).
 * Tasks never run early: each one is checked against `performance.now()`.
 */
import { MinHeap, type TimedTask } from './min-heap.js';

/** Below this wait (ms) the scheduler spins instead of arming a timer. */
const SPIN_BELOW_MS = 2;
/** A timer is set this much short of the due time (ms); the rest is spun. */
const TIMER_MARGIN_MS = 1.5;
/** At most this many tasks run per turn before I/O gets a chance. */
const MAX_TASKS_PER_TURN = 20_000;
/** A turn yields to I/O after running this long (ms), so arrivals are read (and stamped) on time. */
const MAX_TURN_MS = 5;

/** Clock in ms, monotonic (performance.now()). */
export type ClockMs = () => number;

/** Runs tasks at absolute due times with sub-millisecond lateness. */
export class Scheduler {
  private readonly heap = new MinHeap();
  private order = 0;
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private armedDueMs = Number.POSITIVE_INFINITY;
  private inTurn = false;
  private stopped = false;

  constructor(readonly now: ClockMs = () => performance.now()) {}

  /**
   * Schedules `run(dueMs)` at the absolute time `dueMs` (ms, this scheduler's clock).
   * A due time in the past runs on the next turn. Returns the task, for `cancel`.
   */
  at(dueMs: number, run: (dueMs: number) => void): TimedTask {
    const task: TimedTask = { dueMs, order: this.order++, cancelled: false, run };
    if (this.stopped) return { ...task, cancelled: true };
    this.heap.push(task);
    if (!this.inTurn && dueMs < this.armedDueMs) this.arm();
    return task;
  }

  /** Cancels a task; it is dropped when it reaches the top of the heap. */
  cancel(task: TimedTask | null): void {
    if (task !== null) task.cancelled = true;
  }

  /** Tasks waiting (cancelled ones included until they reach the top). */
  get pending(): number {
    return this.heap.size;
  }

  /** Stops for good: drops every task and disarms the timer. */
  stop(): void {
    this.stopped = true;
    this.disarm();
    this.heap.clear();
  }

  private disarm(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    if (this.immediate !== null) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
    this.armedDueMs = Number.POSITIVE_INFINITY;
  }

  private arm(): void {
    this.disarm();
    let top = this.heap.peek();
    while (top !== undefined && top.cancelled) {
      this.heap.pop();
      top = this.heap.peek();
    }
    if (top === undefined || this.stopped) return;
    this.armedDueMs = top.dueMs;
    const waitMs = top.dueMs - this.now();
    if (waitMs < SPIN_BELOW_MS) this.immediate = setImmediate(this.turn);
    else this.timer = setTimeout(this.turn, Math.floor(waitMs - TIMER_MARGIN_MS));
  }

  private readonly turn = (): void => {
    this.timer = null;
    this.immediate = null;
    this.armedDueMs = Number.POSITIVE_INFINITY;
    this.inTurn = true;
    try {
      const startMs = this.now();
      let nowMs = startMs;
      for (let budget = MAX_TASKS_PER_TURN; budget > 0; budget--) {
        const top = this.heap.peek();
        if (top === undefined) break;
        if (!top.cancelled && top.dueMs > nowMs) {
          nowMs = this.now();
          if (top.dueMs > nowMs) break;
        }
        if ((budget & 31) === 0 && this.now() - startMs > MAX_TURN_MS) break;
        this.heap.pop();
        if (!top.cancelled) top.run(top.dueMs);
      }
    } finally {
      this.inTurn = false;
      this.arm();
    }
  };
}
