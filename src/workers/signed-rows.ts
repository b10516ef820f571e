/**
 * The SQL of the rows a coordinator and its workers must not take on trust: the
 * coordinator's heartbeat (worker_sweeps) and each worker's registration and
 * heartbeat (workers), both signed over the database's clock at the beat, so a
 * copied row goes stale within the liveness bound; a share's records, measured
 * by their uncompressed size before any is fetched and read in bounded batches;
 * and the queue's jobs of a sweep, deleted when it ends so none can be run again.
 */
import { WORKER_LOST_AFTER_MS, type WorkerView } from '../store/index.js';
import type { SweepKey } from './share-auth.js';
import type { ShareDetail, ShareJob } from './share-job.js';
import { SHARE_CHANNEL, SHARE_QUEUE, type WorkerDb } from './worker-db.js';

/** A worker abandons a share (or refuses a job) when its coordinator's last signed beat is older than this, ms. */
export const COORDINATOR_LOST_AFTER_MS = 2000;
/** A beat stamped further ahead of the database's clock than this is no beat, ms. */
const FUTURE_SLACK_MS = 1000;
/** The most worker rows read when counting live workers; each column bounded, so the read is bounded whatever the table holds. */
const MAX_WORKER_ROWS = 10_000;
/** A share report larger than this is not read, bytes. */
export const MAX_SHARE_DETAIL_BYTES = 64 * 1024;

const fresh = (beatMs: number, nowMs: number, maxAgeMs: number) => beatMs <= nowMs + FUTURE_SLACK_MS && nowMs - beatMs <= maxAgeMs;

/** Writes the sweep's heartbeat: the database's time now, signed with the sweep's key. */
export async function beatSweep(w: WorkerDb, key: SweepKey): Promise<void> {
  const beatMs = Math.round(await w.nowMs());
  await w.db.query(
    `INSERT INTO worker_sweeps (sweep, beat_ms, mac) VALUES ($1, $2, $3)
     ON CONFLICT (sweep) DO UPDATE SET seen_at = now(), beat_ms = $2, mac = $3`,
    [key.sweep, beatMs, key.sign('beat', { sweep: key.sweep, beatMs })]);
}

/** True when the sweep's coordinator signed a beat within `maxAgeMs` of the database's clock now. */
export async function sweepIsLive(w: WorkerDb, key: SweepKey, maxAgeMs = COORDINATOR_LOST_AFTER_MS): Promise<boolean> {
  const [row] = await w.db.query<{ beat_ms: number | null; mac: string | null; now_ms: number }>(
    `SELECT beat_ms, CASE WHEN octet_length(mac) <= 64 THEN mac END AS mac, (extract(epoch from clock_timestamp()) * 1000)::float8 AS now_ms
     FROM worker_sweeps WHERE sweep = $1`, [key.sweep]);
  if (row === undefined || row.beat_ms === null) return false;
  const beatMs = Number(row.beat_ms);
  return key.verify('beat', { sweep: key.sweep, beatMs }, row.mac) && fresh(beatMs, Number(row.now_ms), maxAgeMs);
}

/** What a worker says of itself, signed with every heartbeat. */
export interface Registration { name: string; host: string; pid: number; cores: number; version: string; clockOffsetMs: number; clockUncertaintyMs: number }

const signedWorker = (r: Registration, beatMs: number) => ({ ...r, beatMs });

/** Registers a worker (its row replaced) with its first signed beat. */
export async function registerWorker(w: WorkerDb, key: SweepKey, r: Registration): Promise<void> {
  const beatMs = Math.round(await w.nowMs());
  await w.db.query(
    `INSERT INTO workers (name, host, pid, cores, version, clock_offset_ms, clock_uncertainty_ms, beat_ms, mac) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (name) DO UPDATE SET host = $2, pid = $3, cores = $4, version = $5, clock_offset_ms = $6, clock_uncertainty_ms = $7,
       share = NULL, started_at = now(), seen_at = now(), beat_ms = $8, mac = $9`,
    [r.name, r.host, r.pid, r.cores, r.version, r.clockOffsetMs, r.clockUncertaintyMs, beatMs, key.sign('worker', signedWorker(r, beatMs))]);
}

/** One heartbeat of a registered worker. */
export async function beatWorker(w: WorkerDb, key: SweepKey, r: Registration): Promise<void> {
  const beatMs = Math.round(await w.nowMs());
  await w.db.query('UPDATE workers SET seen_at = now(), beat_ms = $3, mac = $4 WHERE name = $1 AND pid = $2',
    [r.name, r.pid, beatMs, key.sign('worker', signedWorker(r, beatMs))]);
}

/**
 * The workers whose row a worker holding the secret signed within the lost
 * bound: a row written or kept fresh by anyone else does not count as live.
 */
export async function signedLiveWorkers(w: WorkerDb, key: SweepKey): Promise<WorkerView[]> {
  const rows = await w.db.query<{ name: string; host: string; pid: number; cores: number; version: string; clock_offset_ms: number | null; clock_uncertainty_ms: number | null; share: string | null; beat_ms: number; mac: string | null; now_ms: number }>(
    `SELECT name, host, pid, cores, version, clock_offset_ms, clock_uncertainty_ms, CASE WHEN octet_length(share) <= 200 THEN share END AS share, beat_ms, mac,
       (extract(epoch from clock_timestamp()) * 1000)::float8 AS now_ms
     FROM workers
     WHERE beat_ms IS NOT NULL AND octet_length(name) <= 64 AND octet_length(host) <= 255 AND octet_length(version) <= 64 AND octet_length(mac) <= 64
       AND seen_at > now() - make_interval(secs => $1)
     ORDER BY name LIMIT $2`, [WORKER_LOST_AFTER_MS / 1000, MAX_WORKER_ROWS]);
  const live: WorkerView[] = [];
  for (const r of rows) {
    const beatMs = Number(r.beat_ms);
    if (r.clock_offset_ms === null || r.clock_uncertainty_ms === null || !fresh(beatMs, Number(r.now_ms), WORKER_LOST_AFTER_MS)) continue;
    const reg: Registration = { name: r.name, host: r.host, pid: r.pid, cores: r.cores, version: r.version, clockOffsetMs: r.clock_offset_ms, clockUncertaintyMs: r.clock_uncertainty_ms };
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
export async function writeShare(w: WorkerDb, key: SweepKey, job: ShareJob, worker: string, detail: ShareDetail, o: { claim?: boolean } = {}): Promise<boolean> {
  const rows = await w.db.query(
    `INSERT INTO worker_shares (share, sweep, level, share_index, worker, status, detail, mac) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (share) DO ${o.claim ? 'NOTHING' : 'UPDATE SET worker = $5, status = $6, detail = $7, mac = $8, updated_at = now()'} RETURNING share`,
    [job.share, job.sweep, job.concurrency, job.index, worker, detail.status, JSON.stringify(detail), key.sign('share', { share: job.share, worker, detail })]);
  if (rows.length === 0) return false;
  await w.notify(SHARE_CHANNEL, { share: job.share, status: detail.status });
  return true;
}

/** Deletes the queue's jobs of `sweep`, wherever pg-boss keeps them (waiting, active, completed, archived): none can be taken again. */
export async function deleteSweepJobs(w: WorkerDb, sweep: string): Promise<void> {
  for (const table of ['job', 'archive']) {
    await w.db.query(`DELETE FROM pgboss.${table} WHERE name = $1 AND data->>'sweep' = $2`, [SHARE_QUEUE, sweep]);
  }
}

/** A share's record row as first measured: its uncompressed size, before anything of it is fetched. */
export interface RecordRow { seq: number; size: number; record: unknown; mac: string | null }

/**
 * A share's rows at `seqs`, in batches of at most `batchBytes` of record text
 * and `batchRows` rows (in seq order), each row measured by its uncompressed
 * size (octet_length of its text) in the database: a row above `maxRowBytes`,
 * or past its batch's budget, comes back with no record (a later batch takes
 * the latter). `fn` sees each batch; nothing of a refused row reaches this process.
 */
export async function readRecordBatches(w: WorkerDb, share: string, seqs: readonly number[], bounds: { maxRowBytes: number; batchBytes: number; batchRows: number }, fn: (rows: RecordRow[]) => void): Promise<void> {
  const wanted = JSON.stringify(seqs);
  let after = -1;
  for (let guard = 0; guard <= seqs.length; guard++) {
    const rows = await w.db.query<{ seq: number; size: number; record: unknown; mac: string | null; cut: boolean }>(
      `WITH sized AS (SELECT seq, octet_length(record::text) AS size FROM worker_records
                      WHERE share = $1 AND seq > $5 AND seq IN (SELECT jsonb_array_elements_text($2::jsonb)::int) ORDER BY seq LIMIT $6),
            summed AS (SELECT seq, size, sum(CASE WHEN size <= $3 THEN size ELSE 0 END) OVER (ORDER BY seq) AS upto FROM sized)
       SELECT s.seq, s.size, CASE WHEN s.size <= $3 AND s.upto <= $4 THEN r.record END AS record,
         CASE WHEN octet_length(r.mac) <= 64 THEN r.mac END AS mac, s.size <= $3 AND s.upto > $4 AS cut
       FROM summed s JOIN worker_records r ON r.share = $1 AND r.seq = s.seq
       ORDER BY s.seq`, [share, wanted, bounds.maxRowBytes, bounds.batchBytes, after, bounds.batchRows]);
    // The first row always fits (the budget is at least a row's bound), so each batch moves on.
    const cut = rows.findIndex((r) => r.cut);
    const taken = cut === -1 ? rows : rows.slice(0, cut);
    if (taken.length === 0) return;
    fn(taken.map((r) => ({ seq: r.seq, size: Number(r.size), record: r.record, mac: r.mac })));
    after = (taken.at(-1) as { seq: number }).seq;
  }
}
