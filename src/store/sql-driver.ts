/**
 * The store's narrow port: parameterized SQL ($1, $2, …), a transaction and
 * close. Two thin adapters implement it — PGlite (embedded) and `pg`
 * (PostgreSQL) — and every repository and migration uses the same SQL text
 * through it, so one contract suite covers both back ends.
 */

/** A value bound to a `$n` placeholder. JSON travels as text with a `::jsonb` cast. */
export type SqlParam = string | number | boolean | null;

/** Runs one statement. */
export interface SqlExecutor {
  /** Runs `sql` with `params` bound to `$1…` and resolves its rows (empty for statements without RETURNING). */
  query<T = Record<string, unknown>>(sql: string, params?: readonly SqlParam[]): Promise<T[]>;
}

/** A connection (or pool) to one database. */
export interface SqlDriver extends SqlExecutor {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` between BEGIN and COMMIT; a throw rolls back and is rethrown. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The SQLSTATE of a database error, when the driver gives one (both do: `err.code`). */
export function sqlState(err: unknown): string | null {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : null;
}

/** SQLSTATE of a unique-constraint violation. */
export const UNIQUE_VIOLATION = '23505';

/** A timestamptz as the drivers return it (a Date), as ISO-8601 text. */
export function isoTime(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  return new Date(String(v)).toISOString();
}

/** The largest id a row can have (ids are INTEGER): a larger one is "not found" before any SQL, never an out-of-range error. */
export const MAX_ROW_ID = 2_147_483_647;

/** Whether `id` can name a row at all. */
export const rowIdInRange = (id: number): boolean => Number.isSafeInteger(id) && id >= 1 && id <= MAX_ROW_ID;
