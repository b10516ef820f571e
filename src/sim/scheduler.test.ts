/** The min-heap and the scheduler: order, absolute due times, never early, cancel, stop. */
import { describe, expect, it } from 'vitest';
import { MinHeap, type TimedTask } from './min-heap.js';
import { mulberry32 } from './random.js';
import { Scheduler } from './scheduler.js';

const task = (dueMs: number, order: number): TimedTask => ({ dueMs, order, cancelled: false, run: () => undefined });

describe('MinHeap', () => {
  it('pops in (due, insertion) order', () => {
    const heap = new MinHeap();
    const rand = mulberry32(3);
    const tasks = Array.from({ length: 500 }, (_, i) => task(Math.floor(rand() * 50), i));
    for (const t of tasks) heap.push(t);
    const out: TimedTask[] = [];
    for (let t = heap.pop(); t !== undefined; t = heap.pop()) out.push(t);
    expect(out).toEqual([...tasks].sort((a, b) => a.dueMs - b.dueMs || a.order - b.order));
    expect(heap.size).toBe(0);
  });
});

describe('Scheduler', () => {
  it('skips cancelled tasks and runs nothing after stop', async () => {
    const s = new Scheduler();
    const ran: string[] = [];
    const t = s.at(s.now() + 2, () => ran.push('cancelled'));
    s.cancel(t);
    s.at(s.now() + 4, () => ran.push('kept'));
    s.at(s.now() + 30, () => ran.push('after stop'));
    await new Promise((r) => setTimeout(r, 12));
    s.stop();
    s.at(s.now(), () => ran.push('scheduled after stop'));
    await new Promise((r) => setTimeout(r, 40));
    expect(ran).toEqual(['kept']);
    expect(s.pending).toBe(0);
  });
});
