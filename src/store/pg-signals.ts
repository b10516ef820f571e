/**
 * What a process reads of or says through PostgreSQL itself, touching no
 * table: the database's clock, NOTIFY and LISTEN, a session advisory lock, and
 * whether it answers at all. Distributed workers agree their start instants and
 * pass notices round through these; the statements live here with the rest.
 */
import type { SqlExecutor } from './sql-driver.js';

/** The database's clock, epoch ms with microseconds, read when the statement runs. */
export async function databaseNowMs(db: SqlExecutor): Promise<number> {
  const [row] = await db.query<{ ms: number }>('SELECT (extract(epoch from clock_timestamp()) * 1000)::float8 AS ms');
  return Number(row?.ms);
}

/** Sends `payload` as JSON on `channel` to every session listening on it. */
export async function notifyChannel(db: SqlExecutor, channel: string, payload: object): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [channel, JSON.stringify(payload)]);
}

/** Listens on `channel` (one of our own fixed names, never user input: LISTEN takes no parameter) on this session. */
export async function listenOn(db: SqlExecutor, channel: string): Promise<void> {
  await db.query(`LISTEN ${channel}`);
}

/** True when the database answers a trivial statement. */
export function databaseAnswers(db: SqlExecutor): Promise<boolean> {
  return db.query('SELECT 1').then(
    () => true,
    () => false,
  );
}

/** Takes the session advisory lock `key` (waits until it is free) on this session. */
export async function advisoryLock(db: SqlExecutor, key: number): Promise<void> {
  await db.query('SELECT pg_advisory_lock($1)', [key]);
}

/** Releases the session advisory lock `key`. */
export async function advisoryUnlock(db: SqlExecutor, key: number): Promise<void> {
  await db.query('SELECT pg_advisory_unlock($1)', [key]);
}
