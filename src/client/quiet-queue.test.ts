/**
 * The quiet queue holds work while more keeps coming (a burst of ends), runs it
 * in order once a millisecond passes with none, a few items per turn of the
 * loop (other work queued meanwhile runs between), and never holds its oldest
 * item past the longest wait.
 */
import { describe, expect, it, vi } from 'vitest';
import { quietQueue } from './quiet-queue.js';

describe('quietQueue', () => {
  it('waits for a quiet millisecond, then runs the work in order', () => {
    vi.useFakeTimers();
    try {
      let t = 0;
      const q = quietQueue(100, () => t);
      const ran: number[] = [];
      q.push(() => ran.push(1));
      t = 0.5;
      q.push(() => ran.push(2));
      vi.advanceTimersByTime(1);
      // 0.5 ms since the last push: not quiet yet.
      expect(ran).toEqual([]);
      t = 2;
      vi.advanceTimersByTime(1);
      expect(ran).toEqual([1, 2]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('runs the oldest once it has waited the longest wait, even while more keeps coming', () => {
    vi.useFakeTimers();
    try {
      let t = 0;
      const q = quietQueue(20, () => t);
      const ran: number[] = [];
      let pushed = 0;
      while (ran.length === 0 && pushed < 100) {
        q.push(() => ran.push(pushed));
        pushed++;
        t += 0.5;
        vi.advanceTimersByTime(1);
      }
      // A push every 0.5 ms is never quiet: it ran because the first had waited 20 ms.
      expect(pushed).toBe(40);
      expect(ran.length).toBe(32);
    } finally {
      vi.useRealTimers();
    }
  });

  it('runs a long queue 32 items per turn, letting the loop in between', async () => {
    const q = quietQueue(100);
    const order: string[] = [];
    for (let i = 0; i < 40; i++)
      q.push(() => {
        order.push(`item ${i}`);
        if (i === 0) setImmediate(() => order.push('other work'));
      });
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toHaveLength(41);
    expect(order.indexOf('other work')).toBe(32);
  });
});
