/**
 * The rows a distributed sweep keeps while it runs (migrations 2 to 4): the
 * coordinator's heartbeat (worker_sweeps), each share's report (worker_shares)
 * and its raw records (worker_records), and pg-boss's copies of the sweep's
 * jobs. Signatures (the mac columns) are made and checked by the workers area;
 * this repository stores them and reads every row with its columns bounded.
 */
import type { SqlExecutor } from './sql-driver.js';

/** A share's report as stored: who took it, what it says (JSON), and its signature. */
export interface ShareRowInput {
  share: string;
  sweep: string;
  level: number;
  index: number;
  worker: string;
  status: string;
  detail: string;
  mac: string;
}

/** A share's report as read back: the worker and detail null when longer than their bounds. */
export interface ShareRow {
  share: string;
  worker: string | null;
  detail: unknown;
  mac: string | null;
}

/** A share's record row as first measured: its uncompressed size, before anything of it is fetched. */
export interface RecordRow {
  seq: number;
  size: number;
  record: unknown;
  mac: string | null;
}

/** The bounds a share's records are read within, bytes and rows. */
export interface RecordReadBounds {
  maxRowBytes: number;
  batchBytes: number;
  batchRows: number;
}

/** `{"a","b"}`: a text[] literal of share keys (ours: hex, digits and slashes). */
const textArray = (keys: readonly string[]): string => `{${keys.map((k) => `"${k}"`).join(',')}}`;

export class WorkerSharesRepo {
  constructor(private readonly db: SqlExecutor) {}

  /** The coordinator's heartbeat of `sweep`: `beatMs` on the database's clock, signed. */
  async writeSweepBeat(sweep: string, beatMs: number, mac: string): Promise<void> {
    await this.db.query(
      `INSERT INTO worker_sweeps (sweep, beat_ms, mac) VALUES ($1, $2, $3)
       ON CONFLICT (sweep) DO UPDATE SET seen_at = now(), beat_ms = $2, mac = $3`,
      [sweep, beatMs, mac],
    );
  }

  /** The last heartbeat of `sweep` with the database's clock now, or null when it has none. */
  async sweepBeat(sweep: string): Promise<{ beatMs: number | null; mac: string | null; nowMs: number } | null> {
    const [row] = await this.db.query<{ beat_ms: number | null; mac: string | null; now_ms: number }>(
      `SELECT beat_ms, CASE WHEN octet_length(mac) <= 64 THEN mac END AS mac, (extract(epoch from clock_timestamp()) * 1000)::float8 AS now_ms
       FROM worker_sweeps WHERE sweep = $1`,
      [sweep],
    );
    return row === undefined ? null : { beatMs: row.beat_ms, mac: row.mac, nowMs: Number(row.now_ms) };
  }

  /**
   * Writes a share's report. `claim`: only when no row is there yet; false when
   * one was (another worker took the share).
   */
  async writeShare(r: ShareRowInput, claim: boolean): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO worker_shares (share, sweep, level, share_index, worker, status, detail, mac) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (share) DO ${claim ? 'NOTHING' : 'UPDATE SET worker = $5, status = $6, detail = $7, mac = $8, updated_at = now()'} RETURNING share`,
      [r.share, r.sweep, r.level, r.index, r.worker, r.status, r.detail, r.mac],
    );
    return rows.length > 0;
  }

  /** The reports at `keys`, a detail longer than `maxDetailBytes` read as null. */
  async shares(keys: readonly string[], maxDetailBytes: number): Promise<ShareRow[]> {
    return this.db.query<ShareRow>(
      `SELECT share, CASE WHEN octet_length(worker) <= 64 THEN worker END AS worker, CASE WHEN octet_length(detail::text) <= $2 THEN detail END AS detail,
         CASE WHEN octet_length(mac) <= 64 THEN mac END AS mac
       FROM worker_shares WHERE share = ANY($1::text[])`,
      [textArray(keys), maxDetailBytes],
    );
  }

  /** Deletes every record and report at `keys`. */
  async clearShares(keys: readonly string[]): Promise<void> {
    const keyList = textArray(keys);
    await this.db.query('DELETE FROM worker_records WHERE share = ANY($1::text[])', [keyList]);
    await this.db.query('DELETE FROM worker_shares WHERE share = ANY($1::text[])', [keyList]);
  }

  /** Appends records (a JSON array) with their signatures (a JSON array of the same length) to `share`; a row already at a seq fails it (23505). */
  async insertRecords(share: string, recordsJson: string, macsJson: string): Promise<void> {
    await this.db.query(
      `INSERT INTO worker_records (share, seq, record, mac)
       SELECT $1, (r.x->>'seq')::int, r.x, m.mac FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS r(x, i) JOIN jsonb_array_elements_text($3::jsonb) WITH ORDINALITY AS m(mac, i) USING (i)`,
      [share, recordsJson, macsJson],
    );
  }

  /** The rows of `share` outside `seqs`: how many, and the first one's seq. */
  async recordsOutside(share: string, seqs: readonly number[]): Promise<{ n: number; first: number | null }> {
    const [extra] = await this.db.query<{ n: number; first: number | null }>(
      `SELECT count(*)::int AS n, min(seq) AS first FROM worker_records WHERE share = $1 AND NOT (seq IN (SELECT jsonb_array_elements_text($2::jsonb)::int))`,
      [share, JSON.stringify(seqs)],
    );
    return { n: extra?.n ?? 0, first: extra?.first ?? null };
  }

  /**
   * A share's rows at `seqs`, in batches of at most `batchBytes` of record text
   * and `batchRows` rows (in seq order), each row measured by its uncompressed
   * size (octet_length of its text) in the database: a row above `maxRowBytes`,
   * or past its batch's budget, comes back with no record (a later batch takes
   * the latter). `fn` sees each batch; nothing of a refused row reaches this process.
   */
  async recordBatches(share: string, seqs: readonly number[], bounds: RecordReadBounds, fn: (rows: RecordRow[]) => void): Promise<void> {
    const wanted = JSON.stringify(seqs);
    let after = -1;
    for (let guard = 0; guard <= seqs.length; guard++) {
      const rows = await this.db.query<{ seq: number; size: number; record: unknown; mac: string | null; cut: boolean }>(
        `WITH sized AS (SELECT seq, octet_length(record::text) AS size FROM worker_records
                        WHERE share = $1 AND seq > $5 AND seq IN (SELECT jsonb_array_elements_text($2::jsonb)::int) ORDER BY seq LIMIT $6),
              summed AS (SELECT seq, size, sum(CASE WHEN size <= $3 THEN size ELSE 0 END) OVER (ORDER BY seq) AS upto FROM sized)
         SELECT s.seq, s.size, CASE WHEN s.size <= $3 AND s.upto <= $4 THEN r.record END AS record,
           CASE WHEN octet_length(r.mac) <= 64 THEN r.mac END AS mac, s.size <= $3 AND s.upto > $4 AS cut
         FROM summed s JOIN worker_records r ON r.share = $1 AND r.seq = s.seq
         ORDER BY s.seq`,
        [share, wanted, bounds.maxRowBytes, bounds.batchBytes, after, bounds.batchRows],
      );
      // The first row always fits (the budget is at least a row's bound), so each batch moves on.
      const cut = rows.findIndex((r) => r.cut);
      const taken = cut === -1 ? rows : rows.slice(0, cut);
      if (taken.length === 0) return;
      fn(taken.map((r) => ({ seq: r.seq, size: Number(r.size), record: r.record, mac: r.mac })));
      after = (taken.at(-1) as { seq: number }).seq;
    }
  }

  /** Deletes the records of every share of `sweep`. */
  async deleteSweepRecords(sweep: string): Promise<void> {
    await this.db.query(`DELETE FROM worker_records WHERE share LIKE $1`, [`${sweep}/%`]);
  }

  /** Deletes the reports of every share of `sweep`. */
  async deleteSweepShares(sweep: string): Promise<void> {
    await this.db.query('DELETE FROM worker_shares WHERE sweep = $1', [sweep]);
  }

  /** Deletes the coordinator's heartbeat row of `sweep`. */
  async deleteSweepBeat(sweep: string): Promise<void> {
    await this.db.query('DELETE FROM worker_sweeps WHERE sweep = $1', [sweep]);
  }

  /** Sweeps whose reports and coordinator have not been seen for `hours`. */
  async abandonedSweeps(hours: number): Promise<string[]> {
    const old = await this.db.query<{ sweep: string }>(
      `SELECT DISTINCT s.sweep FROM worker_shares s LEFT JOIN worker_sweeps c USING (sweep)
       WHERE (c.seen_at IS NULL OR c.seen_at < now() - make_interval(hours => $1)) AND s.updated_at < now() - make_interval(hours => $1)`,
      [hours],
    );
    return old.map((r) => r.sweep);
  }

  /** Deletes the heartbeat rows of coordinators not seen for `hours`. */
  async deleteStaleSweepBeats(hours: number): Promise<void> {
    await this.db.query('DELETE FROM worker_sweeps WHERE seen_at < now() - make_interval(hours => $1)', [hours]);
  }

  /** Deletes the jobs of `sweep` on `queue` wherever pg-boss keeps them (waiting, active, completed, archived). */
  async deleteQueuedJobs(queue: string, sweep: string): Promise<void> {
    for (const table of ['job', 'archive']) {
      await this.db.query(`DELETE FROM pgboss.${table} WHERE name = $1 AND data->>'sweep' = $2`, [queue, sweep]);
    }
  }
}
