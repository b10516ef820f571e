/**
 * The schema, as numbered migrations recorded in `schema_migrations`. A
 * migration is a list of statements applied in one transaction, under an
 * advisory lock so two processes starting together on PostgreSQL do not race.
 * Never edit a released migration: add the next number.
 */
import type { SqlDriver } from './sql-driver.js';

export interface Migration {
  version: number;
  name: string;
  statements: readonly string[];
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'servers, runs, levels and raw records',
    statements: [
      `CREATE TABLE servers (
        id INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        base_url TEXT NOT NULL,
        api_key TEXT,
        model TEXT,
        engine TEXT,
        gpu_label TEXT,
        hourly_cost_usd DOUBLE PRECISION CHECK (hourly_cost_usd >= 0),
        status TEXT NOT NULL CHECK (status IN ('running', 'stopped', 'unreachable')),
        status_detail TEXT,
        status_model TEXT,
        status_checked_at TIMESTAMPTZ NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE runs (
        id INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        server_id INTEGER REFERENCES servers (id) ON DELETE SET NULL,
        server_name TEXT,
        target_url TEXT NOT NULL,
        model TEXT,
        status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'stopped', 'server-failed', 'interrupted')),
        stop_reason TEXT,
        spec JSONB NOT NULL,
        run_info JSONB,
        extras JSONB,
        warnings JSONB NOT NULL DEFAULT '[]'::jsonb,
        cards JSONB,
        owner_pid INTEGER NOT NULL,
        owner_host TEXT NOT NULL,
        started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        heartbeat_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        ended_at TIMESTAMPTZ
      )`,
      // Levels must not contend: at most one running run per target server.
      `CREATE UNIQUE INDEX runs_one_running_per_target ON runs (target_url) WHERE status = 'running'`,
      `CREATE INDEX runs_by_start ON runs (started_at DESC)`,
      `CREATE TABLE levels (
        run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        concurrency DOUBLE PRECISION NOT NULL CHECK (concurrency > 0),
        invalid BOOLEAN NOT NULL,
        client_bound BOOLEAN NOT NULL,
        failed INTEGER NOT NULL,
        throughput_tok_s DOUBLE PRECISION NOT NULL,
        result JSONB NOT NULL,
        saved_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (run_id, concurrency)
      )`,
      `CREATE TABLE records (
        run_id INTEGER NOT NULL,
        concurrency DOUBLE PRECISION NOT NULL,
        seq INTEGER NOT NULL,
        warmup BOOLEAN NOT NULL,
        outcome TEXT NOT NULL,
        record JSONB NOT NULL,
        PRIMARY KEY (run_id, concurrency, seq),
        FOREIGN KEY (run_id, concurrency) REFERENCES levels (run_id, concurrency) ON DELETE CASCADE
      )`,
    ],
  },
  {
    version: 2,
    name: 'distributed workers: who is live, the level shares they took, and the raw records they stream',
    statements: [
      // A worker upserts its row and bumps seen_at every heartbeat; a row not seen for a few seconds is a lost worker.
      `CREATE TABLE workers (
        name TEXT PRIMARY KEY,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        cores INTEGER NOT NULL,
        version TEXT NOT NULL,
        clock_offset_ms DOUBLE PRECISION,
        clock_uncertainty_ms DOUBLE PRECISION,
        share TEXT,
        started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        seen_at TIMESTAMPTZ NOT NULL DEFAULT now()
      )`,
      // One row per share of a level, written by the worker that took it from the queue.
      `CREATE TABLE worker_shares (
        share TEXT PRIMARY KEY,
        sweep TEXT NOT NULL,
        level DOUBLE PRECISION NOT NULL,
        share_index INTEGER NOT NULL,
        worker TEXT,
        status TEXT NOT NULL CHECK (status IN ('taken', 'ready', 'done', 'refused', 'failed')),
        detail JSONB,
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX worker_shares_by_sweep ON worker_shares (sweep, level)`,
      // Raw records as the worker streams them, on the worker's own clock (the share's detail carries the offset).
      `CREATE TABLE worker_records (
        share TEXT NOT NULL,
        seq INTEGER NOT NULL,
        record JSONB NOT NULL,
        PRIMARY KEY (share, seq)
      )`,
    ],
  },
  {
    version: 3,
    name: "signed worker rows and the coordinator's own heartbeat",
    statements: [
      // The HMAC of each row under its sweep's key: the coordinator believes only rows its workers signed.
      'ALTER TABLE worker_shares ADD COLUMN mac TEXT',
      'ALTER TABLE worker_records ADD COLUMN mac TEXT',
      // One row per sweep while its coordinator lives: workers abandon a share whose coordinator stopped beating.
      `CREATE TABLE worker_sweeps (
        sweep TEXT PRIMARY KEY,
        seen_at TIMESTAMPTZ NOT NULL DEFAULT now()
      )`,
    ],
  },
  {
    version: 4,
    name: 'embeddings and rerank levels: their peak is items per second',
    statements: [
      // Null for text levels (their peak is throughput_tok_s); a pooling level's throughput_tok_s is 0.
      'ALTER TABLE levels ADD COLUMN items_per_s DOUBLE PRECISION CHECK (items_per_s >= 0)',
    ],
  },
  {
    version: 5,
    name: "signed heartbeats: a worker's and a coordinator's row count as live only while signed over a recent instant",
    statements: [
      // The database's clock at the beat (epoch ms) and the HMAC over it: a copied row goes stale, a forged one never counts.
      'ALTER TABLE workers ADD COLUMN beat_ms DOUBLE PRECISION',
      'ALTER TABLE workers ADD COLUMN mac TEXT',
      'ALTER TABLE worker_sweeps ADD COLUMN beat_ms DOUBLE PRECISION',
      'ALTER TABLE worker_sweeps ADD COLUMN mac TEXT',
    ],
  },
];

/** Any number; the same on every back end, so concurrent migrators serialize. */
const MIGRATION_LOCK = 787_801;

/**
 * Applies every migration not yet recorded, in order.
 * @returns the versions applied by this call (empty when up to date).
 */
export async function migrate(db: SqlDriver, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
    const rows = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
    const done = new Set(rows.map((r) => r.version));
    const applied: number[] = [];
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(m.version)) continue;
      for (const sql of m.statements) await tx.query(sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}
