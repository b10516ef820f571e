/**
 * The single-writer rule, for CLI commands. PostgreSQL: every process opens it
 * directly. Embedded: the process that opens it first holds it; when that is a
 * `goodput serve`, other commands go through its API (remote catalog); when it
 * is another CLI command, reads go through its read door (read-door.ts) and
 * writes are refused with who holds it.
 */
import { type LockHolder, type StoreFlags, StoreError, currentHolder, openStore, resolveStoreLocation } from '../store/index.js';
import type { Catalog } from './catalog.js';
import { localCatalog } from './local-catalog.js';
import { type MeasuringGate, openReadDoor } from './read-door.js';
import { remoteCatalog } from './remote-catalog.js';

export interface OpenCatalogOptions extends StoreFlags {
  /** What this process is, e.g. "goodput sweep" (shown to anyone who finds the store busy). */
  command: string;
  env?: NodeJS.ProcessEnv;
  /** This command only reads: it may read through a CLI holder's read door. */
  readOnly?: boolean;
  /** This command holds the store for long (a sweep): it opens a read door, whose exports wait for the gate. */
  shareReads?: MeasuringGate;
}

/** Reads through a CLI holder's door: listing waits at most this long; an export waits for the holder's level to end, ms. */
const DOOR_TIMEOUT_MS = 30 * 60_000;
/** A serve that holds the lock but does not listen yet (opening the database takes seconds) is waited for this long, ms. */
export const SERVE_START_WAIT_MS = 60_000;
const SERVE_START_POLL_MS = 100;

/**
 * The holder as it is once a starting serve advertises its URL. A serve writes its
 * lock first and its URL only when it listens; a command arriving in between waits
 * for the URL (or for that serve to go away) instead of being refused.
 */
async function settledHolder(dir: string, h: LockHolder | null): Promise<LockHolder | null> {
  for (let waited = 0; h?.kind === 'serve' && !h.url && waited < SERVE_START_WAIT_MS; waited += SERVE_START_POLL_MS) {
    await new Promise((resolve) => setTimeout(resolve, SERVE_START_POLL_MS));
    h = currentHolder(dir);
  }
  return h;
}

/** @throws StoreError 'busy' when another CLI command holds the embedded store; 'bad-input' for bad flags. */
export async function openCatalog(o: OpenCatalogOptions): Promise<Catalog> {
  const env = o.env ?? process.env;
  const { location } = resolveStoreLocation(o, env);
  const viaServe = (h: LockHolder | null) => {
    // A serve advertises its write key in the lock file (0600, this user's): its writes need it.
    if (h?.kind === 'serve' && h.url) return remoteCatalog(h.url, { token: env['GOODPUT_TOKEN'] || h.token || null });
    if (h?.kind === 'cli' && h.url && h.token && o.readOnly) {
      return remoteCatalog(h.url, { token: h.token, timeoutMs: DOOR_TIMEOUT_MS, holder: `${h.command} (pid ${h.pid})`, page: false });
    }
    return null;
  };
  if (location.kind === 'embedded') {
    const remote = viaServe(await settledHolder(location.dir, currentHolder(location.dir)));
    if (remote) return remote;
  }
  try {
    const store = await openStore(location, { kind: 'cli', command: o.command });
    const catalog = localCatalog(store);
    if (o.shareReads === undefined || location.kind !== 'embedded') return catalog;
    const door = await openReadDoor(catalog, o.shareReads, o.command).catch(async (err: unknown) => {
      await catalog.close();
      throw err;
    });
    store.advertise(door.url, door.token);
    return {
      ...catalog,
      close: async () => {
        await door.close();
        await catalog.close();
      },
    };
  } catch (err) {
    // Lost a race with a serve that started meanwhile: use it.
    const busy = err instanceof StoreError && err.code === 'busy' && location.kind === 'embedded';
    const holder = busy ? await settledHolder(location.dir, (err as { holder?: LockHolder }).holder ?? null) : null;
    const remote = err instanceof StoreError && err.code === 'busy' ? viaServe(holder) : null;
    if (remote) return remote;
    if (err instanceof StoreError && err.code === 'busy' && holder) {
      throw new StoreError(
        'busy',
        `${err.message}. The embedded database is one process's at a time: wait for it, run with --no-save, ` +
          'start `goodput serve` first (commands then go through it), or use PostgreSQL (--database-url) for concurrent writers.',
      );
    }
    throw err;
  }
}
