/**
 * The live `goodput worker` processes (migration 2's workers table): each keeps
 * its row fresh every half second; one not seen for WORKER_LOST_AFTER_MS is lost. The
 * coordinator waits on this list; the page shows it.
 */
import type { SqlExecutor } from './sql-driver.js';

/** A worker not seen for this long is lost, ms. */
export const WORKER_LOST_AFTER_MS = 3000;

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
     FROM workers WHERE seen_at > now() - make_interval(secs => $1) ORDER BY name`, [WORKER_LOST_AFTER_MS / 1000]);
  return rows.map((r) => ({ name: r.name, host: r.host, cores: r.cores, share: r.share, clockOffsetMs: r.clock_offset_ms, seenMsAgo: Number(r.ago) }));
}
