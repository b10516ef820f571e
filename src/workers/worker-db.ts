/**
 * What a coordinator and its workers share: one PostgreSQL database holding the
 * store's tables (workers, worker_shares, worker_records: migration 2, read and
 * written through store's repositories), pg-boss's queue of level shares, and
 * two LISTEN/NOTIFY channels — `goodput_share` (a
 * worker's share changed: taken, ready, done, refused) and `goodput_start` (the
 * start instant of a level, in the database's clock).
 */
import pg from 'pg';
import PgBoss from 'pg-boss';
import {
  type SqlDriver,
  WorkerSharesRepo,
  WorkersRepo,
  advisoryLock,
  advisoryUnlock,
  databaseAnswers,
  databaseNowMs,
  listenOn,
  migrate,
  notifyChannel,
  openPgDriver,
  pgClientExecutor,
  redactDatabaseUrl,
} from '../store/index.js';

/** The queue level shares are handed out on: any idle worker takes the next one. */
export const SHARE_QUEUE = 'goodput-level-shares';
export const SHARE_CHANNEL = 'goodput_share';
export const START_CHANNEL = 'goodput_start';
/** A worker bumps its row this often, ms (one not seen for WORKER_LOST_AFTER_MS is lost). */
export const HEARTBEAT_MS = 500;
/** pg-boss's own schema set-up runs under this advisory lock (ours runs under the store's): processes started together take turns. */
const BOSS_SETUP_LOCK = 787_802;
/** Start-up errors worth another try (deadlock, serialization failure, the database starting or shutting down, too many connections)… */
const TRANSIENT = new Set(['40P01', '40001', '57P03', '57P01', '53300', 'ECONNRESET']);
/** …tried again for at most this long, ms, waiting 200 ms, 400 ms, … up to 3.2 s between tries. */
export const STARTUP_RETRY_MS = 30_000;

export interface WorkerDb {
  db: SqlDriver;
  /** The workers table. */
  workers: WorkersRepo;
  /** A sweep's heartbeat, shares, records and queued jobs. */
  shares: WorkerSharesRepo;
  boss: PgBoss;
  /** The database's clock, epoch ms. */
  nowMs(): Promise<number>;
  /** Calls `fn` with each JSON payload sent on `channel`. */
  listen(channel: string, fn: (payload: unknown) => void): Promise<void>;
  notify(channel: string, payload: object): Promise<void>;
  /** True when the database answers. */
  answers(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Connects, applies the store's migrations and starts pg-boss (which keeps its
 * own schema). `supervise`: run pg-boss's maintenance (the coordinator does).
 * @throws Error naming the database (password redacted) when it does not answer.
 */
export interface WorkerDbOptions {
  /** Run pg-boss's maintenance (the coordinator does). */
  supervise: boolean;
  delayMs?: number;
  /** Also retry "connection refused" at start-up (a worker, a long-running service). */
  waitForDatabase?: boolean;
  /** Called when the LISTEN connection is back after the database went away. */
  onReconnect?: () => void;
  /** Stops the start-up retries at once (a worker stopped while its database is not yet up). */
  signal?: AbortSignal;
  /** Called once, at the first start-up retry, with what the database answered. */
  onRetry?: (err: Error) => void;
}

export async function openWorkerDb(url: string, o: WorkerDbOptions): Promise<WorkerDb> {
  // A worker (a long-running service) also waits for a database still starting; a sweep typed by hand is told at once.
  const transient = (code: string | undefined) => code !== undefined && (TRANSIENT.has(code) || (o.waitForDatabase === true && code === 'ECONNREFUSED'));
  const until = Date.now() + STARTUP_RETRY_MS;
  for (let pause = 200, tries = 0; ; pause = Math.min(pause * 2, 3200), tries++) {
    try {
      return await openOnce(url, o);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (!transient(code) || Date.now() + pause > until || o.signal?.aborted) throw err;
      if (tries === 0) o.onRetry?.(err as Error);
      await new Promise<void>((r) => {
        const t = setTimeout(r, pause);
        o.signal?.addEventListener(
          'abort',
          () => {
            clearTimeout(t);
            r();
          },
          { once: true },
        );
      });
    }
  }
}

/** The store migrated, the LISTEN connection and pg-boss started with the share queue (one worker at a time sets it up). */
async function connect(url: string, o: WorkerDbOptions): Promise<{ db: Awaited<ReturnType<typeof openPgDriver>>; listener: pg.Client; boss: PgBoss }> {
  const db = await openPgDriver(url);
  const listener = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  listener.on('error', () => {});
  const boss = new PgBoss({ connectionString: url, max: 3, schedule: false, supervise: o.supervise, migrate: true });
  boss.on('error', () => {});
  try {
    await migrate(db);
    await listener.connect();
    await advisoryLock(pgClientExecutor(listener), BOSS_SETUP_LOCK);
    try {
      await boss.start();
      if ((await boss.getQueue(SHARE_QUEUE)) === null) {
        await boss.createQueue(SHARE_QUEUE, { name: SHARE_QUEUE, retryLimit: 0, expireInSeconds: 12 * 3600 });
      }
    } finally {
      await advisoryUnlock(pgClientExecutor(listener), BOSS_SETUP_LOCK).catch(() => {});
    }
  } catch (err) {
    await Promise.allSettled([boss.stop({ graceful: false, wait: false }), listener.end(), db.close()]);
    throw Object.assign(new Error(`PostgreSQL at ${redactDatabaseUrl(url)}: ${(err as Error).message}`), { code: (err as { code?: string }).code });
  }
  return { db, listener, boss };
}

async function openOnce(url: string, o: WorkerDbOptions): Promise<WorkerDb> {
  const opened = await connect(url, o);
  const { db, boss } = opened;
  let listener = opened.listener;
  const handlers = new Map<string, Array<(p: unknown) => void>>();
  const onNotification = (n: pg.Notification) => {
    let payload: unknown = null;
    try {
      payload = JSON.parse(n.payload ?? 'null');
    } catch {
      return;
    }
    for (const fn of handlers.get(n.channel) ?? []) fn(payload);
  };
  listener.on('notification', onNotification);
  // The LISTEN connection is one socket: when the database goes away it is opened again (every second) and listens again.
  let closing = false;
  const relisten = (dead: pg.Client) => {
    dead.once('end', () => {
      if (closing) return;
      const retry = setInterval(() => {
        const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
        next.on('error', () => {});
        next.connect().then(
          async () => {
            clearInterval(retry);
            for (const ch of handlers.keys()) await listenOn(pgClientExecutor(next), ch);
            next.on('notification', onNotification);
            listener = next;
            relisten(next);
            o.onReconnect?.();
          },
          () => {
            void next.end().catch(() => {});
          },
        );
      }, 1000);
      retry.unref();
    });
  };
  relisten(listener);
  // A test hook: each clock read takes this much longer (a far or busy database).
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  return {
    db,
    boss,
    workers: new WorkersRepo(db),
    shares: new WorkerSharesRepo(db),
    async nowMs() {
      if (o.delayMs) await pause(o.delayMs);
      return databaseNowMs(db);
    },
    async listen(channel, fn) {
      if (!handlers.has(channel)) await listenOn(pgClientExecutor(listener), channel);
      handlers.set(channel, [...(handlers.get(channel) ?? []), fn]);
    },
    async notify(channel, payload) {
      await notifyChannel(db, channel, payload);
    },
    answers: () => databaseAnswers(db),
    async close() {
      closing = true;
      await Promise.allSettled([boss.stop({ graceful: false, wait: true }), listener.end()]);
      await db.close();
    },
  };
}
