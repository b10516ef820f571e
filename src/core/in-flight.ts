/**
 * What a level held: the number of its requests open (sent, not yet ended) at
 * the moment each measured request was sent, from the records' own send and
 * end instants, beside the concurrency asked. A closed loop of C that keeps C
 * requests open counts C at every replacement; a client that lags between a
 * slot freeing and its next send counts fewer, and a level whose median falls
 * below 95 % of C is marked as not holding its load.
 *
 * The level's first sends, which all target its start (a closed loop's first
 * C), open the slots one by one: each counts only those before it, so they are
 * not samples (their time is the ramp, judged as rampMs). A request with no end
 * (failed before it) holds its slot until its send, as peakInFlight counts it.
 */
import { z } from 'zod';
import type { RequestRecord } from './record.js';
import { minOf, percentiles } from './percentiles.js';
import { RECORD_BOUNDS } from './limits.js';

/** A closed loop whose in-flight median is below this share of its concurrency did not hold the load asked. */
export const HELD_SHARE = 0.95;

const count = z.number().nonnegative().max(RECORD_BOUNDS.levelRecords);

export const inFlightSchema = z
  .object({
    /** p50 of the requests open at each measured send after the level's first (its ramp), the send itself included. */
    median: count,
    /** The fewest open at any of those sends. */
    min: count.int(),
    /** The concurrency asked (a closed loop's C); null where none was (open loops, sessions with think time): nothing is judged against it. */
    asked: z.number().int().positive().max(RECORD_BOUNDS.levelRecords).nullable(),
    /** median ÷ asked; null without asked. */
    held: z.number().nonnegative().nullable(),
    /** The sends counted. */
    samples: z.number().int().positive().max(RECORD_BOUNDS.levelRecords),
  })
  .strict();

export type InFlight = z.infer<typeof inFlightSchema>;

/** The records' intervals: sends and ends, each ascending. */
function sortedInstants(records: readonly Pick<RequestRecord, 'sendNs' | 'endNs'>[]): { sends: Float64Array; ends: Float64Array } {
  const sends = Float64Array.from(records, (r) => r.sendNs).sort();
  const ends = Float64Array.from(records, (r) => Math.max(r.sendNs, r.endNs ?? r.sendNs)).sort();
  return { sends, ends };
}

/** How many of ascending `xs` are ≤ t. */
function atOrBefore(xs: Float64Array, t: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((xs[mid] as number) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The records an in-flight count reads: when each was meant to leave, left and ended. */
export type InFlightRecord = Pick<RequestRecord, 'sendNs' | 'endNs' | 'targetSendNs'>;

/**
 * Requests open at each measured send after the level's first (warm-ups already
 * left out), the send itself included, in the records' order. An end and a send
 * at the same instant do not overlap (a slot freed, then refilled); sends at the same instant do.
 */
export function inFlightAtSends(measured: readonly InFlightRecord[]): Array<{ sendNs: number; open: number }> {
  let start = Infinity;
  for (const r of measured) start = Math.min(start, r.targetSendNs);
  const { sends, ends } = sortedInstants(measured);
  const out: Array<{ sendNs: number; open: number }> = [];
  for (const r of measured) {
    if (r.targetSendNs === start) continue;
    const t = r.sendNs;
    // Open at t: sent at or before it, ended after it; a request that never ended after its send is counted as itself.
    const open = atOrBefore(sends, t) - atOrBefore(ends, t);
    out.push({ sendNs: t, open: open + ((r.endNs ?? r.sendNs) <= t ? 1 : 0) });
  }
  return out;
}

/** The in-flight figures of a level's measured records, judged against `asked` when it is a closed loop's C; null when no send came after the level's first ones. */
export function inFlightHeld(measured: readonly InFlightRecord[], asked: number | null): InFlight | null {
  const counts = inFlightAtSends(measured).map((s) => s.open);
  const p50 = percentiles(counts, [50])?.p50;
  if (p50 === undefined) return null;
  return { median: p50, min: minOf(counts) as number, asked, held: asked === null ? null : p50 / asked, samples: counts.length };
}

/** Whether a level's in-flight figures say it did not hold the concurrency asked (below HELD_SHARE of it). */
export function heldShort(f: InFlight | null | undefined): boolean {
  return f !== null && f !== undefined && f.held !== null && f.held < HELD_SHARE;
}

/** The share of the concurrency asked held, in whole percent rounded down (a level just under the mark never reads as 95 %); null without asked. */
export function heldPct(f: InFlight, digits = 0): number | null {
  if (f.held === null) return null;
  const scale = 100 * 10 ** digits;
  // The nudge keeps binary noise (0.29 × 100 = 28.999…) from rounding a whole share down.
  return Math.floor(f.held * scale + 1e-9) / 10 ** digits;
}

/** "52 of 64 at the median (81 %), 40 at least": what a level held, in words. */
export function describeInFlight(f: InFlight): string {
  const median = Number.isInteger(f.median) ? String(f.median) : f.median.toFixed(1);
  const of = f.asked === null ? `${median} at the median` : `${median} of ${f.asked} at the median (${heldPct(f)} %)`;
  return `${of}, ${f.min} at least, over ${f.samples} sends`;
}
