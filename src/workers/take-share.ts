/**
 * A worker's handling of one share it took from the queue: claimed once, its
 * clock measured against the database's, the coordinator's heartbeat watched,
 * its records signed and streamed into worker_records as they come, the start
 * instant waited for (or a stop), and its outcome reported in worker_shares.
 */
import type { RecordOf } from '../core/index.js';
import { monotonicNs } from '../client/index.js';
import { recordBatches } from '../runner/index.js';
import { measureClockOffsetWell, offsetProblem } from './clock-offset.js';
import type { SweepKey } from './share-auth.js';
import { type ShareClock, type ShareDetail, type ShareJob, localNs } from './share-job.js';
import { sendShare, sharePace } from './share-senders.js';
import { COORDINATOR_LOST_AFTER_MS, sweepIsLive, writeShare } from './signed-rows.js';
import type { WorkerDb } from './worker-db.js';

/** Records leave for the database in batches of this many… */
const BATCH_RECORDS = 200;
/** …or when the oldest waiting is this old, ms. */
const BATCH_MS = 100;
/** A share that hears no start instant gives up after the other shares' warm-ups could have ended, plus this, ms… */
const START_SLACK_MS = 60_000;
/** …and never later than this after it is ready, ms. */
const START_WAIT_MAX_MS = 600_000;
/** How often a share checks its coordinator's signed heartbeat (every 500 ms, lost after COORDINATOR_LOST_AFTER_MS), ms. */
const COORDINATOR_CHECK_MS = 500;

/** A start instant (or a stop) the coordinator announces, signed with the sweep's key; heard after expiresAtMs (the database's clock) it is stale. */
export interface StartMessage {
  sweep: string;
  level: number;
  atMs?: number;
  stop?: boolean;
  expiresAtMs?: number;
  mac?: string;
}

/** The worker's clocks and what it keeps across shares: the starts it waits for by level, and the shares being sent (a stop aborts them). */
export interface Clocks {
  wall: () => number;
  originMs: number;
  starts: Map<string, (m: StartMessage) => void>;
  active: Set<AbortController>;
}

/** The worker taking the share, as the share needs it. */
export interface ShareTaker {
  name: string;
  /** The API key of the servers this worker sends to, from its own environment. */
  apiKey?: string | undefined;
  log(line: string): void;
}

/** One share of the job, from the claim to its reported outcome. */
export async function takeShare(w: WorkerDb, o: ShareTaker, job: ShareJob, key: SweepKey, c: Clocks): Promise<void> {
  const report = async (detail: ShareDetail) => {
    await writeShare(w, key, job, o.name, detail);
  };
  // Taken once: a row already at the share is another worker's, and this delivery a second one.
  if (!(await writeShare(w, key, job, o.name, { status: 'taken' }, { claim: true }))) {
    return o.log(`worker ${o.name}: refused share ${job.share} of sweep ${job.sweep}: another worker already took it (a second delivery); nothing was sent`);
  }
  await w.workers.setShare(o.name, job.share);
  const clock = await shareClock(w, o, job, c, report);
  if (clock === null) return;
  const stop = new AbortController();
  c.active.add(stop);
  const level = `${job.sweep}/${job.concurrency}`;
  const watch = watchCoordinator(w, key, o, job, stop);
  const writer = recordWriter(w, key, o, job, stop);
  try {
    // The part that depends on the kind of traffic: what is sent, over which client.
    const sent = await sendShare(job, {
      apiKey: o.apiKey,
      label: `worker ${o.name}`,
      signal: stop.signal,
      onRecord: writer.add,
      ready: () => waitForStart({ o, job, key, c, pace: sharePace(job), clock, level, stop, report }),
    });
    await writer.flush();
    const failed = writer.failed();
    if (failed !== null) return await report({ status: 'failed', reason: `worker ${o.name}: ${failed}` });
    if (watch.orphaned() !== null) return;
    if (stop.signal.aborted && sent.sent === 0 && sent.owed > 0) {
      return await report({ status: 'failed', reason: `worker ${o.name}: stopped before the level started` });
    }
    const { loopDelayMs, busyPct, waitedForSlot, serverFailure } = sent;
    await report({ status: 'done', clock, loopDelayMs, busyPct, waitedForSlot, serverFailure });
  } catch (err) {
    await writer.flush();
    await report({ status: 'failed', reason: `worker ${o.name}: ${(err as Error).message}` });
  } finally {
    c.starts.delete(level);
    c.active.delete(stop);
    watch.clear();
    await w.workers.setShare(o.name, null).catch(() => {});
  }
}

/** This worker's clock against the database's for the share; null (the share refused, said) when it cannot be used or no API key is there. */
async function shareClock(w: WorkerDb, o: ShareTaker, job: ShareJob, c: Clocks, report: (d: ShareDetail) => Promise<void>): Promise<ShareClock | null> {
  const measured = await measureClockOffsetWell(() => w.nowMs(), c.wall);
  const problem = offsetProblem(measured);
  if (problem) {
    o.log(`share ${job.share} refused: ${problem}`);
    await report({ status: 'refused', reason: `worker ${o.name}: ${problem}` });
    return null;
  }
  if (job.needsApiKey && o.apiKey === undefined) {
    await report({
      status: 'refused',
      reason: `worker ${o.name} has no API key and the sweep's server needs one: start it with GOODPUT_API_KEY set (a key never goes through the database)`,
    });
    return null;
  }
  return { offsetMs: measured.offsetMs, uncertaintyMs: measured.uncertaintyMs, originMs: c.originMs };
}

/** The coordinator's heartbeat: a share whose coordinator stopped beating is abandoned (stopped, and said why), not sent to the end. */
function watchCoordinator(w: WorkerDb, key: SweepKey, o: ShareTaker, job: ShareJob, stop: AbortController): { orphaned(): string | null; clear(): void } {
  let orphaned: string | null = null;
  const watch = setInterval(() => {
    void sweepIsLive(w, key).then(
      (live) => {
        if (orphaned !== null || stop.signal.aborted) return;
        if (!live) {
          orphaned = `its coordinator stopped answering (no signed heartbeat for ${COORDINATOR_LOST_AFTER_MS / 1000} s): share abandoned`;
          o.log(`worker ${o.name}: share ${job.share}: ${orphaned}`);
          stop.abort();
        }
      },
      () => {},
    );
  }, COORDINATOR_CHECK_MS);
  return { orphaned: () => orphaned, clear: () => clearInterval(watch) };
}

/**
 * Raw records go to the database as they come, in batches: a worker that dies
 * keeps what it sent. Each record is signed; a row already at one of the
 * share's sequence numbers is a conflict that fails the share, never skipped.
 */
function recordWriter(
  w: WorkerDb,
  key: SweepKey,
  o: ShareTaker,
  job: ShareJob,
  stop: AbortController,
): { add(r: RecordOf): void; flush(): Promise<unknown>; failed(): string | null } {
  let writing: Promise<unknown> = Promise.resolve();
  let writeFailed: string | null = null;
  const macs: string[] = [];
  const batches = recordBatches<RecordOf>(BATCH_RECORDS, BATCH_MS, (rows, count) => {
    const signed = macs.splice(0, count);
    writing = writing
      .then(() => w.shares.insertRecords(job.share, rows, JSON.stringify(signed)))
      .catch((err: unknown) => {
        if (writeFailed !== null) return;
        const conflict = (err as { code?: string }).code === '23505';
        writeFailed = conflict
          ? `worker_records already held a row at one of share ${job.share}'s sequence numbers (${(err as { detail?: string }).detail ?? 'a duplicate key'}): another writer put it there; the share is refused`
          : `its records could not be written: ${(err as Error).message}`;
        o.log(`share ${job.share}: ${writeFailed}`);
        stop.abort();
      });
  });
  return {
    add: (r) => {
      if (writeFailed !== null) return;
      macs.push(key.sign('record', { share: job.share, record: r }));
      batches.add(r);
    },
    flush: () => {
      batches.flush();
      return writing;
    },
    failed: () => writeFailed,
  };
}

/** What waiting for a share's start needs. */
interface StartWait {
  o: ShareTaker;
  job: ShareJob;
  key: SweepKey;
  c: Clocks;
  /** The share's request timeout and warm-ups: how long it waits for its start. */
  pace: { timeoutMs: number; warmup: number };
  clock: ShareClock;
  level: string;
  stop: AbortController;
  report(d: ShareDetail): Promise<void>;
}

/**
 * Says the share is ready and resolves with its start instant on this
 * worker's monotonic clock. The wait ends with the start, or with anything that
 * stops the share: its give-up time, the orphan watch, a signal, a stop.
 */
function waitForStart(s: StartWait): Promise<number> {
  const { o, job, key, c, clock, level, stop } = s;
  return new Promise<number>((resolve) => {
    const release = () => {
      clearTimeout(giveUp);
      resolve(monotonicNs());
    };
    const waitMs = Math.min(s.pace.timeoutMs * (s.pace.warmup + 1) + START_SLACK_MS, START_WAIT_MAX_MS);
    const giveUp = setTimeout(() => stop.abort(), waitMs);
    if (stop.signal.aborted) return release();
    stop.signal.addEventListener('abort', release, { once: true });
    /** Only a start or stop signed with the sweep's key, heard before its expiry, counts. */
    const heard = (m: StartMessage): boolean => {
      const { mac, ...body } = m;
      if (!key.verify('start', body, mac)) return (o.log(`worker ${o.name}: ignored an unsigned start for share ${job.share}`), false);
      if (typeof m.expiresAtMs !== 'number' || c.wall() + clock.offsetMs > m.expiresAtMs) {
        return (o.log(`worker ${o.name}: refused a start for share ${job.share} of sweep ${job.sweep}: it expired (a replay); nothing was sent for it`), false);
      }
      return true;
    };
    c.starts.set(level, (m) => {
      if (!heard(m)) return;
      clearTimeout(giveUp);
      stop.signal.removeEventListener('abort', release);
      // Once started, only a stop is heard: a start sent again stops nothing and starts nothing.
      c.starts.set(level, (n) => {
        if (n.stop && heard(n)) stop.abort();
      });
      if (m.stop || m.atMs === undefined) {
        stop.abort();
        return resolve(monotonicNs());
      }
      resolve(localNs(m.atMs, clock));
    });
    void s.report({ status: 'ready', clock });
  });
}
