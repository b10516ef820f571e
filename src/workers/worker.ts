/**
 * `goodput worker`: a process on any machine that takes level shares from the
 * queue (pg-boss) and sends them. It keeps a row in `workers` fresh (the
 * coordinator's liveness check), measures its clock against the database's when
 * it takes a share, says it is ready, waits for the start instant the
 * coordinator announces (LISTEN goodput_start), and streams its raw records into
 * worker_records as it goes, so a worker that dies loses nothing it had sent.
 */
import { hostname, availableParallelism } from 'node:os';
import { createStreamingClient, dialects, monotonicNs } from '../client/index.js';
import { TOOL_VERSION, recordBatches, runShare } from '../runner/index.js';
import { WORKER_LOST_AFTER_MS } from '../store/index.js';
import { measureClockOffsetWell, offsetProblem, wallClock } from './clock-offset.js';
import { type ShareClock, type ShareDetail, type ShareJob, checkShareJob, localNs } from './share-job.js';
import { SweepKey } from './share-auth.js';
import { HEARTBEAT_MS, SHARE_CHANNEL, SHARE_QUEUE, START_CHANNEL, type WorkerDb, openWorkerDb } from './worker-db.js';

/** Records leave for the database in batches of this many… */
const BATCH_RECORDS = 200;
/** …or when the oldest waiting is this old, ms. */
const BATCH_MS = 100;
/** A share that hears no start instant gives up after the other shares' warm-ups could have ended, plus this, ms… */
const START_SLACK_MS = 60_000;
/** …and never later than this after it is ready, ms. */
const START_WAIT_MAX_MS = 600_000;
/** A share is abandoned when its coordinator's heartbeat (every 500 ms) is older than this, ms: within 3 s of the coordinator stopping. */
const COORDINATOR_LOST_AFTER_MS = 2000;
const COORDINATOR_CHECK_MS = 500;

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
  const w = await openWorkerDb(o.databaseUrl, { supervise: false, waitForDatabase: true, ...(o.dbDelayMs ? { delayMs: o.dbDelayMs } : {}) });
  try {
    const first = await measureClockOffsetWell(() => w.nowMs(), wall);
    const problem = offsetProblem(first);
    if (problem) throw new WorkerError(`worker ${o.name} refused: ${problem}`);
    const [clash] = await w.db.query<{ host: string; pid: number }>(
      `SELECT host, pid FROM workers WHERE name = $1 AND seen_at > now() - make_interval(secs => $2) AND NOT (host = $3 AND pid = $4)`,
      [o.name, WORKER_LOST_AFTER_MS / 1000, hostname(), process.pid]);
    if (clash) throw new WorkerError(`a live worker is already named ${o.name} (pid ${clash.pid} on ${clash.host}): give this one another --name`);
    await w.db.query(
      `INSERT INTO workers (name, host, pid, cores, version, clock_offset_ms, clock_uncertainty_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (name) DO UPDATE SET host = $2, pid = $3, cores = $4, version = $5, clock_offset_ms = $6, clock_uncertainty_ms = $7, share = NULL, started_at = now(), seen_at = now()`,
      [o.name, hostname(), process.pid, availableParallelism(), TOOL_VERSION, first.offsetMs, first.uncertaintyMs]);
    // One line when the database goes away and one when it is back; the heartbeat carries on meanwhile.
    let down = false;
    const beat = setInterval(() => {
      void w.db.query('UPDATE workers SET seen_at = now() WHERE name = $1', [o.name]).then(() => {
        if (down) o.log(`worker ${o.name}: the database answers again; taking shares`);
        down = false;
      }, (err: unknown) => {
        if (!down) o.log(`worker ${o.name}: the database stopped answering (${(err as Error).message}); the share in progress is abandoned, retrying every ${HEARTBEAT_MS} ms`);
        down = true;
      });
    }, HEARTBEAT_MS);
    const starts = new Map<string, (m: StartMessage) => void>();
    const active = new Set<AbortController>();
    await w.listen(START_CHANNEL, (p) => {
      const m = p as StartMessage;
      if (typeof m === 'object' && m !== null) starts.get(`${m.sweep}/${m.level}`)?.(m);
    });
    await w.boss.work<unknown>(SHARE_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
      if (!job) return;
      const checked = authenticJob(job.data, o.secret);
      if (!checked.ok) return o.log(`worker ${o.name}: refused job ${job.id} from the queue: ${checked.why}; nothing was sent`);
      if (o.signal.aborted) return;
      try {
        await takeShare(w, o, checked.job, checked.key, { wall, originMs, starts, active });
      } catch {
        // The database went away mid-share (said once by the heartbeat); the share is abandoned.
      }
      // pg-boss marks the job done without catching a failure: it is handed back only once the database answers.
      while (!o.signal.aborted && !(await w.db.query('SELECT 1').then(() => true, () => false))) await new Promise((r) => setTimeout(r, HEARTBEAT_MS));
    });
    // Stopping aborts the share being sent at once: nothing is sent after the stop, and the worker ends within 2 s.
    o.signal.addEventListener('abort', () => { for (const a of active) a.abort(); }, { once: true });
    o.log(`worker ${o.name} ready: pid ${process.pid} on ${hostname()}, clock ${fmt(first.offsetMs)} ms from the database's (±${first.uncertaintyMs.toFixed(2)} ms)`);
    await new Promise<void>((resolve) => {
      if (o.signal.aborted) return resolve();
      o.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    clearInterval(beat);
    await w.boss.offWork(SHARE_QUEUE);
    await w.db.query('DELETE FROM workers WHERE name = $1 AND pid = $2', [o.name, process.pid]).catch(() => {});
    o.log(`worker ${o.name} stopped`);
  } finally {
    await w.close();
  }
}

const fmt = (ms: number) => `${ms >= 0 ? '+' : ''}${ms.toFixed(2)}`;

/** A start instant (or a stop) the coordinator announces, signed with the sweep's key. */
interface StartMessage { sweep: string; level: number; atMs?: number; stop?: boolean; mac?: string }

/**
 * A queue job this worker may act on: signed with its sweep's key (so written
 * by a process holding the workers' secret), then within the limits table.
 */
export function authenticJob(data: unknown, secret: Buffer): { ok: true; job: ShareJob; key: SweepKey } | { ok: false; why: string } {
  if (typeof data !== 'object' || data === null || typeof (data as { sweep?: unknown }).sweep !== 'string') return { ok: false, why: 'it is not a share job' };
  const { mac, ...body } = data as { sweep: string; mac?: unknown };
  const key = new SweepKey(secret, body.sweep);
  if (!key.verify('job', body, mac)) return { ok: false, why: `its signature does not check (${mac === undefined ? 'unsigned' : 'not signed with this worker\'s GOODPUT_WORKER_SECRET'})` };
  const checked = checkShareJob(body);
  return checked.ok ? { ok: true, job: checked.job, key } : { ok: false, why: `signed, but outside the limits: ${checked.why}` };
}

async function setShareSigned(w: WorkerDb, job: ShareJob, key: SweepKey, worker: string, detail: ShareDetail): Promise<void> {
  await w.db.query(
    `INSERT INTO worker_shares (share, sweep, level, share_index, worker, status, detail, mac) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (share) DO UPDATE SET worker = $5, status = $6, detail = $7, mac = $8, updated_at = now()`,
    [job.share, job.sweep, job.concurrency, job.index, worker, detail.status, JSON.stringify(detail), key.sign('share', { share: job.share, worker, detail })]);
  await w.notify(SHARE_CHANNEL, { share: job.share, status: detail.status });
}

interface Clocks { wall: () => number; originMs: number; starts: Map<string, (m: StartMessage) => void>; active: Set<AbortController> }

async function takeShare(w: WorkerDb, o: WorkerOptions, job: ShareJob, key: SweepKey, c: Clocks): Promise<void> {
  const setShare = (w1: WorkerDb, j: ShareJob, worker: string, detail: ShareDetail) => setShareSigned(w1, j, key, worker, detail);
  await setShare(w, job, o.name, { status: 'taken' });
  await w.db.query('UPDATE workers SET share = $2 WHERE name = $1', [o.name, job.share]);
  const measured = await measureClockOffsetWell(() => w.nowMs(), c.wall);
  const problem = offsetProblem(measured);
  if (problem) {
    o.log(`share ${job.share} refused: ${problem}`);
    return setShare(w, job, o.name, { status: 'refused', reason: `worker ${o.name}: ${problem}` });
  }
  if (job.needsApiKey && o.apiKey === undefined) {
    return setShare(w, job, o.name, { status: 'refused', reason: `worker ${o.name} has no API key and the sweep's server needs one: start it with GOODPUT_API_KEY set (a key never goes through the database)` });
  }
  const spec = { ...job.spec, ...(job.needsApiKey ? { apiKey: o.apiKey } : {}) };
  const clock: ShareClock = { offsetMs: measured.offsetMs, uncertaintyMs: measured.uncertaintyMs, originMs: c.originMs };
  const stop = new AbortController();
  c.active.add(stop);
  const level = `${job.sweep}/${job.concurrency}`;
  // The coordinator's heartbeat: a share whose coordinator stopped beating is abandoned, not sent to the end.
  let orphaned: string | null = null;
  const watch = setInterval(() => {
    void w.db.query<{ ago: number }>('SELECT (extract(epoch from now() - seen_at) * 1000)::float8 AS ago FROM worker_sweeps WHERE sweep = $1', [job.sweep]).then(([row]) => {
      if (orphaned !== null || stop.signal.aborted) return;
      if (row === undefined || Number(row.ago) > COORDINATOR_LOST_AFTER_MS) {
        orphaned = `its coordinator stopped answering (no heartbeat for ${COORDINATOR_LOST_AFTER_MS / 1000} s): share abandoned`;
        o.log(`worker ${o.name}: share ${job.share}: ${orphaned}`);
        stop.abort();
      }
    }, () => {});
  }, COORDINATOR_CHECK_MS);
  const client = createStreamingClient({ baseUrl: spec.url, apiKey: spec.apiKey }, {
    connections: job.connections, clock: monotonicNs, timeouts: spec.timeouts, dialect: dialects[job.dialect],
  });
  // Raw records go to the database as they come, in batches: a worker that dies keeps what it sent.
  // Each record is signed; a row already at one of the share's sequence numbers is a conflict that fails the share, never skipped.
  let writing: Promise<unknown> = Promise.resolve();
  let writeFailed: string | null = null;
  const macs: string[] = [];
  const batches = recordBatches(BATCH_RECORDS, BATCH_MS, (rows, count) => {
    const signed = macs.splice(0, count);
    writing = writing.then(() => w.db.query(
      `INSERT INTO worker_records (share, seq, record, mac)
       SELECT $1, (r.x->>'seq')::int, r.x, m.mac FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS r(x, i) JOIN jsonb_array_elements_text($3::jsonb) WITH ORDINALITY AS m(mac, i) USING (i)`,
      [job.share, rows, JSON.stringify(signed)])).catch((err: unknown) => {
      if (writeFailed !== null) return;
      const conflict = (err as { code?: string }).code === '23505';
      writeFailed = conflict
        ? `worker_records already held a row at one of share ${job.share}'s sequence numbers (${(err as { detail?: string }).detail ?? 'a duplicate key'}): another writer put it there; the share is refused`
        : `its records could not be written: ${(err as Error).message}`;
      o.log(`share ${job.share}: ${writeFailed}`);
      stop.abort();
    });
  });
  const flush = () => {
    batches.flush();
    return writing;
  };
  const label = `worker ${o.name}`;
  try {
    const { run, loopDelayMs, busyPct } = await runShare({
      client, spec, model: job.model, runId: job.runId, clock: monotonicNs, index: job.index, count: job.count,
      concurrency: job.concurrency, requests: job.requests, promptOffset: job.promptOffset, signal: stop.signal,
      onRecord: (r) => {
        if (writeFailed !== null) return;
        r.client = label;
        macs.push(key.sign('record', { share: job.share, record: r }));
        batches.add(r);
      },
      ready: () => new Promise<number>((resolve) => {
        const waitMs = Math.min(spec.timeouts.totalMs * (spec.warmup + 1) + START_SLACK_MS, START_WAIT_MAX_MS);
        const giveUp = setTimeout(() => { stop.abort(); resolve(monotonicNs()); }, waitMs);
        c.starts.set(level, (m) => {
          // Only a start or stop signed with the sweep's key is heard.
          const { mac, ...body } = m;
          if (!key.verify('start', body, mac)) return o.log(`worker ${o.name}: ignored an unsigned start for share ${job.share}`);
          clearTimeout(giveUp);
          c.starts.set(level, (n) => { const { mac: m2, ...b2 } = n; if (key.verify('start', b2, m2)) stop.abort(); });
          if (m.stop || m.atMs === undefined) {
            stop.abort();
            return resolve(monotonicNs());
          }
          resolve(localNs(m.atMs, clock));
        });
        void setShare(w, job, o.name, { status: 'ready', clock });
      }),
    });
    await flush();
    if (writeFailed !== null) return await setShare(w, job, o.name, { status: 'failed', reason: `worker ${o.name}: ${writeFailed}` });
    if (orphaned !== null) return;
    if (stop.signal.aborted && run.records.length === 0 && job.requests > 0) {
      return await setShare(w, job, o.name, { status: 'failed', reason: `worker ${o.name}: stopped before the level started` });
    }
    await setShare(w, job, o.name, { status: 'done', clock, loopDelayMs, busyPct, waitedForSlot: run.load.waitedForSlot, serverFailure: run.serverFailure });
  } catch (err) {
    await flush();
    await setShare(w, job, o.name, { status: 'failed', reason: `worker ${o.name}: ${(err as Error).message}` });
  } finally {
    c.starts.delete(level);
    c.active.delete(stop);
    clearInterval(watch);
    await client.close();
    await w.db.query('UPDATE workers SET share = NULL WHERE name = $1', [o.name]).catch(() => {});
  }
}
