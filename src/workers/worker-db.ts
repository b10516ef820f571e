/**
 * What a coordinator and its workers share: one PostgreSQL database holding the
 * store's tables (workers, worker_shares, worker_records: migration 2), pg-boss's
 * queue of level shares, and two LISTEN/NOTIFY channels — `goodput_share` (a
 * worker's share changed: taken, ready, done, refused) and `goodput_start` (the
 * start instant of a level, in the database's clock).
 */
import pg from 'pg';
import PgBoss from 'pg-boss';
import { type SqlDriver, migrate, openPgDriver, redactDatabaseUrl } from '../store/index.js';
import { DB_NOW_SQL } from './clock-offset.js';

/** The queue level shares are handed out on: any idle worker takes the next one. */
export const SHARE_QUEUE = 'goodput-level-shares';
export const SHARE_CHANNEL = 'goodput_share';
export const START_CHANNEL = 'goodput_start';
/** A worker bumps its row this often, ms (one not seen for WORKER_LOST_AFTER_MS is lost). */
export const HEARTBEAT_MS = 500;

export interface WorkerDb {
  db: SqlDriver;
  boss: PgBoss;
  /** The database's clock, epoch ms. */
  nowMs(): Promise<number>;
  /** Calls `fn` with each JSON payload sent on `channel`. */
  listen(channel: string, fn: (payload: unknown) => void): Promise<void>;
  notify(channel: string, payload: object): Promise<void>;
  close(): Promise<void>;
}

/**
 * Connects, applies the store's migrations and starts pg-boss (which keeps its
 * own schema). `supervise`: run pg-boss's maintenance (the coordinator does).
 * @throws Error naming the database (password redacted) when it does not answer.
 */
export async function openWorkerDb(url: string, o: { supervise: boolean; delayMs?: number }): Promise<WorkerDb> {
  const db = await openPgDriver(url);
  const listener = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  listener.on('error', () => {});
  const boss = new PgBoss({ connectionString: url, max: 3, schedule: false, supervise: o.supervise, migrate: true });
  boss.on('error', () => {});
  try {
    await migrate(db);
    await listener.connect();
    await boss.start();
    if ((await boss.getQueue(SHARE_QUEUE)) === null) {
      // Two processes may race to create it: the loser finds it there.
      await boss.createQueue(SHARE_QUEUE, { name: SHARE_QUEUE, retryLimit: 0, expireInSeconds: 12 * 3600 }).catch(async (err: unknown) => {
        if ((await boss.getQueue(SHARE_QUEUE)) === null) throw err;
      });
    }
  } catch (err) {
    await Promise.allSettled([boss.stop({ graceful: false, wait: false }), listener.end(), db.close()]);
    throw new Error(`PostgreSQL at ${redactDatabaseUrl(url)}: ${(err as Error).message}`);
  }
  const handlers = new Map<string, Array<(p: unknown) => void>>();
  listener.on('notification', (n) => {
    let payload: unknown = null;
    try { payload = JSON.parse(n.payload ?? 'null'); } catch { return; }
    for (const fn of handlers.get(n.channel) ?? []) fn(payload);
  });
  // A test hook: each clock read takes this much longer (a far or busy database).
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  return {
    db, boss,
    async nowMs() {
      if (o.delayMs) await pause(o.delayMs);
      const [row] = await db.query<{ ms: number }>(DB_NOW_SQL);
      return Number(row?.ms);
    },
    async listen(channel, fn) {
      if (!handlers.has(channel)) await listener.query(`LISTEN ${channel}`);
      handlers.set(channel, [...(handlers.get(channel) ?? []), fn]);
    },
    async notify(channel, payload) {
      await db.query('SELECT pg_notify($1, $2)', [channel, JSON.stringify(payload)]);
    },
    async close() {
      await Promise.allSettled([boss.stop({ graceful: false, wait: true }), listener.end()]);
      await db.close();
    },
  };
}
