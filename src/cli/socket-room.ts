/**
 * A level of N streams needs N sockets at once, and this process keeps some
 * files of its own (the store, the read door's connections, logs). Node raises
 * the soft RLIMIT_NOFILE to the hard one at start, before any of our code runs;
 * past that only the administrator can go, so a sweep reads the limit it runs
 * under (Linux: /proc/self/limits) and refuses, before anything is sent, a
 * level it could not open sockets for: otherwise every request past the limit
 * fails as EMFILE and reads as the server's failure.
 */
import { readFileSync } from 'node:fs';
import { CliError, EXIT } from './exit-codes.js';

/** Files kept free besides a level's sockets (the store, the read door's 32 connections, logs, pipes). */
export const FD_HEADROOM = 128;

/** The soft limit on open files, or null where it cannot be read (then nothing is refused). */
export function openFilesLimit(text?: string): number | null {
  let t = text;
  try {
    t ??= readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return null;
  }
  const m = /^Max open files\s+(\d+|unlimited)\s/m.exec(t);
  return m === null || m[1] === 'unlimited' ? null : Number(m[1]);
}

/** @throws CliError (exit 2) naming the level and the limit when a closed-loop level needs more sockets than this process may open. */
export function refuseLevelsPastFileLimit(levels: readonly number[], arrivalKind: string, limit = openFilesLimit()): void {
  if (limit === null || arrivalKind !== 'concurrency') return;
  const over = levels.find((c) => c + FD_HEADROOM > limit);
  if (over !== undefined) {
    throw new CliError(
      EXIT.usage,
      `--levels: a level of ${over} streams needs ${over} sockets plus ${FD_HEADROOM} files of goodput's own, but this process may open only ${limit} (ulimit -n): that is our limit, not the server's; raise it (e.g. ulimit -n ${over + FD_HEADROOM}) or lower the level`,
    );
  }
}
