/**
 * The main thread's side of client threads. It starts N threads once per sweep
 * (client-thread.ts), gives each level's shares to the first n of them, waits
 * until every share is ready (warm-ups sent, sockets open), lets telemetry open
 * its window, and then names one start instant a little ahead for all of them.
 * Records arrive in batches; the level is computed from the merged raw records
 * by the caller, and each thread's loop delay and busy share come back with
 * them so each share is judged on its own.
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RequestRecord, ShareRecords, Spread } from '../core/index.js';
import type { DialectKind, PoolingRoute, Target } from '../client/index.js';
import type { PoolingSharePlan } from './pooling-share.js';
import { monotonicNs } from '../client/index.js';
import type { RunState } from './run-state.js';
import type { SweepSpec } from './sweep-spec.js';
import { SweepError } from './errors.js';

/** What a thread is started with (structured-cloned once). */
export interface ThreadInit {
  spec: SweepSpec;
  /** What the sweep set for itself (its image server's address); none when absent. */
  state?: RunState;
  model: string;
  dialect: DialectKind;
  runId: string;
  /** The thread's sockets: its share of the sweep's most. */
  connections: number;
  /** process.hrtime in ns at the main thread's clock zero: every thread stamps on the main clock. */
  originHrNs: number;
}

export type ToThread =
  | { type: 'init'; init: ThreadInit }
  | { type: 'level'; index: number; count: number; concurrency: number; requests: number; promptOffset: number }
  | { type: 'start'; atNs: number }
  | { type: 'stop' }
  /** The sweep is over: close its sockets and wait for the next sweep's init. */
  | { type: 'release' }
  /** An embeddings or rerank sweep (pooling-threads.ts): this thread's pooling client… */
  | { type: 'pooling-init'; init: PoolingThreadInit }
  /** …and its share of one level, sent once its warm-ups are done and the start instant has come. */
  | { type: 'pooling-level'; concurrency: number; plan: PoolingSharePlan };

export type FromThread =
  | { type: 'released' }
  | { type: 'ready' }
  | { type: 'records'; bytes: Uint8Array }
  | { type: 'done'; serverFailure: string | null; waitedForSlot: number; scheduledNs: number[] | null; loopDelayMs: Spread | null; busyPct: number | null }
  | { type: 'failed'; message: string }
  | { type: 'pooling-done'; loopDelayMs: Spread | null; busyPct: number | null };

/** What a thread sending pooling requests is started with. */
export interface PoolingThreadInit {
  target: Target;
  route: PoolingRoute;
  model: string;
  connections: number;
  timeoutMs: number;
  idleMs: number;
  originHrNs: number;
}

/** The start instant is named this far ahead of the last ready share, ns: room for the message to reach every thread. */
const START_AHEAD_NS = 20e6;
/** A thread that has not released its sockets this long after being asked is ended, ms. */
const CLOSE_MS = 5000;

/** One level sent by several threads, put back together. */
export interface ThreadedLevel {
  records: RequestRecord[];
  shares: ShareRecords[];
  serverFailure: string | null;
  scheduledNs: number[] | null;
  waitedForSlot: number;
}

export interface LevelOnThreads {
  concurrency: number;
  requests: number;
  promptOffset: number;
  /** How many threads share this level (at most the pool's). */
  count: number;
  signal: AbortSignal;
  onRecord(r: RequestRecord): void;
  beforeMeasured(): Promise<void>;
}

export interface ClientThreads {
  size: number;
  /** Every level goes through the pool, even one with a single share (workers on other machines: this process sends nothing). */
  always?: boolean;
  runLevel(level: LevelOnThreads): Promise<ThreadedLevel>;
  close(): Promise<void>;
}

/**
 * Threads a level of `streams` streams is split over: the asked number (or, for
 * 'auto', the machine's cores), at most `streams` (every thread needs a stream).
 * Not more for a bigger burst: threads past the cores only take turns on them, and
 * measured they wrote a 1,024 burst later (docs/development.md, "Threads by load").
 */
export function threadsFor(asked: number | 'auto', streams: number, cores = availableParallelism()): number {
  const n = asked === 'auto' ? cores : asked;
  return Math.max(1, Math.min(n, Math.floor(streams)));
}

const fromSource = import.meta.url.endsWith('.ts');
const entry = new URL(fromSource ? './client-thread.ts' : './client-thread.js', import.meta.url);

/** From source (tests, tsx), the thread loads TypeScript through tsx's loader, registered in the thread itself. */
function spawnThread(): Worker {
  if (!fromSource) return new Worker(fileURLToPath(entry));
  // tsx's ESM API (its `import` export: the CommonJS one cannot register the loader in a thread).
  const pkg = createRequire(import.meta.url).resolve('tsx/package.json');
  const exported = (JSON.parse(readFileSync(pkg, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api'];
  const api = new URL(exported?.import.default ?? './dist/esm/api/index.mjs', pathToFileURL(pkg)).href;
  const boot = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(boot, { eval: true });
}

/**
 * Threads a finished sweep released, kept for the next sweep of this process (the
 * API runs many): starting one costs its module loading, ~0.1 s built and ~0.5 s
 * from source. Unreferenced, so they never keep the process alive.
 */
const idle: Worker[] = [];
/** At most this many idle threads are kept. */
const IDLE_MAX = Math.max(2, 2 * availableParallelism());

export function takeThread(): Worker {
  for (let t = idle.pop(); t !== undefined; t = idle.pop()) if (t.threadId !== -1) return t;
  const t = spawnThread();
  t.unref();
  // An idle thread has no sweep listening: its failure must not take the process down (the next sweep sees it exited).
  t.on('error', () => {});
  return t;
}

/** What one level over some threads needs from its caller (driveLevel). */
export interface LevelDrive {
  signal: AbortSignal;
  /** The message that gives thread `i` its share. */
  levelMessage(i: number): ToThread;
  /** Awaited once every share is ready, before the start instant is named (telemetry opens its window). */
  beforeStart(): Promise<void>;
  /** Every message but ready and failed; true when thread `i` has finished its share. `stopAll` stops every share. */
  onMessage(i: number, m: FromThread, stopAll: () => void): boolean;
  /** Appended to an exit's message (what broke the thread, when known). */
  exitNote(): string;
}

/**
 * Runs one level over `used` threads: gives each its share, names one start
 * instant a little ahead once all are ready, hands their messages to the caller,
 * and settles when every share is done — or rejects naming the thread that
 * failed or exited, after stopping the others. A stop (the signal) reaches every share.
 */
export async function driveLevel(used: readonly Worker[], o: LevelDrive): Promise<void> {
  const stopAll = () => {
    for (const t of used) t.postMessage({ type: 'stop' } satisfies ToThread);
  };
  o.signal.addEventListener('abort', stopAll, { once: true });
  try {
    await new Promise<void>((resolve, reject) => {
      let ready = 0;
      let done = 0;
      const listeners = used.map((t, i) => {
        const onMessage = (m: FromThread) => {
          if (m.type === 'ready') {
            if (++ready === used.length) {
              void o.beforeStart().then(() => {
                const atNs = monotonicNs() + START_AHEAD_NS;
                for (const u of used) u.postMessage({ type: 'start', atNs } satisfies ToThread);
              }, reject);
            }
          } else if (m.type === 'failed') finish(new SweepError('client-failed', `client thread ${i + 1} failed: ${m.message}`));
          else if (o.onMessage(i, m, stopAll) && ++done === used.length) finish(null);
        };
        const onExit = (code: number) =>
          finish(new SweepError('client-failed', `client thread ${i + 1} exited (code ${code}) during the level${o.exitNote()}`));
        t.on('message', onMessage);
        t.once('exit', onExit);
        return () => {
          t.off('message', onMessage);
          t.off('exit', onExit);
        };
      });
      const finish = (err: Error | null) => {
        for (const off of listeners) off();
        if (err) {
          stopAll();
          reject(err);
        } else resolve();
      };
      for (const [i, t] of used.entries()) t.postMessage(o.levelMessage(i));
    });
  } finally {
    o.signal.removeEventListener('abort', stopAll);
  }
}

/** A thread's sweep is over: it closes its sockets and goes back to the idle pool (or is ended when it does not answer, or the pool is full). */
export function releaseThread(t: Worker, exited: boolean): Promise<void> {
  return new Promise<void>((resolve) => {
    if (exited) return resolve();
    const done = (keep: boolean) => {
      clearTimeout(timer);
      t.off('message', onMessage);
      if (keep && idle.length < IDLE_MAX) idle.push(t);
      else void t.terminate();
      resolve();
    };
    const onMessage = (m: FromThread) => {
      if (m.type === 'released') done(true);
    };
    const timer = setTimeout(() => done(false), CLOSE_MS);
    t.on('message', onMessage);
    t.postMessage({ type: 'release' } satisfies ToThread);
  });
}

/** Starts `n` client threads for a sweep, each with its share of `connections` sockets. */
export function startClientThreads(n: number, base: Omit<ThreadInit, 'connections' | 'originHrNs'>, connections: number): ClientThreads {
  const originHrNs = Number(process.hrtime.bigint()) - monotonicNs();
  const threads = Array.from({ length: n }, takeThread);
  let broken: Error | null = null;
  const exited = new Set<number>();
  const listeners = threads.map((t, i) => {
    const onError = (err: Error) => {
      broken ??= new Error(`client thread ${i + 1} failed: ${err.message}`);
    };
    const onExit = () => exited.add(i);
    t.on('error', onError);
    t.once('exit', onExit);
    t.postMessage({ type: 'init', init: { ...base, originHrNs, connections: Math.max(1, Math.ceil((connections - i) / n)) } } satisfies ToThread);
    return () => {
      t.off('error', onError);
      t.off('exit', onExit);
    };
  });

  async function runLevel(level: LevelOnThreads): Promise<ThreadedLevel> {
    const used = threads.slice(0, level.count);
    // A thread that died between levels would never say ready.
    const dead = used.findIndex((_, i) => exited.has(i));
    if (dead !== -1)
      throw new SweepError('client-failed', `client thread ${dead + 1} exited before the level${broken ? `: ${(broken as Error).message}` : ''}`);
    const shares: ShareRecords[] = used.map((_, i) => ({ label: `thread ${i + 1}`, records: [], clockOffsetNs: 0, loopDelayMs: null, clientCpuPct: null }));
    let serverFailure: string | null = null;
    let scheduledNs: number[] | null = null;
    let waitedForSlot = 0;
    await driveLevel(used, {
      signal: level.signal,
      levelMessage: (i) => ({
        type: 'level',
        index: i,
        count: used.length,
        concurrency: level.concurrency,
        requests: level.requests,
        promptOffset: level.promptOffset,
      }),
      beforeStart: level.beforeMeasured,
      exitNote: () => (broken ? `: ${(broken as Error).message}` : ''),
      onMessage(i, m, stopAll) {
        const share = shares[i] as ShareRecords & { records: RequestRecord[] };
        if (m.type === 'records') {
          for (const r of JSON.parse(new TextDecoder().decode(m.bytes)) as RequestRecord[]) {
            share.records.push(r);
            level.onRecord(r);
          }
        } else if (m.type === 'done') {
          share.loopDelayMs = m.loopDelayMs;
          share.clientCpuPct = m.busyPct;
          waitedForSlot += m.waitedForSlot;
          scheduledNs ??= m.scheduledNs;
          if (m.serverFailure !== null && serverFailure === null) {
            serverFailure = m.serverFailure;
            stopAll();
          }
          return true;
        }
        return false;
      },
    });
    const records = shares.flatMap((s) => s.records).sort((a, b) => a.seq - b.seq);
    return { records, shares, serverFailure, scheduledNs, waitedForSlot };
  }

  /** Each thread closes this sweep's sockets and goes back to the idle pool (or is ended when it does not answer, or the pool is full). */
  async function close(): Promise<void> {
    await Promise.all(
      threads.map((t, i) => {
        (listeners[i] as () => void)();
        return releaseThread(t, exited.has(i));
      }),
    );
  }

  return { size: n, runLevel, close };
}
