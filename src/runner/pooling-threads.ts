/**
 * Client threads for an embeddings or rerank sweep: the same threads as a text
 * sweep's (client-threads.ts keeps them), each with its own event loop and
 * pooling client. A level's shares go to the first n threads; once every share
 * has sent its warm-ups one start instant is named a little ahead for all; the
 * records come back in batches on the main clock and are merged by the caller.
 */
import type { Worker } from 'node:worker_threads';
import type { PoolingRecord, Spread } from '../core/index.js';
import { monotonicNs } from '../client/index.js';
import { type PoolingThreadInit, type ToThread, driveLevel, releaseThread, takeThread } from './client-threads.js';
import { SweepError } from './errors.js';
import type { PoolingSharePlan } from './pooling-share.js';

/** One share's end: its records and its own client's view of itself. */
export interface PoolingShareResult {
  label: string;
  records: PoolingRecord[];
  loopDelayMs: Spread | null;
  busyPct: number | null;
}

export interface PoolingThreads {
  size: number;
  /** Every level goes through the pool, even one with a single share (workers on other machines: this process sends nothing). */
  always?: boolean;
  /** Runs the level's shares (at most `size`), one per thread; rejects naming a thread that failed or exited. */
  runLevel(concurrency: number, plans: readonly PoolingSharePlan[], signal: AbortSignal, onRecord: (r: PoolingRecord) => void): Promise<PoolingShareResult[]>;
  close(): Promise<void>;
}

export function startPoolingThreads(n: number, init: Omit<PoolingThreadInit, 'connections' | 'originHrNs'>, connections: number): PoolingThreads {
  const originHrNs = Number(process.hrtime.bigint()) - monotonicNs();
  const threads: Worker[] = Array.from({ length: n }, takeThread);
  const exited = new Set<number>();
  const offs = threads.map((t, i) => {
    const onExit = () => exited.add(i);
    t.once('exit', onExit);
    t.postMessage({ type: 'pooling-init', init: { ...init, originHrNs, connections: Math.max(1, Math.ceil((connections - i) / n)) } } satisfies ToThread);
    return () => t.off('exit', onExit);
  });

  async function runLevel(
    concurrency: number,
    plans: readonly PoolingSharePlan[],
    signal: AbortSignal,
    onRecord: (r: PoolingRecord) => void,
  ): Promise<PoolingShareResult[]> {
    const used = threads.slice(0, plans.length);
    const dead = used.findIndex((_, i) => exited.has(i));
    if (dead !== -1) throw new SweepError('client-failed', `client thread ${dead + 1} exited before the level`);
    const results: PoolingShareResult[] = used.map((_, i) => ({ label: `thread ${i + 1}`, records: [], loopDelayMs: null, busyPct: null }));
    await driveLevel(used, {
      signal,
      levelMessage: (i) => ({ type: 'pooling-level', concurrency, plan: plans[i] as PoolingSharePlan }),
      beforeStart: async () => {},
      exitNote: () => '',
      onMessage(i, m) {
        const share = results[i] as PoolingShareResult;
        if (m.type === 'records') {
          for (const r of JSON.parse(new TextDecoder().decode(m.bytes)) as PoolingRecord[]) {
            share.records.push(r);
            onRecord(r);
          }
        } else if (m.type === 'pooling-done') {
          share.loopDelayMs = m.loopDelayMs;
          share.busyPct = m.busyPct;
          return true;
        }
        return false;
      },
    });
    return results;
  }

  async function close(): Promise<void> {
    await Promise.all(
      threads.map((t, i) => {
        (offs[i] as () => void)();
        return releaseThread(t, exited.has(i));
      }),
    );
  }

  return { size: n, runLevel, close };
}
