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
import type { PoolingRecord, RequestRecord, RetryPolicy, ShareRecords, Spread } from '../core/index.js';
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
  /** An embeddings or rerank sweep (startPoolingThreads): this thread's pooling client… */
  | { type: 'pooling-init'; init: PoolingThreadInit }
  /** …and its share of one level, sent once its warm-ups are done and the start instant has come. */
  | { type: 'pooling-level'; concurrency: number; plan: PoolingSharePlan };

export type FromThread =
  | { type: 'released' }
  | { type: 'ready' }
  | { type: 'records'; bytes: Uint8Array }
  | { type: 'done'; serverFailure: string | null; waitedForSlot: number; scheduledNs: number[] | null; loopDelayMs: Spread | null; busyPct: number | null }
  | { type: 'failed'; message: string };

/** What a thread sending pooling requests is started with. */
export interface PoolingThreadInit {
  target: Target;
  route: PoolingRoute;
  model: string;
  connections: number;
  timeoutMs: number;
  idleMs: number;
  /** Absent: the client's default policy. */
  retry?: RetryPolicy;
  /** False: no traceparent is sent; absent: one with every request. */
  traceparent?: boolean;
  originHrNs: number;
}

/** One pooling share's end: its records and its own client's view of itself. */
export interface PoolingShareResult {
  label: string;
  records: PoolingRecord[];
  loopDelayMs: Spread | null;
  busyPct: number | null;
}

/** Client threads (or workers elsewhere) an embeddings or rerank sweep splits its levels over. */
export interface PoolingThreads {
  size: number;
  /** Every level goes through the pool, even one with a single share (workers on other machines: this process sends nothing). */
  always?: boolean;
  /** Runs the level's shares (at most `size`), one per thread; rejects naming a thread that failed or exited. */
  runLevel(concurrency: number, plans: readonly PoolingSharePlan[], signal: AbortSignal, onRecord: (r: PoolingRecord) => void): Promise<PoolingShareResult[]>;
  close(): Promise<void>;
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

/** A thread's report that its share is done. */
type ShareDone = Extract<FromThread, { type: 'done' }>;

/** One thread's share of a level as it came back: its records and its report. */
interface ThreadShare<R> {
  label: string;
  records: R[];
  done: ShareDone | null;
}

/** What one level over some threads needs from its caller (driveLevel). */
interface LevelDrive<R> {
  signal: AbortSignal;
  /** The message that gives thread `i` of `count` its share. */
  levelMessage(i: number, count: number): ToThread;
  /** Awaited once every share is ready, before the start instant is named (telemetry opens its window). */
  beforeStart(): Promise<void>;
  onRecord(r: R): void;
}

/**
 * Runs one level over the first `count` threads of the pool: gives each its
 * share, names one start instant a little ahead once all are ready, takes their
 * records as they come, and settles when every share is done (its reports in
 * the order they came) — or rejects naming the thread that failed or exited,
 * after stopping the others. A stop (the signal), or a share that saw the
 * server stop answering, reaches every share.
 */
async function driveLevel<R>(pool: ThreadPool, count: number, o: LevelDrive<R>): Promise<{ shares: ThreadShare<R>[]; dones: ShareDone[] }> {
  pool.checkAlive(count);
  const used = pool.threads.slice(0, count);
  const shares: ThreadShare<R>[] = used.map((_, i) => ({ label: `thread ${i + 1}`, records: [], done: null }));
  const dones: ShareDone[] = [];
  const stopAll = () => {
    for (const t of used) t.postMessage({ type: 'stop' } satisfies ToThread);
  };
  o.signal.addEventListener('abort', stopAll, { once: true });
  try {
    await new Promise<void>((resolve, reject) => {
      let ready = 0;
      const listeners = used.map((t, i) => {
        const share = shares[i] as ThreadShare<R>;
        const onMessage = (m: FromThread) => {
          if (m.type === 'ready' && ++ready === used.length) {
            void o.beforeStart().then(() => {
              const atNs = monotonicNs() + START_AHEAD_NS;
              for (const u of used) u.postMessage({ type: 'start', atNs } satisfies ToThread);
            }, reject);
          } else if (m.type === 'failed') finish(new SweepError('client-failed', `client thread ${i + 1} failed: ${m.message}`));
          else if (m.type === 'records') {
            for (const r of JSON.parse(new TextDecoder().decode(m.bytes)) as R[]) {
              share.records.push(r);
              o.onRecord(r);
            }
          } else if (m.type === 'done') {
            share.done = m;
            if (m.serverFailure !== null && dones.every((d) => d.serverFailure === null)) stopAll();
            if (dones.push(m) === used.length) finish(null);
          }
        };
        const onExit = (code: number) =>
          finish(new SweepError('client-failed', `client thread ${i + 1} exited (code ${code}) during the level${pool.exitNote()}`));
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
      for (const [i, t] of used.entries()) t.postMessage(o.levelMessage(i, used.length));
    });
  } finally {
    o.signal.removeEventListener('abort', stopAll);
  }
  return { shares, dones };
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

/** Threads taken for one sweep, each told its part of the sweep once. */
interface ThreadPool {
  threads: Worker[];
  /** Throws naming a thread among the first `count` that exited between levels: it would never say ready. */
  checkAlive(count: number): void;
  /** Appended to an exit's message: what broke the thread, when known. */
  exitNote(): string;
  close(): Promise<void>;
}

/** Takes `n` threads and tells each its init (`initOf` its share of `connections` sockets and the main clock's origin). */
function takeThreads(n: number, connections: number, initOf: (connections: number, originHrNs: number) => ToThread): ThreadPool {
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
    t.postMessage(initOf(Math.max(1, Math.ceil((connections - i) / n)), originHrNs));
    return () => {
      t.off('error', onError);
      t.off('exit', onExit);
    };
  });
  const exitNote = () => (broken ? `: ${(broken as Error).message}` : '');
  return {
    threads,
    exitNote,
    checkAlive(count) {
      const dead = threads.slice(0, count).findIndex((_, i) => exited.has(i));
      if (dead !== -1) throw new SweepError('client-failed', `client thread ${dead + 1} exited before the level${exitNote()}`);
    },
    // Each thread closes this sweep's sockets and goes back to the idle pool (or is ended when it does not answer, or the pool is full).
    async close() {
      await Promise.all(
        threads.map((t, i) => {
          (listeners[i] as () => void)();
          return releaseThread(t, exited.has(i));
        }),
      );
    },
  };
}

/** Starts `n` client threads for a text sweep, each with its share of `connections` sockets. */
export function startClientThreads(n: number, base: Omit<ThreadInit, 'connections' | 'originHrNs'>, connections: number): ClientThreads {
  const pool = takeThreads(n, connections, (each, originHrNs) => ({ type: 'init', init: { ...base, originHrNs, connections: each } }));
  async function runLevel(level: LevelOnThreads): Promise<ThreadedLevel> {
    const { shares, dones } = await driveLevel(pool, level.count, {
      signal: level.signal,
      levelMessage: (index, count) => ({
        type: 'level',
        index,
        count,
        concurrency: level.concurrency,
        requests: level.requests,
        promptOffset: level.promptOffset,
      }),
      beforeStart: level.beforeMeasured,
      onRecord: level.onRecord,
    });
    const out = shares.map((s): ShareRecords => ({
      label: s.label,
      records: s.records,
      clockOffsetNs: 0,
      loopDelayMs: s.done?.loopDelayMs ?? null,
      clientCpuPct: s.done?.busyPct ?? null,
    }));
    return {
      records: shares.flatMap((s) => s.records).sort((a, b) => a.seq - b.seq),
      shares: out,
      serverFailure: dones.find((d) => d.serverFailure !== null)?.serverFailure ?? null,
      scheduledNs: dones.reduce<number[] | null>((a, d) => a ?? d.scheduledNs, null),
      waitedForSlot: dones.reduce((a, d) => a + d.waitedForSlot, 0),
    };
  }
  return { size: n, runLevel, close: pool.close };
}

/** Starts `n` client threads for an embeddings or rerank sweep, each with its own pooling client on its share of `connections` sockets. */
export function startPoolingThreads(n: number, init: Omit<PoolingThreadInit, 'connections' | 'originHrNs'>, connections: number): PoolingThreads {
  const pool = takeThreads(n, connections, (each, originHrNs) => ({ type: 'pooling-init', init: { ...init, originHrNs, connections: each } }));
  async function runLevel(concurrency: number, plans: readonly PoolingSharePlan[], signal: AbortSignal, onRecord: (r: PoolingRecord) => void) {
    const { shares } = await driveLevel(pool, plans.length, {
      signal,
      levelMessage: (i) => ({ type: 'pooling-level', concurrency, plan: plans[i] as PoolingSharePlan }),
      beforeStart: async () => {},
      onRecord,
    });
    return shares.map((s): PoolingShareResult => ({
      label: s.label,
      records: s.records,
      loopDelayMs: s.done?.loopDelayMs ?? null,
      busyPct: s.done?.busyPct ?? null,
    }));
  }
  return { size: n, runLevel, close: pool.close };
}
