/**
 * One level of a sweep sent by worker processes, as the coordinator runs it,
 * whatever its kind of traffic: one signed job per share on the queue; every
 * share ready; a start instant named in the database's clock; every share
 * done, or its worker lost; then each share's records read back (counted, not
 * believed) with the offset that puts them on this process's clock through
 * both clocks' measured offsets to the database at that instant. What differs
 * by kind (the job's own fields, the sequence numbers a share owes, its record
 * schema, how its lost requests are failed) is the level's WorkerLevel, made
 * made by kind-pools.ts, which merges the shares.
 */
import type { z } from 'zod';
import type { RecordOf, Spread } from '../core/index.js';
import { WORKER_LOST_AFTER_MS, type WorkerView } from '../store/index.js';
import { monotonicNs, preflight } from '../client/index.js';
import { SweepError } from '../runner/index.js';
import { measureClockOffsetWell, offsetProblem, wallClock } from './clock-offset.js';
import type { SweepKey } from './share-auth.js';
import { type ShareDetail, localNs, shareDetailSchema } from './share-job.js';
import { shareRecords } from './share-records.js';
import { MAX_SHARE_DETAIL_BYTES } from './signed-rows.js';
import { SHARE_QUEUE, START_CHANNEL, type WorkerDb } from './worker-db.js';

/** The start instant is named this far ahead, ms: room for the NOTIFY to reach every worker over a network. */
const START_AHEAD_MS = 250;
/** A share no worker has taken after this long fails the level, ms. */
const TAKE_WITHIN_MS = 30_000;
/** After Ctrl-C, the workers' last reports are waited for this long at most, ms (the coordinator stops within 2 s). */
const STOP_GRACE_MS = 1200;
/** A share may run this long past its plan's bound before its worker is called lost, whatever its heartbeat says, ms. */
export const SHARE_DEADLINE_SLACK_MS = 5_000;
/** A start or stop announcement heard later than this after its instant is stale (a replay), ms. */
const START_EXPIRES_AFTER_MS = 5_000;

/** What every level of a coordinated sweep uses: the database, the sweep's id and key, and its workers. */
export interface Coordination {
  w: WorkerDb;
  sweep: string;
  key: SweepKey;
  /** Workers whose own signed heartbeat is within the lost bound. */
  liveWorkers(): Promise<WorkerView[]>;
  /** Resolves on the next share notification or after the poll interval, whichever first. */
  nextChange(): Promise<void>;
}

/** One level as the workers send it: what every kind gives, and what is its own. */
export interface WorkerLevel {
  concurrency: number;
  /** Shares asked for (one per live worker at most). */
  count: number;
  /** A text share computes its part from its index and count, so a level re-splits over the workers still live; a pooling share's plan is fixed. */
  resplits: boolean;
  signal: AbortSignal;
  beforeMeasured(): Promise<void>;
  /** The server needs an API key (each worker brings its own). */
  needsApiKey: boolean;
  model: string;
  dialect: string;
  /** The sweep's sockets, split over the shares. */
  connections: number;
  /** Share `i` of `count`'s own job fields: its kind, its spec without the key, what it sends. */
  jobOf(i: number, count: number): Record<string, unknown>;
  /** How long a share may take from its start, ms. */
  deadlineMs(count: number): number;
  /** Every sequence number share `i` of `count` may write (its warm-ups and its part of the level). */
  seqsOf(i: number, count: number): number[];
  /** The kind's raw record, as another process sends it (core's RUN_KINDS). */
  recordSchema: z.ZodType;
  /** The requests share `i` owed and never recorded, failed naming why, at `atNs` on the worker's clock. */
  lostOf(i: number, count: number, have: readonly RecordOf[], why: string, client: string, atNs: number): RecordOf[];
  /** A finished share that recorded fewer than it owed lost them (a session ends at its first failed turn: not a loss). */
  missingIsLoss: boolean;
  /** The server and its key: this process probes it itself before believing a worker that says it stopped answering. */
  target: { url: string; apiKey?: string | undefined };
}

/** One share's records as read back, with what puts them on this process's clock. */
export interface WorkerShare {
  label: string;
  records: RecordOf[];
  clockOffsetNs: number;
  loopDelayMs: Spread | null;
  clientCpuPct: number | null;
  clockToDb: { offsetMs: number; uncertaintyMs: number } | null;
}

/** A level the workers sent: its shares, a server failure the coordinator's own probe confirmed, the start on this clock. */
export interface WorkersLevel {
  shares: WorkerShare[];
  serverFailure: string | null;
  startNs: number;
  waitedForSlot: number;
}

/** The shares' reports signed by this sweep's workers, by share key. */
type ShareReports = Map<string, { worker: string | null; detail: ShareDetail }>;

/** The shares' rows signed by this sweep's workers, their figures in range; any other row is as if absent. */
async function sharesOf(c: Coordination, keys: readonly string[]): Promise<ShareReports> {
  const rows = await c.w.shares.shares(keys, MAX_SHARE_DETAIL_BYTES);
  const out: ShareReports = new Map();
  for (const r of rows) {
    if (!c.key.verify('share', { share: r.share, worker: r.worker, detail: r.detail }, r.mac)) continue;
    const detail = shareDetailSchema.safeParse(r.detail);
    if (detail.success) out.set(r.share, { worker: r.worker, detail: detail.data });
  }
  return out;
}

/** Of `names`, the workers no longer live. */
async function lostWorkers(c: Coordination, names: readonly string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const alive = new Set((await c.liveWorkers()).map((l) => l.name));
  return [...new Set(names)].filter((n) => !alive.has(n));
}

/** A start instant or a stop, signed with the sweep's key and stale after its expiry. */
function signedNotify(c: Coordination, m: { sweep: string; level: number; atMs?: number; stop?: boolean; expiresAtMs: number }): Promise<void> {
  return c.w.notify(START_CHANNEL, { ...m, mac: c.key.sign('start', m) });
}

/** The level's shares on the queue: their keys and the jobs' ids. */
interface QueuedLevel {
  keys: string[];
  count: number;
  jobIds: string[];
}

/** Clears the level's share rows, then puts one signed job per share on the queue. */
async function queueShares(c: Coordination, lv: WorkerLevel): Promise<QueuedLevel> {
  // A worker lost at an earlier level is not waited for: the level is split over those still live.
  const live = (await c.liveWorkers()).length;
  if (!lv.resplits && live < lv.count)
    throw new SweepError('client-failed', `only ${live} live worker(s) for the ${lv.count} shares of the level at ${lv.concurrency}`);
  const count = Math.max(1, Math.min(lv.count, live));
  const keys = Array.from({ length: count }, (_, i) => `${c.sweep}/${lv.concurrency}/${i}`);
  const jobIds: string[] = [];
  // No row may be there before the jobs: anything at these shares now was written by someone else.
  await c.w.shares.clearShares(keys);
  // A job not taken by then would fail the level anyway: past it, no worker takes it.
  const expiresAtMs = Math.round(await c.w.nowMs()) + TAKE_WITHIN_MS;
  for (const [i, share] of keys.entries()) {
    const job = {
      share,
      sweep: c.sweep,
      index: i,
      count,
      concurrency: lv.concurrency,
      ...lv.jobOf(i, count),
      needsApiKey: lv.needsApiKey,
      model: lv.model,
      dialect: lv.dialect,
      connections: Math.max(1, Math.ceil((lv.connections - i) / count)),
      expiresAtMs,
    };
    // Signed: a worker takes only jobs a holder of the workers' secret wrote.
    const id = await c.w.boss.send(SHARE_QUEUE, { ...job, mac: c.key.sign('job', JSON.parse(JSON.stringify(job)) as unknown) }, { retryLimit: 0 });
    if (id !== null) jobIds.push(id);
  }
  return { keys, count, jobIds };
}

/** The level's stop (the signal): every worker told, signed; and when it came. */
interface LevelStopper {
  stop(): void;
  stoppedAt(): number;
  detach(): void;
}

function levelStopper(c: Coordination, level: WorkerLevel): LevelStopper {
  let stoppedAt = Infinity;
  const stop = () => {
    stoppedAt = Date.now();
    void c.w
      .nowMs()
      .then((now) => signedNotify(c, { sweep: c.sweep, level: level.concurrency, stop: true, expiresAtMs: Math.round(now) + START_EXPIRES_AFTER_MS }))
      .catch(() => {});
  };
  level.signal.addEventListener('abort', stop, { once: true });
  return { stop, stoppedAt: () => stoppedAt, detach: () => level.signal.removeEventListener('abort', stop) };
}

/** Waits until every share is ready (warm-ups sent, sockets open), or the level cannot start. */
async function awaitReady(c: Coordination, keys: readonly string[], level: WorkerLevel, liveAtStart: readonly string[], sentAt: number): Promise<void> {
  for (;;) {
    const s = await sharesOf(c, keys);
    const bad = [...s.values()].find((x) => x.detail.status === 'refused' || x.detail.status === 'failed');
    if (bad) throw new SweepError('client-failed', (bad.detail as { reason: string }).reason);
    if (keys.every((k) => s.get(k)?.detail.status === 'ready')) return;
    if (level.signal.aborted) return;
    // A worker lost before the start, whether or not it took a share: its share would never be sent.
    const gone = await lostWorkers(c, liveAtStart);
    if (gone.length > 0 && (gone.some((g) => [...s.values()].some((x) => x.worker === g)) || s.size < keys.length)) {
      throw new SweepError(
        'client-failed',
        `worker ${gone.join(', ')} stopped answering before the level at ${level.concurrency} started; the workers still live wait for the next sweep`,
      );
    }
    if (Date.now() - sentAt > TAKE_WITHIN_MS)
      throw new SweepError('client-failed', `${keys.length - s.size} share(s) of the level were not taken by any worker within ${TAKE_WITHIN_MS / 1000} s`);
    await c.nextChange();
  }
}

/** The level's start: in the database's clock (`atMs`) and on this process's monotonic clock (`startNs`). */
interface LevelStart {
  atMs: number;
  startNs: number;
}

/** Measures this machine's clock against the database's, then names the start instant a little ahead, signed. */
async function announceStart(c: Coordination, level: WorkerLevel): Promise<LevelStart> {
  const own = await measureClockOffsetWell(() => c.w.nowMs(), wallClock);
  const problem = offsetProblem(own);
  if (problem) throw new SweepError('client-failed', `this machine: ${problem}`);
  const atMs = (await c.w.nowMs()) + START_AHEAD_MS;
  await signedNotify(c, { sweep: c.sweep, level: level.concurrency, atMs, expiresAtMs: Math.round(atMs) + START_EXPIRES_AFTER_MS });
  return { atMs, startNs: localNs(atMs, { offsetMs: own.offsetMs, uncertaintyMs: own.uncertaintyMs, originMs: performance.timeOrigin }) };
}

/** Waits until every share is done or its worker lost (`lost` says why, by share); after a stop, not past the grace. */
async function awaitDone(c: Coordination, level: WorkerLevel, queued: QueuedLevel, stopper: LevelStopper, lost: Map<string, string>): Promise<ShareReports> {
  const { keys, count } = queued;
  const deadline = Date.now() + level.deadlineMs(count);
  let s = await sharesOf(c, keys);
  for (;;) {
    const open = keys.filter((k) => s.get(k)?.detail.status !== 'done' && !lost.has(k));
    const failed = keys.map((k) => s.get(k)).find((x) => x?.detail.status === 'failed' || x?.detail.status === 'refused');
    if (failed) throw new SweepError('client-failed', (failed.detail as { reason: string }).reason);
    if (open.length === 0) return s;
    // Stopped: the workers' last reports are not waited for past the grace.
    if (Date.now() - stopper.stoppedAt() > STOP_GRACE_MS) return s;
    const gone = new Set(
      await lostWorkers(
        c,
        open.flatMap((k) => s.get(k)?.worker ?? []),
      ),
    );
    const late = Date.now() > deadline;
    for (const k of open) {
      const who = s.get(k)?.worker;
      if (who && gone.has(who)) lost.set(k, `worker ${who} stopped answering mid-level (not seen for ${WORKER_LOST_AFTER_MS / 1000} s)`);
      else if (late)
        lost.set(
          k,
          `worker ${who ?? '?'} did not finish share ${k} by its deadline (${Math.round(level.deadlineMs(count) / 1000)} s from its plan), whatever its heartbeat said`,
        );
    }
    await c.nextChange();
    s = await sharesOf(c, keys);
  }
}

/** The worker's claim, with this process's own probe of the server when it agrees; null when the server answers the probe. */
async function probeAgrees(level: WorkerLevel, claim: string): Promise<string | null> {
  const { target } = level;
  const again = await preflight({ baseUrl: target.url, ...(target.apiKey === undefined ? {} : { apiKey: target.apiKey }) }, level.model, {
    timeoutMs: 3000,
  }).catch((err: unknown) => ({ ok: false as const, message: (err as Error).message }));
  return again.ok ? null : `${claim} (the coordinator's own probe agrees: ${again.message})`;
}

/** What taking one share's records back needs. */
interface ShareBack {
  k: string;
  i: number;
  count: number;
  reports: ShareReports;
  lost: ReadonlyMap<string, string>;
  start: LevelStart;
  confirmed: string | null;
}

/** One share's records and its offset to this process's clock; a lost worker's unfinished requests, and any a finished one never got into the database, fail naming it. */
async function takeShareBack(c: Coordination, level: WorkerLevel, b: ShareBack): Promise<WorkerShare> {
  const { k, i, count } = b;
  const row = b.reports.get(k);
  const detail = row?.detail;
  const clock = detail && 'clock' in detail ? detail.clock : null;
  const offsetNs = clock === null ? 0 : Math.round(b.start.startNs - localNs(b.start.atMs, clock));
  const { records, refused } = await shareRecords(c.w, c.key, k, level.seqsOf(i, count), level.concurrency, level.recordSchema);
  const serverFailed = detail?.status === 'done' && detail.serverFailure !== null && b.confirmed !== null;
  const missingIsLoss = b.lost.has(k) || refused !== null || level.missingIsLoss;
  const why = b.lost.get(k) ?? refused ?? `worker ${row?.worker ?? '?'} finished its share but some of its records never reached the database`;
  if (!level.signal.aborted && !serverFailed && missingIsLoss)
    records.push(...level.lostOf(i, count, records, why, `worker ${row?.worker ?? ''}`, monotonicNs() - offsetNs));
  return {
    label: `worker ${row?.worker ?? `share ${i + 1}`}`,
    records,
    clockOffsetNs: offsetNs,
    loopDelayMs: detail?.status === 'done' ? detail.loopDelayMs : null,
    clientCpuPct: detail?.status === 'done' ? detail.busyPct : null,
    clockToDb: clock === null ? null : { offsetMs: clock.offsetMs, uncertaintyMs: clock.uncertaintyMs },
  };
}

/** Every share's records back; a worker saying the server stopped answering stops the sweep only once this process's own probe agrees. */
async function collectLevel(
  c: Coordination,
  level: WorkerLevel,
  queued: QueuedLevel,
  reports: ShareReports,
  lost: ReadonlyMap<string, string>,
  start: LevelStart,
): Promise<WorkersLevel> {
  const { keys, count } = queued;
  const claimed =
    keys.map((k) => reports.get(k)?.detail).find((d): d is Extract<ShareDetail, { status: 'done' }> => d?.status === 'done' && d.serverFailure !== null)
      ?.serverFailure ?? null;
  const confirmed = claimed === null || level.signal.aborted ? null : await probeAgrees(level, claimed);
  const shares = await Promise.all(keys.map((k, i) => takeShareBack(c, level, { k, i, count, reports, lost, start, confirmed })));
  const dones = keys.flatMap((k) => {
    const d = reports.get(k)?.detail;
    return d?.status === 'done' ? [d] : [];
  });
  return { shares, serverFailure: confirmed, startNs: start.startNs, waitedForSlot: dones.reduce((a, d) => a + d.waitedForSlot, 0) };
}

/** A level over the workers; its jobs leave the queue when it ends, whatever happened. */
export async function runLevelOnWorkers(c: Coordination, level: WorkerLevel): Promise<WorkersLevel | null> {
  const queued = await queueShares(c, level);
  const stopper = levelStopper(c, level);
  const sentAt = Date.now();
  const liveAtStart = (await c.liveWorkers()).map((x) => x.name);
  let started = false;
  try {
    // Every share ready (warm-ups sent, sockets open), or the level cannot start.
    await awaitReady(c, queued.keys, level, liveAtStart, sentAt);
    if (level.signal.aborted) return null;
    await level.beforeMeasured();
    const start = await announceStart(c, level);
    started = true;
    const lost = new Map<string, string>();
    const reports = await awaitDone(c, level, queued, stopper, lost);
    return await collectLevel(c, level, queued, reports, lost, start);
  } catch (err) {
    // Ready workers wait for a start that will not come: release them, and drop the jobs no one took.
    if (!started) stopper.stop();
    await c.w.boss.cancel(SHARE_QUEUE, queued.jobIds).catch(() => {});
    throw err;
  } finally {
    stopper.detach();
    // The level's jobs, done or not, leave the queue: a signed job kept as `completed` could be put back and run again.
    await c.w.boss.deleteJob(SHARE_QUEUE, queued.jobIds).catch(() => {});
  }
}
