/**
 * Opens the store: a driver for the location, the migrations, the
 * repositories. The embedded database is opened only after its lock is taken
 * (embedded-lock.ts); the lock is released on close.
 */
import { hostname } from 'node:os';
import { sanitizeForTerminal } from '../core/index.js';
import { type LockHolder, acquireEmbeddedLock } from './embedded-lock.js';
import { LevelsRepo } from './levels-repo.js';
import { describeLocation, type StoreLocation } from './location.js';
import { migrate } from './migrations.js';
import { openPgDriver } from './pg-driver.js';
import { openPgliteDriver } from './pglite-driver.js';
import { isClosed, makePrivate } from './private-dir.js';
import { RunsRepo } from './runs-repo.js';
import { ServersRepo } from './servers-repo.js';
import type { SqlDriver } from './sql-driver.js';
import { StoreError } from './store-error.js';

export interface Store {
  readonly driver: SqlDriver;
  /** Where it is, in words (no password). */
  readonly description: string;
  readonly servers: ServersRepo;
  readonly runs: RunsRepo;
  readonly levels: LevelsRepo;
  /** Records in the embedded lock where this process answers (and the read door's token), so others reach it. No-op on PostgreSQL. */
  advertise(url: string, token?: string): void;
  close(): Promise<void>;
}

/** Migrates and wraps an open driver (tests pass their own). */
export async function storeOnDriver(driver: SqlDriver, description: string, onClose: () => void | Promise<void> = () => {}): Promise<Store> {
  await migrate(driver);
  const levels = new LevelsRepo(driver);
  return {
    driver,
    description,
    levels,
    servers: new ServersRepo(driver),
    runs: new RunsRepo(driver, levels),
    advertise: () => {},
    async close() {
      try {
        await driver.close();
      } finally {
        await onClose();
      }
    },
  };
}

/** Who a busy embedded store belongs to, in words. */
export function holderText(h: LockHolder): string {
  const where = h.host === hostname() ? `pid ${h.pid}` : `pid ${h.pid} on ${h.host}`;
  return `${h.command} (${where}, since ${h.since})`;
}

/**
 * Opens the store at `location` for this process.
 * @throws StoreError 'busy' (with the holder) when another process holds the embedded database.
 */
export async function openStore(location: StoreLocation, who: Pick<LockHolder, 'kind' | 'command'>): Promise<Store> {
  const description = describeLocation(location);
  if (location.kind === 'postgres') return storeOnDriver(await openPgDriver(location.url), description);
  // A folder only we can enter keeps everything under it private; an open one (an older version's) is fixed whole.
  const loosened = (await isClosed(location.dir)) ? 0 : await makePrivate(location.dir);
  if (loosened > 0) {
    process.stderr.write(
      `goodput: ${loosened} entries of ${sanitizeForTerminal(location.dir)} were open to other users; made them private (0700 folders, 0600 files)\n`,
    );
  }
  const taken = await acquireEmbeddedLock(location.dir, who);
  if (!taken.ok) {
    const err = new StoreError('busy', `the ${description} is in use by ${holderText(taken.holder)}`);
    throw Object.assign(err, { holder: taken.holder });
  }
  try {
    // PGlite writes with the process umask (WAL segments 0666): unreachable inside our 0700 folder, and closed up on close too.
    const store = await storeOnDriver(await openPgliteDriver(location.dir), description, async () => {
      try {
        await makePrivate(location.dir);
      } finally {
        taken.lock.release();
      }
    });
    return { ...store, advertise: (url, token) => taken.lock.update(token === undefined ? { url } : { url, token }) };
  } catch (err) {
    taken.lock.release();
    throw err;
  }
}
