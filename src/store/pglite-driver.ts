/**
 * The embedded back end: PGlite (Postgres compiled to WASM) in this process,
 * persisted to a data directory, or in memory when none is given. One process
 * at a time may open a data directory (see embedded-lock.ts).
 */
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import type { SqlDriver, SqlExecutor, SqlParam } from './sql-driver.js';

type Queryable = { query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }> };

function executor(db: Queryable): SqlExecutor {
  return {
    async query<T>(sql: string, params: readonly SqlParam[] = []) {
      return (await db.query<T>(sql, [...params])).rows;
    },
  };
}

/**
 * Opens (creating when needed) an embedded database.
 * @param dataDir directory of the database files; in memory when undefined.
 */
export async function openPgliteDriver(dataDir?: string): Promise<SqlDriver> {
  if (dataDir !== undefined) await mkdir(dataDir, { recursive: true });
  const db = dataDir === undefined ? new PGlite() : new PGlite(dataDir);
  await db.waitReady;
  return {
    kind: 'pglite',
    ...executor(db),
    transaction: (fn) => db.transaction((tx) => fn(executor(tx))),
    close: () => db.close(),
  };
}
