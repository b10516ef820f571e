/**
 * A binary min-heap of timed tasks ordered by due time (ms), ties broken by
 * insertion order so equal due times run first-in first-out.
 */

/** A task due at an absolute time on the scheduler's clock. */
export interface TimedTask {
  /** Absolute due time, ms (performance.now() clock). */
  readonly dueMs: number;
  /** Insertion counter; breaks ties between equal due times. */
  readonly order: number;
  /** Set by `cancel`; a cancelled task is dropped when it reaches the top. */
  cancelled: boolean;
  readonly run: (dueMs: number) => void;
}

function before(a: TimedTask, b: TimedTask): boolean {
  return a.dueMs < b.dueMs || (a.dueMs === b.dueMs && a.order < b.order);
}

/** Min-heap on (dueMs, order). */
export class MinHeap {
  private readonly items: TimedTask[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): TimedTask | undefined {
    return this.items[0];
  }

  push(task: TimedTask): void {
    const items = this.items;
    items.push(task);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = items[parent] as TimedTask;
      if (!before(task, p)) break;
      items[i] = p;
      i = parent;
    }
    items[i] = task;
  }

  pop(): TimedTask | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    const n = items.length;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const child = r < n && before(items[r] as TimedTask, items[l] as TimedTask) ? r : l;
      const c = items[child] as TimedTask;
      if (!before(c, last)) break;
      items[i] = c;
      i = child;
    }
    items[i] = last;
    return top;
  }

  clear(): void {
    this.items.length = 0;
  }
}
