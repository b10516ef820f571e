/**
 * Where the store lives. PostgreSQL when `--database-url` or
 * GOODPUT_DATABASE_URL is given; else the embedded database in `--data DIR`,
 * GOODPUT_DATA, or `~/.goodput/db` (GOODPUT_HOME replaces `~/.goodput`).
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { redactDatabaseUrl } from './pg-driver.js';
import { StoreError } from './store-error.js';

export type StoreLocation = { kind: 'embedded'; dir: string } | { kind: 'postgres'; url: string };

export interface StoreFlags {
  /** Embedded database directory. */
  data?: string;
  /** PostgreSQL connection URL. */
  databaseUrl?: string;
}

export interface ResolvedLocation {
  location: StoreLocation;
  /** True when a flag or variable chose it (not the default directory). */
  explicit: boolean;
}

/** `~/.goodput`, or GOODPUT_HOME. */
export function goodputHome(env: NodeJS.ProcessEnv = process.env): string {
  return env['GOODPUT_HOME'] || join(homedir(), '.goodput');
}

/** @throws StoreError 'bad-input' when both an embedded directory and a database URL are given as flags. */
export function resolveStoreLocation(flags: StoreFlags, env: NodeJS.ProcessEnv = process.env): ResolvedLocation {
  if (flags.data !== undefined && flags.databaseUrl !== undefined) {
    throw new StoreError('bad-input', 'give either --data (embedded) or --database-url (PostgreSQL), not both', 'data');
  }
  const url = flags.data === undefined ? (flags.databaseUrl ?? (env['GOODPUT_DATABASE_URL'] || undefined)) : undefined;
  if (url !== undefined) {
    if (!/^postgres(ql)?:\/\//.test(url))
      throw new StoreError('bad-input', `database URL must start with postgres:// (got "${redactDatabaseUrl(url)}")`, 'databaseUrl');
    return { location: { kind: 'postgres', url }, explicit: true };
  }
  const dir = flags.data ?? (env['GOODPUT_DATA'] || undefined);
  if (dir !== undefined) return { location: { kind: 'embedded', dir: resolve(dir) }, explicit: true };
  return { location: { kind: 'embedded', dir: join(goodputHome(env), 'db') }, explicit: false };
}

/** A store is configured when it was named explicitly or the default one exists already. */
export function storeConfigured(r: ResolvedLocation): boolean {
  return r.explicit || (r.location.kind === 'embedded' && existsSync(r.location.dir));
}

/** The location in words, for messages (no password). */
export function describeLocation(l: StoreLocation): string {
  return l.kind === 'embedded' ? `embedded database at ${l.dir}` : `PostgreSQL at ${redactDatabaseUrl(l.url)}`;
}
