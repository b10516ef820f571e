/**
 * The live `goodput worker` processes (migration 2's workers table): each keeps
 * its row fresh every half second; one not seen for WORKER_LOST_AFTER_MS is lost. The
 * coordinator waits on this list; the page shows it. A worker registers and
 * beats through WorkersRepo with a signature (its mac) the workers area makes
 * and checks: this file only stores and reads the rows.
 */
import type { SqlExecutor } from './sql-driver.js';

/** A worker not seen for this long is lost, ms. */
export const WORKER_LOST_AFTER_MS = 3000;

/** The most worker rows read when counting live workers; each column bounded, so the read is bounded whatever the table holds. */
const MAX_WORKER_ROWS = 10_000;

export interface WorkerView {
  name: string;
  host: string;
  cores: number;
  /** The share it is sending (`sweep/level/index`), or null when idle. */
  share: string | null;
  /** The database's clock minus the worker's, as it measured when it joined, ms. */
  clockOffsetMs: number | null;
  seenMsAgo: number;
}

export async function liveWorkers(db: SqlExecutor): Promise<WorkerView[]> {
  const rows = await db.query<{ name: string; host: string; cores: number; share: string | null; clock_offset_ms: number | null; ago: number }>(
    `SELECT name, host, cores, share, clock_offset_ms, (extract(epoch from now() - seen_at) * 1000)::float8 AS ago
     FROM workers WHERE seen_at > now() - make_interval(secs => $1) ORDER BY name`,
    [WORKER_LOST_AFTER_MS / 1000],
  );
  return rows.map((r) => ({ name: r.name, host: r.host, cores: r.cores, share: r.share, clockOffsetMs: r.clock_offset_ms, seenMsAgo: Number(r.ago) }));
}

/** What a worker says of itself, signed with every heartbeat. */
export interface WorkerRegistration {
  name: string;
  host: string;
  pid: number;
  cores: number;
  version: string;
  clockOffsetMs: number;
  clockUncertaintyMs: number;
}

/** A worker row as read for its signature: bounded columns, the database's clock at the read, and the last signed beat. */
export interface SignedWorkerRow {
  name: string;
  host: string;
  pid: number;
  cores: number;
  version: string;
  clock_offset_ms: number | null;
  clock_uncertainty_ms: number | null;
  /** Null when longer than a share key can be. */
  share: string | null;
  beat_ms: number;
  mac: string | null;
  /** The database's clock when the row was read, epoch ms. */
  now_ms: number;
}

export class WorkersRepo {
  constructor(private readonly db: SqlExecutor) {}

  /** Registers a worker (its row replaced) with its first beat, at `beatMs` on the database's clock, and the beat's signature. */
  async register(r: WorkerRegistration, beatMs: number, mac: string): Promise<void> {
    await this.db.query(
      `INSERT INTO workers (name, host, pid, cores, version, clock_offset_ms, clock_uncertainty_ms, beat_ms, mac) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (name) DO UPDATE SET host = $2, pid = $3, cores = $4, version = $5, clock_offset_ms = $6, clock_uncertainty_ms = $7,
         share = NULL, started_at = now(), seen_at = now(), beat_ms = $8, mac = $9`,
      [r.name, r.host, r.pid, r.cores, r.version, r.clockOffsetMs, r.clockUncertaintyMs, beatMs, mac],
    );
  }

  /** One heartbeat of the worker `name` running as `pid`. */
  async beat(name: string, pid: number, beatMs: number, mac: string): Promise<void> {
    await this.db.query('UPDATE workers SET seen_at = now(), beat_ms = $3, mac = $4 WHERE name = $1 AND pid = $2', [name, pid, beatMs, mac]);
  }

  /** The rows seen within the lost bound that carry a beat, each column bounded, by name; at most MAX_WORKER_ROWS. */
  async signedRows(): Promise<SignedWorkerRow[]> {
    return this.db.query<SignedWorkerRow>(
      `SELECT name, host, pid, cores, version, clock_offset_ms, clock_uncertainty_ms, CASE WHEN octet_length(share) <= 200 THEN share END AS share, beat_ms, mac,
         (extract(epoch from clock_timestamp()) * 1000)::float8 AS now_ms
       FROM workers
       WHERE beat_ms IS NOT NULL AND octet_length(name) <= 64 AND octet_length(host) <= 255 AND octet_length(version) <= 64 AND octet_length(mac) <= 64
         AND seen_at > now() - make_interval(secs => $1)
       ORDER BY name LIMIT $2`,
      [WORKER_LOST_AFTER_MS / 1000, MAX_WORKER_ROWS],
    );
  }

  /** Another live worker already named `name` (not this host and pid), or null. */
  async liveNamesake(name: string, host: string, pid: number): Promise<{ host: string; pid: number } | null> {
    const [clash] = await this.db.query<{ host: string; pid: number }>(
      `SELECT host, pid FROM workers WHERE name = $1 AND seen_at > now() - make_interval(secs => $2) AND NOT (host = $3 AND pid = $4)`,
      [name, WORKER_LOST_AFTER_MS / 1000, host, pid],
    );
    return clash ?? null;
  }

  /** The share the worker is sending, or null when it is idle again. */
  async setShare(name: string, share: string | null): Promise<void> {
    if (share === null) await this.db.query('UPDATE workers SET share = NULL WHERE name = $1', [name]);
    else await this.db.query('UPDATE workers SET share = $2 WHERE name = $1', [name, share]);
  }

  /** The worker `name` running as `pid` stopped. */
  async remove(name: string, pid: number): Promise<void> {
    await this.db.query('DELETE FROM workers WHERE name = $1 AND pid = $2', [name, pid]);
  }
}
