/**
 * `goodput worker`: a process on any machine that takes level shares from the
 * queue (pg-boss) and sends them. It keeps a row in `workers` fresh (the
 * coordinator's liveness check), measures its clock against the database's when
 * it takes a share, says it is ready, waits for the start instant the
 * coordinator announces (LISTEN goodput_start), and streams its raw records into
 * worker_records as it goes, so a worker that dies loses nothing it had sent.
 */
import { hostname, availableParallelism } from 'node:os';
import { TOOL_VERSION } from '../runner/index.js';
import type { WorkerRegistration } from '../store/index.js';
import { measureClockOffsetWell, offsetProblem, wallClock } from './clock-offset.js';
import { type ShareJob, checkShareJob } from './share-job.js';
import { SweepKey, registryKey } from './share-auth.js';
import { COORDINATOR_LOST_AFTER_MS, beatWorker, registerWorker, sweepIsLive } from './signed-rows.js';
import { type StartMessage, takeShare } from './take-share.js';
import { HEARTBEAT_MS, SHARE_QUEUE, START_CHANNEL, STARTUP_RETRY_MS, type WorkerDb, openWorkerDb } from './worker-db.js';

export interface WorkerOptions {
  databaseUrl: string;
  name: string;
  signal: AbortSignal;
  log(line: string): void;
  /** The API key of the servers this worker sends to, from its own environment: keys never go through the database. */
  apiKey?: string;
  /** The workers' secret (GOODPUT_WORKER_SECRET): only jobs signed with a key derived from it are taken. */
  secret: Buffer;
  /** Test hook: added to this worker's wall clock, ms (a machine whose clock is off). */
  clockSkewMs?: number;
  /** Test hook: added to each read of the database's clock, ms (a far or busy database). */
  dbDelayMs?: number;
}

export class WorkerError extends Error {}

/** A worker's name: letters, digits, dot, dash, underscore; 1–64 characters. */
export const WORKER_NAME = /^[A-Za-z0-9._-]{1,64}$/;

export async function runWorker(o: WorkerOptions): Promise<void> {
  if (!WORKER_NAME.test(o.name)) throw new WorkerError(`--name ${JSON.stringify(o.name)}: use 1–64 letters, digits, '.', '-' or '_'`);
  const skew = o.clockSkewMs ?? 0;
  const wall = () => wallClock() + skew;
  const originMs = performance.timeOrigin + skew;
  const onRetry = (err: Error) => o.log(`worker ${o.name}: waiting for its database (${err.message}); retrying for up to ${STARTUP_RETRY_MS / 1000} s`);
  const opened = await openWorkerDb(o.databaseUrl, {
    supervise: false,
    waitForDatabase: true,
    signal: o.signal,
    onRetry,
    ...(o.dbDelayMs ? { delayMs: o.dbDelayMs } : {}),
  }).catch((err: unknown) => {
    if (o.signal.aborted) return null;
    throw err;
  });
  if (opened === null) return o.log(`worker ${o.name} stopped before its database answered`);
  const w = opened;
  try {
    const { first, registry, me } = await register(w, o, wall);
    const beat = keepBeating(w, registry, me, o);
    const starts = new Map<string, (m: StartMessage) => void>();
    const active = new Set<AbortController>();
    // The shares this worker has taken, each kept until its job expires (after which the expiry alone refuses it).
    const ran = new Map<string, number>();
    await w.listen(START_CHANNEL, (p) => {
      if (typeof p !== 'object' || p === null) return;
      const m = p as StartMessage;
      const waiting = starts.get(`${m.sweep}/${m.level}`);
      if (waiting) return waiting(m);
      const done = m.stop ? undefined : [...ran.keys()].find((k) => k.startsWith(`${m.sweep}/${m.level}/`));
      if (done !== undefined)
        o.log(`worker ${o.name}: refused a start for share ${done} of sweep ${m.sweep}: this worker already took that share (a replay); nothing was sent`);
    });
    await w.boss.work<unknown>(SHARE_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
      if (!job) return;
      const checked = authenticJob(job.data, o.secret);
      if (!checked.ok) return o.log(`worker ${o.name}: refused job ${job.id} from the queue: ${checked.why}; nothing was sent`);
      if (o.signal.aborted) return;
      const { job: share, key } = checked;
      const stale = await replayed(w, share, key, ran).catch((err: unknown) => `the database did not answer (${(err as Error).message})`);
      if (stale !== null) return o.log(`worker ${o.name}: refused job ${job.id} (share ${share.share} of sweep ${share.sweep}): ${stale}; nothing was sent`);
      ran.set(share.share, share.expiresAtMs);
      try {
        await takeShare(w, o, share, key, { wall, originMs, starts, active });
      } catch {
        // The database went away mid-share (said once by the heartbeat); the share is abandoned.
      }
      // pg-boss marks the job done without catching a failure: it is handed back only once the database answers.
      while (!o.signal.aborted && !(await w.answers())) await new Promise((r) => setTimeout(r, HEARTBEAT_MS));
    });
    // Stopping aborts the share being sent at once: nothing is sent after the stop, and the worker ends within 2 s.
    o.signal.addEventListener(
      'abort',
      () => {
        for (const a of active) a.abort();
      },
      { once: true },
    );
    o.log(
      `worker ${o.name} ready: pid ${process.pid} on ${hostname()}, clock ${fmt(first.offsetMs)} ms from the database's (±${first.uncertaintyMs.toFixed(2)} ms)`,
    );
    await new Promise<void>((resolve) => {
      if (o.signal.aborted) return resolve();
      o.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    clearInterval(beat);
    await w.boss.offWork(SHARE_QUEUE);
    await w.workers.remove(o.name, process.pid).catch(() => {});
    o.log(`worker ${o.name} stopped`);
  } finally {
    await w.close();
  }
}

/** Checks the worker's clock and name, then registers it with a signed row. @throws WorkerError when either is refused */
async function register(w: WorkerDb, o: WorkerOptions, wall: () => number) {
  const first = await measureClockOffsetWell(() => w.nowMs(), wall);
  const problem = offsetProblem(first);
  if (problem) throw new WorkerError(`worker ${o.name} refused: ${problem}`);
  const clash = await w.workers.liveNamesake(o.name, hostname(), process.pid);
  if (clash) throw new WorkerError(`a live worker is already named ${o.name} (pid ${clash.pid} on ${clash.host}): give this one another --name`);
  // Registered and kept live by signed beats: a row anyone else writes or keeps fresh is not counted as a worker.
  const registry = registryKey(o.secret);
  const me: WorkerRegistration = {
    name: o.name,
    host: hostname(),
    pid: process.pid,
    cores: availableParallelism(),
    version: TOOL_VERSION,
    clockOffsetMs: first.offsetMs,
    clockUncertaintyMs: first.uncertaintyMs,
  };
  await registerWorker(w, registry, me);
  return { first, registry, me };
}

/** The worker's signed heartbeat every HEARTBEAT_MS: one line when the database goes away and one when it is back; it carries on meanwhile. */
function keepBeating(w: WorkerDb, registry: SweepKey, me: WorkerRegistration, o: Pick<WorkerOptions, 'name' | 'log'>): ReturnType<typeof setInterval> {
  let down = false;
  return setInterval(() => {
    void beatWorker(w, registry, me).then(
      () => {
        if (down) o.log(`worker ${o.name}: the database answers again; taking shares`);
        down = false;
      },
      (err: unknown) => {
        if (!down)
          o.log(
            `worker ${o.name}: the database stopped answering (${(err as Error).message}); the share in progress is abandoned, retrying every ${HEARTBEAT_MS} ms`,
          );
        down = true;
      },
    );
  }, HEARTBEAT_MS);
}

const fmt = (ms: number) => `${ms >= 0 ? '+' : ''}${ms.toFixed(2)}`;

/**
 * Why a signed job must not run now, or null: a job runs once, for a sweep
 * whose coordinator is live, before its expiry. A replayed job (read from the
 * queue's completed jobs and put back) fails the first or the last check, or
 * both, whatever heartbeat row was forged for it.
 */
async function replayed(w: WorkerDb, job: ShareJob, key: SweepKey, ran: Map<string, number>): Promise<string | null> {
  const nowMs = await w.nowMs();
  for (const [share, until] of ran) if (until < nowMs) ran.delete(share);
  if (ran.has(job.share)) return 'this worker already took that share: a second delivery (a replay)';
  if (nowMs > job.expiresAtMs) return `it expired ${((nowMs - job.expiresAtMs) / 1000).toFixed(1)} s ago (a replay, or a queue that held it past its expiry)`;
  if (!(await sweepIsLive(w, key)))
    return `its sweep's coordinator has no heartbeat signed within ${COORDINATOR_LOST_AFTER_MS / 1000} s (a finished sweep replayed, or a forged heartbeat)`;
  return null;
}

/**
 * A queue job this worker may act on: signed with its sweep's key (so written
 * by a process holding the workers' secret), then within the limits table.
 */
export function authenticJob(data: unknown, secret: Buffer): { ok: true; job: ShareJob; key: SweepKey } | { ok: false; why: string } {
  if (typeof data !== 'object' || data === null || typeof (data as { sweep?: unknown }).sweep !== 'string') return { ok: false, why: 'it is not a share job' };
  const { mac, ...body } = data as { sweep: string; mac?: unknown };
  const key = new SweepKey(secret, body.sweep);
  if (!key.verify('job', body, mac))
    return { ok: false, why: `its signature does not check (${mac === undefined ? 'unsigned' : "not signed with this worker's GOODPUT_WORKER_SECRET"})` };
  const checked = checkShareJob(body);
  return checked.ok ? { ok: true, job: checked.job, key } : { ok: false, why: `signed, but outside the limits: ${checked.why}` };
}
