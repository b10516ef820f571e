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
import { type FromThread, type PoolingThreadInit, type ToThread, releaseThread, takeThread } from './client-threads.js';
import { SweepError } from './errors.js';
import type { PoolingSharePlan } from './pooling-share.js';

/** The start instant is named this far ahead of the last ready share, ns. */
const START_AHEAD_NS = 20e6;

/** One share's end: its records and its own client's view of itself. */
export interface PoolingShareResult { label: string; records: PoolingRecord[]; loopDelayMs: Spread | null; busyPct: number | null }

export interface PoolingThreads {
  size: number;
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

  async function runLevel(concurrency: number, plans: readonly PoolingSharePlan[], signal: AbortSignal, onRecord: (r: PoolingRecord) => void): Promise<PoolingShareResult[]> {
    const used = threads.slice(0, plans.length);
    const dead = used.findIndex((_, i) => exited.has(i));
    if (dead !== -1) throw new SweepError('client-failed', `client thread ${dead + 1} exited before the level`);
    const results: PoolingShareResult[] = used.map((_, i) => ({ label: `thread ${i + 1}`, records: [], loopDelayMs: null, busyPct: null }));
    const stopAll = () => { for (const t of used) t.postMessage({ type: 'stop' } satisfies ToThread); };
    signal.addEventListener('abort', stopAll, { once: true });
    try {
      await new Promise<void>((resolve, reject) => {
        let ready = 0;
        let done = 0;
        const listeners = used.map((t, i) => {
          const share = results[i] as PoolingShareResult;
          const onMessage = (m: FromThread) => {
            if (m.type === 'ready') {
              if (++ready === used.length) {
                const atNs = monotonicNs() + START_AHEAD_NS;
                for (const u of used) u.postMessage({ type: 'start', atNs } satisfies ToThread);
              }
            } else if (m.type === 'records') {
              for (const r of JSON.parse(new TextDecoder().decode(m.bytes)) as PoolingRecord[]) {
                share.records.push(r);
                onRecord(r);
              }
            } else if (m.type === 'pooling-done') {
              share.loopDelayMs = m.loopDelayMs;
              share.busyPct = m.busyPct;
              if (++done === used.length) finish(null);
            } else if (m.type === 'failed') finish(new SweepError('client-failed', `client thread ${i + 1} failed: ${m.message}`));
          };
          const onExit = (code: number) => finish(new SweepError('client-failed', `client thread ${i + 1} exited (code ${code}) during the level`));
          t.on('message', onMessage);
          t.once('exit', onExit);
          return () => { t.off('message', onMessage); t.off('exit', onExit); };
        });
        const finish = (err: Error | null) => {
          for (const off of listeners) off();
          if (err) {
            stopAll();
            reject(err);
          } else resolve();
        };
        for (const [i, t] of used.entries()) t.postMessage({ type: 'pooling-level', concurrency, plan: plans[i] as PoolingSharePlan } satisfies ToThread);
      });
    } finally {
      signal.removeEventListener('abort', stopAll);
    }
    return results;
  }

  async function close(): Promise<void> {
    await Promise.all(threads.map((t, i) => {
      (offs[i] as () => void)();
      return releaseThread(t, exited.has(i));
    }));
  }

  return { size: n, runLevel, close };
}
