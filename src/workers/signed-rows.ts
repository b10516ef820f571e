/**
 * The rows a coordinator and its workers must not take on trust, signed and
 * checked here (their SQL is store's WorkersRepo and WorkerSharesRepo): the
 * coordinator's heartbeat (worker_sweeps) and each worker's registration and
 * heartbeat (workers), both signed over the database's clock at the beat, so a
 * copied row goes stale within the liveness bound; a share's report; and the
 * queue's jobs of a sweep, deleted when it ends so none can be run again.
 */
import { WORKER_LOST_AFTER_MS, type WorkerRegistration, type WorkerView } from '../store/index.js';
import type { SweepKey } from './share-auth.js';
import type { ShareDetail, ShareJob } from './share-job.js';
import { SHARE_CHANNEL, SHARE_QUEUE, type WorkerDb } from './worker-db.js';

/** A worker abandons a share (or refuses a job) when its coordinator's last signed beat is older than this, ms. */
export const COORDINATOR_LOST_AFTER_MS = 2000;
/** A beat stamped further ahead of the database's clock than this is no beat, ms. */
const FUTURE_SLACK_MS = 1000;
/** A share report larger than this is not read, bytes. */
export const MAX_SHARE_DETAIL_BYTES = 64 * 1024;

const fresh = (beatMs: number, nowMs: number, maxAgeMs: number) => beatMs <= nowMs + FUTURE_SLACK_MS && nowMs - beatMs <= maxAgeMs;

/** Writes the sweep's heartbeat: the database's time now, signed with the sweep's key. */
export async function beatSweep(w: WorkerDb, key: SweepKey): Promise<void> {
  const beatMs = Math.round(await w.nowMs());
  await w.shares.writeSweepBeat(key.sweep, beatMs, key.sign('beat', { sweep: key.sweep, beatMs }));
}

/** True when the sweep's coordinator signed a beat within `maxAgeMs` of the database's clock now. */
export async function sweepIsLive(w: WorkerDb, key: SweepKey, maxAgeMs = COORDINATOR_LOST_AFTER_MS): Promise<boolean> {
  const row = await w.shares.sweepBeat(key.sweep);
  if (row === null || row.beatMs === null) return false;
  const beatMs = Number(row.beatMs);
  return key.verify('beat', { sweep: key.sweep, beatMs }, row.mac) && fresh(beatMs, row.nowMs, maxAgeMs);
}

const signedWorker = (r: WorkerRegistration, beatMs: number) => ({ ...r, beatMs });

/** Registers a worker (its row replaced) with its first signed beat. */
export async function registerWorker(w: WorkerDb, key: SweepKey, r: WorkerRegistration): Promise<void> {
  const beatMs = Math.round(await w.nowMs());
  await w.workers.register(r, beatMs, key.sign('worker', signedWorker(r, beatMs)));
}

/** One heartbeat of a registered worker. */
export async function beatWorker(w: WorkerDb, key: SweepKey, r: WorkerRegistration): Promise<void> {
  const beatMs = Math.round(await w.nowMs());
  await w.workers.beat(r.name, r.pid, beatMs, key.sign('worker', signedWorker(r, beatMs)));
}

/**
 * The workers whose row a worker holding the secret signed within the lost
 * bound: a row written or kept fresh by anyone else does not count as live.
 */
export async function signedLiveWorkers(w: WorkerDb, key: SweepKey): Promise<WorkerView[]> {
  const rows = await w.workers.signedRows();
  const live: WorkerView[] = [];
  for (const r of rows) {
    const beatMs = Number(r.beat_ms);
    if (r.clock_offset_ms === null || r.clock_uncertainty_ms === null || !fresh(beatMs, Number(r.now_ms), WORKER_LOST_AFTER_MS)) continue;
    const reg: WorkerRegistration = {
      name: r.name,
      host: r.host,
      pid: r.pid,
      cores: r.cores,
      version: r.version,
      clockOffsetMs: r.clock_offset_ms,
      clockUncertaintyMs: r.clock_uncertainty_ms,
    };
    if (!key.verify('worker', signedWorker(reg, beatMs), r.mac)) continue;
    live.push({ name: r.name, host: r.host, cores: r.cores, share: r.share, clockOffsetMs: r.clock_offset_ms, seenMsAgo: Number(r.now_ms) - beatMs });
  }
  return live;
}

/**
 * Writes a worker's signed report of its share. `claim`: only when no row is
 * there yet (the coordinator clears the share's rows before its job goes on the
 * queue, so a row there means another worker took it); false when it was.
 */
export async function writeShare(
  w: WorkerDb,
  key: SweepKey,
  job: ShareJob,
  worker: string,
  detail: ShareDetail,
  o: { claim?: boolean } = {},
): Promise<boolean> {
  const written = await w.shares.writeShare(
    {
      share: job.share,
      sweep: job.sweep,
      level: job.concurrency,
      index: job.index,
      worker,
      status: detail.status,
      detail: JSON.stringify(detail),
      mac: key.sign('share', { share: job.share, worker, detail }),
    },
    o.claim === true,
  );
  if (!written) return false;
  await w.notify(SHARE_CHANNEL, { share: job.share, status: detail.status });
  return true;
}

/** Deletes the queue's jobs of `sweep`, wherever pg-boss keeps them (waiting, active, completed, archived): none can be taken again. */
export async function deleteSweepJobs(w: WorkerDb, sweep: string): Promise<void> {
  await w.shares.deleteQueuedJobs(SHARE_QUEUE, sweep);
}
