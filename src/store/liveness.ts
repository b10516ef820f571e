/**
 * The interrupted rule. A run row says `running` from its start until its
 * process writes how it ended. It reads as `interrupted` — and is rewritten so
 * the first time anyone notices — when either:
 *  1. its heartbeat is older than STALE_AFTER_MS (the owner writes one every
 *     HEARTBEAT_INTERVAL_MS; ages use the database's clock on both sides, so
 *     host clocks do not matter), or
 *  2. its owner ran on this host and that pid no longer exists (caught at once
 *     after a SIGKILL; a reused pid is caught by rule 1).
 */
import { hostname } from 'node:os';

/** How often a run's owner touches `heartbeat_at`, ms. */
export const HEARTBEAT_INTERVAL_MS = 15_000;
/** A heartbeat older than this means the owner is gone, ms. */
export const STALE_AFTER_MS = 90_000;

export interface RunOwner {
  pid: number;
  host: string;
  /** Age of the last heartbeat by the database's clock, ms. */
  heartbeatAgeMs: number;
}

/** True when a process with this pid exists on this host (EPERM: it exists, as another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Why the owner of a running run is gone, or null while it lives. */
export function ownerGoneReason(o: RunOwner, here = { host: hostname(), alive: pidAlive }): string | null {
  if (o.heartbeatAgeMs > STALE_AFTER_MS) {
    return `its process (pid ${o.pid} on ${o.host}) has not reported for ${Math.round(o.heartbeatAgeMs / 1000)} s`;
  }
  if (o.host === here.host && !here.alive(o.pid)) return `its process (pid ${o.pid} on ${o.host}) ended without finishing it`;
  return null;
}
