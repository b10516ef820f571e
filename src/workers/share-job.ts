/**
 * One level share as a job on the queue, and what the worker reports back in
 * its worker_shares row. Both sides read these types; the job's data is JSON.
 */
import type { Spread } from '../core/index.js';
import type { DialectKind } from '../client/index.js';
import type { SweepSpec } from '../runner/index.js';

export interface ShareJob {
  /** Unique per share: `${sweep}/${level}/${index}`. */
  share: string;
  sweep: string;
  index: number;
  count: number;
  concurrency: number;
  requests: number;
  promptOffset: number;
  /** The sweep's spec without its API key: a key never goes through the database. */
  spec: Omit<SweepSpec, 'apiKey'>;
  /** The server needs an API key: each worker brings its own (GOODPUT_API_KEY where it runs). */
  needsApiKey: boolean;
  model: string;
  dialect: DialectKind;
  runId: string;
  connections: number;
}

/** A worker's clock against the database's, measured when it took the share. */
export interface ShareClock {
  /** The database's clock minus the worker's, ms. */
  offsetMs: number;
  uncertaintyMs: number;
  /** The worker's monotonic zero on its own wall clock, epoch ms (performance.timeOrigin, plus any test skew). */
  originMs: number;
}

/** worker_shares.detail by status. */
export type ShareDetail =
  | { status: 'taken' }
  | { status: 'ready'; clock: ShareClock }
  | { status: 'refused'; reason: string }
  | { status: 'failed'; reason: string }
  | { status: 'done'; clock: ShareClock; loopDelayMs: Spread | null; busyPct: number | null; waitedForSlot: number; serverFailure: string | null };

/** A share's start instant on a clock whose zero is `originMs` (epoch ms on that machine's wall clock), ns. */
export function localNs(atDbMs: number, clock: ShareClock): number {
  return (atDbMs - clock.offsetMs - clock.originMs) * 1e6;
}
