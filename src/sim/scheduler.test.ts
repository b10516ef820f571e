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
  it('runs tasks in due order, never before their due time, with sub-millisecond typical lateness', { retry: 2 }, async () => {
    const s = new Scheduler();
    const start = s.now();
    const ran: Array<{ id: number; due: number; at: number }> = [];
    const dues = [30, 5, 12, 12, 2, 25, 8];
    await new Promise<void>((resolve) => {
      dues.forEach((d, id) => s.at(start + d, (due) => {
        ran.push({ id, due, at: s.now() });
        if (ran.length === dues.length) resolve();
      }));
    });
    expect(ran.map((r) => r.id)).toEqual([4, 1, 6, 2, 3, 5, 0]);
    for (const r of ran) expect(r.at).toBeGreaterThanOrEqual(r.due);
    const late = ran.map((r) => r.at - r.due).sort((a, b) => a - b);
    expect(late[3]).toBeLessThan(1);
  });

  it('keeps a chained timeline on absolute due times, so lateness does not accumulate', async () => {
    const s = new Scheduler();
    const start = s.now();
    const dues: number[] = [];
    let last = 0;
    await new Promise<void>((resolve) => {
      const step = (due: number) => {
        dues.push(due);
        const block = s.now() + 2; // 2 ms of work per step must not push the timeline
        while (s.now() < block) { /* busy */ }
        last = s.now();
        if (dues.length < 20) s.at(due + 5, step);
        else resolve();
      };
      s.at(start + 5, step);
    });
    expect(dues.at(-1)).toBeCloseTo(start + 100, 6);
    expect(last - (start + 100)).toBeLessThan(10);
  });

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
