/**
 * The sweep's side of distributed workers: it waits until enough workers are
 * live, and then, level by level, puts one job per share on the queue, waits for
 * every share to be ready, names a start instant in the database's clock
 * (NOTIFY goodput_start), and reads the shares' raw records back once they are
 * done. Each worker's records are put on this process's clock through both
 * clocks' measured offsets to the database at that instant. A worker that stops
 * answering mid-level is lost: what it wrote is kept, the rest of its share
 * becomes failed records naming it, and the sweep goes on.
 */
import { randomBytes } from 'node:crypto';
import { sanitizeForTerminal } from '../core/index.js';
import type { WorkerView } from '../store/index.js';
import { type ClientsOf, SweepError, type WorkerKindName } from '../runner/index.js';
import type { Coordination } from './coordinator-level.js';
import { workersPools } from './kind-pools.js';
import { SweepKey, registryKey } from './share-auth.js';
import { beatSweep, deleteSweepJobs, signedLiveWorkers } from './signed-rows.js';
import { SHARE_CHANNEL, type WorkerDb, openWorkerDb } from './worker-db.js';

/** How often shares and liveness are read while waiting (besides the notifications), ms. */
const POLL_MS = 250;
/** The coordinator's own heartbeat, ms: workers abandon a share whose sweep row is older than COORDINATOR_LOST_AFTER_MS. */
export const COORDINATOR_BEAT_MS = 500;
/** Rows of sweeps whose coordinator has not been seen for this long are deleted when a coordinator starts, hours (GOODPUT_WORKER_ROWS_KEEP_HOURS). */
const KEEP_HOURS_DEFAULT = 24;
/** The sweep's id, its nonce: every key, job and start of the sweep is bound to it. */
const SWEEP_NONCE_BYTES = 12;

export interface Coordinator {
  workers: WorkerView[];
  /** The pool a sweep of each kind splits its levels over (the sweep's identity bound in), as runSweep's `clients` takes it. */
  clients: { [K in WorkerKindName]: ClientsOf<K> };
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Connects to `databaseUrl` and waits up to `waitMs` for `n` live workers.
 * @throws SweepError('bad-input') naming the database when it does not answer, or the workers when too few are live.
 */
export async function startCoordinator(databaseUrl: string, n: number, waitMs: number, secret: Buffer): Promise<Coordinator> {
  let w: WorkerDb;
  const registry = registryKey(secret);
  try {
    w = await openWorkerDb(databaseUrl, { supervise: true });
  } catch (err) {
    throw new SweepError('bad-input', `--database-url: ${(err as Error).message}`);
  }
  // Workers whose own signed heartbeat is within the lost bound: a row anyone else wrote or kept fresh is not one.
  const liveWorkers = (): Promise<WorkerView[]> => signedLiveWorkers(w, registry);
  const live = await waitForWorkers(w, liveWorkers, n, waitMs);
  const nextChange = await watchShares(w);
  const sweep = randomBytes(SWEEP_NONCE_BYTES).toString('hex');
  const key = new SweepKey(secret, sweep);
  // Rows of sweeps long finished or abandoned (their coordinator gone) are not kept past the retention.
  const keepHours = Number(process.env['GOODPUT_WORKER_ROWS_KEEP_HOURS'] ?? KEEP_HOURS_DEFAULT);
  await deleteOldSweeps(w, Number.isFinite(keepHours) && keepHours >= 0 ? keepHours : KEEP_HOURS_DEFAULT).catch(() => {});
  // Signed over the database's clock: workers take this sweep's jobs only while its beat is recent.
  await beatSweep(w, key);
  const beat = setInterval(() => {
    void beatSweep(w, key).catch(() => {});
  }, COORDINATOR_BEAT_MS);
  const c: Coordination = { w, sweep, key, liveWorkers, nextChange };
  return {
    workers: live,
    clients: workersPools(c, live.length),
    async close() {
      clearInterval(beat);
      await endSweep(c);
    },
  };
}

/** Waits up to `waitMs` for `n` live workers; closes the database and says who is live when too few are. */
async function waitForWorkers(w: WorkerDb, liveWorkers: () => Promise<WorkerView[]>, n: number, waitMs: number): Promise<WorkerView[]> {
  const until = Date.now() + waitMs;
  let live = await liveWorkers();
  while (live.length < n && Date.now() < until) {
    await sleep(POLL_MS);
    live = await liveWorkers();
  }
  if (live.length < n) {
    await w.close();
    const names = live.length === 0 ? 'none' : live.map((l) => sanitizeForTerminal(l.name)).join(', ');
    throw new SweepError(
      'bad-input',
      `--workers ${n}: only ${live.length} live worker${live.length === 1 ? '' : 's'} after ${Math.round(waitMs / 1000)} s (${names}); start more with \`goodput worker --database-url …\` or lower --workers`,
    );
  }
  return live;
}

/** Listens for share changes; the function returned resolves on the next one or after POLL_MS, whichever first. */
async function watchShares(w: WorkerDb): Promise<() => Promise<void>> {
  const changed = new Set<() => void>();
  await w.listen(SHARE_CHANNEL, () => {
    for (const fn of changed) fn();
  });
  return () =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(t);
        changed.delete(done);
        resolve();
      };
      const t = setTimeout(done, POLL_MS);
      changed.add(done);
    });
}

/** The sweep is over: none of its jobs stays on the queue, none of its rows in the tables (its result holds the records). */
async function endSweep(c: Coordination): Promise<void> {
  const { w, sweep } = c;
  // None of the sweep's jobs stays on the queue, in any state: none can be run again.
  await deleteSweepJobs(w, sweep).catch(() => {});
  // The sweep's rows are not kept once it is over: its result holds the records.
  await w.shares.deleteSweepRecords(sweep).catch(() => {});
  await w.shares.deleteSweepShares(sweep).catch(() => {});
  await w.shares.deleteSweepBeat(sweep).catch(() => {});
  await w.close();
}

/** Deletes the rows of sweeps whose coordinator has not been seen for `hours`. */
async function deleteOldSweeps(w: WorkerDb, hours: number): Promise<void> {
  for (const sweep of await w.shares.abandonedSweeps(hours)) {
    await deleteSweepJobs(w, sweep);
    await w.shares.deleteSweepRecords(sweep);
    await w.shares.deleteSweepShares(sweep);
  }
  await w.shares.deleteStaleSweepBeats(hours);
}
