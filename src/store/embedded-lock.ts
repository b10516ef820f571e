/**
 * The single-writer rule of the embedded database: PGlite is one process's
 * database, so the process that opens a data directory first writes
 * `<dir>.lock` (pid, host, what it is, and the URL it answers on: serve's API, or a CLI
 * holder's read door with its token) and
 * removes it when it closes. Anyone else finds the holder there. The holder
 * touches the file every LOCK_HEARTBEAT_MS; a lock whose heartbeat (its
 * modification time) is older than LOCK_STALE_MS is stale whatever host wrote
 * it, and so is one whose pid is gone from this host. Stale locks are taken over.
 */
import { linkSync, lstatSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { hostname } from 'node:os';
import { pidAlive } from './liveness.js';
import { StoreError } from './store-error.js';

export interface LockHolder {
  pid: number;
  host: string;
  /** `serve` holders are reached through their API; others are waited for. */
  kind: 'serve' | 'cli';
  /** What the holder is doing, e.g. "goodput sweep". */
  command: string;
  /** A loopback URL of the holder's API: serve's, or a CLI holder's read door (once it listens). */
  url?: string;
  /** The bearer token of a CLI holder's read door, or a serve's write key; the lock file is 0600, so only this user reads it. */
  token?: string;
  since: string;
}

export interface EmbeddedLock {
  readonly path: string;
  /** Rewrites the holder's entry (e.g. to add the URL once listening). */
  update(extra: Partial<Pick<LockHolder, 'url' | 'token'>>): void;
  release(): void;
}

export type LockResult = { ok: true; lock: EmbeddedLock } | { ok: false; holder: LockHolder };

/** How often a holder touches its lock, ms. */
export const LOCK_HEARTBEAT_MS = 15_000;
/** A lock not touched for this long belongs to no one, ms (a holder on another host cannot be asked). */
export const LOCK_STALE_MS = 60_000;

/** The lock file of an embedded data directory. */
export const lockPathOf = (dir: string): string => `${dir.replace(/\/+$/, '')}.lock`;

function readHolder(path: string): LockHolder | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockHolder;
  } catch {
    return null;
  }
}

/**
 * A lock file is believed only if this user wrote it where only this user
 * could: a regular file owned by us, mode 0600, in a folder owned by us. Anything
 * else (planted by another user of a shared folder) would hand our token to their port.
 * @throws StoreError('bad-input') naming the file and its owner.
 */
function trustedLockStat(path: string): { mtimeMs: number } | null {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return null;
  }
  const uid = process.getuid?.();
  if (uid === undefined) return st;
  const refuse = (why: string) => {
    throw new StoreError(
      'bad-input',
      `the lock file ${path} ${why}: not trusting it; remove it if you know what wrote it, or keep --data in a folder only you can write`,
    );
  };
  const folder = lstatSync(dirname(path));
  if (!st.isFile()) refuse('is not a regular file');
  if (st.uid !== uid) refuse(`is owned by uid ${st.uid}, not by this user (uid ${uid})`);
  if ((st.mode & 0o077) !== 0) refuse(`has mode ${(st.mode & 0o777).toString(8)}, not 600`);
  if (folder.uid !== uid) refuse(`is in ${dirname(path)}, owned by uid ${folder.uid}, not by this user (uid ${uid})`);
  return st;
}

/** Who holds the embedded store now, if a live process does. @throws StoreError when the lock file is not to be trusted. */
export function currentHolder(dir: string, nowMs = Date.now()): LockHolder | null {
  const path = lockPathOf(dir);
  const st = trustedLockStat(path);
  if (st === null) return null;
  const h = readHolder(path);
  if (h === null) return null;
  const beatMs = st.mtimeMs;
  if (nowMs - beatMs > LOCK_STALE_MS) return null;
  return h.host !== hostname() || pidAlive(h.pid) ? h : null;
}

/** Takes the lock of `dir` for this process, or says who holds it. Bounded: three attempts. */
export async function acquireEmbeddedLock(dir: string, who: Pick<LockHolder, 'kind' | 'command'>): Promise<LockResult> {
  const path = lockPathOf(dir);
  await mkdir(dirname(path), { recursive: true });
  let entry: LockHolder = { pid: process.pid, host: hostname(), ...who, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    // Written whole beside it, then linked into place: the lock never exists half-written.
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(entry), { mode: 0o600 });
    try {
      try {
        linkSync(tmp, path);
      } finally {
        rmSync(tmp, { force: true });
      }
      const onExit = () => rmSync(path, { force: true });
      process.once('exit', onExit);
      const heartbeat = setInterval(() => {
        try {
          const now = new Date();
          utimesSync(path, now, now);
        } catch {
          // Removed by hand: the next opener takes over; nothing to keep alive.
        }
      }, LOCK_HEARTBEAT_MS);
      heartbeat.unref();
      return {
        ok: true,
        lock: {
          path,
          update(extra) {
            entry = { ...entry, ...extra };
            writeFileSync(tmp, JSON.stringify(entry), { mode: 0o600 });
            renameSync(tmp, path);
          },
          release() {
            clearInterval(heartbeat);
            process.off('exit', onExit);
            if (readHolder(path)?.pid === process.pid) rmSync(path, { force: true });
          },
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = currentHolder(dir);
      if (holder !== null) return { ok: false, holder };
      // Stale: its process is gone (or the file is unreadable). Take it over.
      rmSync(path, { force: true });
    }
  }
  throw new Error(`could not take the lock ${path} after 3 attempts; remove it if no goodput process is running`);
}
