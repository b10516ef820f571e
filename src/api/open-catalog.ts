/**
 * The single-writer rule, for CLI commands. PostgreSQL: every process opens it
 * directly. Embedded: the process that opens it first holds it; when that is a
 * `goodput serve`, other commands go through its API (remote catalog); when it
 * is another CLI command, they are refused with who holds it.
 */
import { type LockHolder, type StoreFlags, StoreError, currentHolder, openStore, resolveStoreLocation } from '../store/index.js';
import type { Catalog } from './catalog.js';
import { localCatalog } from './local-catalog.js';
import { remoteCatalog } from './remote-catalog.js';

export interface OpenCatalogOptions extends StoreFlags {
  /** What this process is, e.g. "goodput sweep" (shown to anyone who finds the store busy). */
  command: string;
  env?: NodeJS.ProcessEnv;
}

/** @throws StoreError 'busy' when another CLI command holds the embedded store; 'bad-input' for bad flags. */
export async function openCatalog(o: OpenCatalogOptions): Promise<Catalog> {
  const env = o.env ?? process.env;
  const { location } = resolveStoreLocation(o, env);
  const viaServe = (h: LockHolder | null) => (h?.kind === 'serve' && h.url ? remoteCatalog(h.url, env['GOODPUT_TOKEN'] || null) : null);
  if (location.kind === 'embedded') {
    const remote = viaServe(currentHolder(location.dir));
    if (remote) return remote;
  }
  try {
    return localCatalog(await openStore(location, { kind: 'cli', command: o.command }));
  } catch (err) {
    // Lost a race with a serve that started meanwhile: use it.
    const holder = (err as { holder?: LockHolder }).holder ?? null;
    const remote = err instanceof StoreError && err.code === 'busy' ? viaServe(holder) : null;
    if (remote) return remote;
    if (err instanceof StoreError && err.code === 'busy' && holder) {
      throw new StoreError('busy', `${err.message}. The embedded database is one process's at a time: wait for it, run with --no-save, ` +
        'start `goodput serve` first (commands then go through it), or use PostgreSQL (--database-url) for concurrent writers.');
    }
    throw err;
  }
}
