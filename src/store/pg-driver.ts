/**
 * The PostgreSQL back end: a small `pg` pool. Same SQL as the embedded one.
 * The password in the URL never appears in a message.
 */
import pg from 'pg';
import { redactUrl } from '../core/index.js';
import type { SqlDriver, SqlExecutor, SqlParam } from './sql-driver.js';

/** `postgres://***:***@host:port/db?password=***`: the URL as it may be shown. */
export function redactDatabaseUrl(url: string): string {
  return redactUrl(url) ?? 'postgres://(unparseable URL)';
}

const run = async <T>(client: pg.Pool | pg.PoolClient | pg.Client, sql: string, params: readonly SqlParam[] = []) =>
  (await client.query(sql, [...params])).rows as T[];

/** One `pg` connection of the caller's own (a LISTEN session) as an executor of the store's statements. */
export function pgClientExecutor(client: pg.Client): SqlExecutor {
  return { query: (sql, params) => run(client, sql, params) };
}

/**
 * Connects to `url` and checks the connection with one query.
 * @throws Error naming the server (password redacted) when it cannot connect.
 */
export async function openPgDriver(url: string): Promise<SqlDriver> {
  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 10_000 });
  // An idle client losing its connection must not crash the process; the next query reports it.
  pool.on('error', () => {});
  try {
    await pool.query('SELECT 1');
  } catch (err) {
    await pool.end().catch(() => {});
    throw Object.assign(new Error(`cannot connect to PostgreSQL at ${redactDatabaseUrl(url)}: ${(err as Error).message}`), {
      code: (err as { code?: string }).code,
    });
  }
  return {
    kind: 'postgres',
    query: (sql, params) => run(pool, sql, params),
    async transaction(fn) {
      const client = await pool.connect();
      const tx: SqlExecutor = { query: (sql, params) => run(client, sql, params) };
      try {
        await client.query('BEGIN');
        const out = await fn(tx);
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
