/**
 * Load shapes of a closed loop: a level bounded by time (its streams send
 * until the duration ends, and what is in flight then finishes and is
 * recorded) and a linear ramp (its C streams opened evenly over the first
 * seconds, the ramp's requests marked `ramp` and kept out of every number as
 * warm-ups are). Here: the seconds a flag or a start body gives, when each
 * stream opens, which sequence numbers a stream of a timed level sends, and
 * the level's window as its records show it. Pure: the runner sends by these
 * rules, and whoever recomputes a stated level from its records uses them too.
 */
import { z } from 'zod';
import { LIMITS, type LimitName } from './limits.js';
import type { RequestRecord } from './record.js';

/** A level bounded by time and the ramp that opens its streams, seconds (rampUpS 0: no ramp). */
export interface LoadShape {
  durationS: number;
  rampUpS: number;
}

export const loadShapeSchema = z.object({ durationS: z.number().positive(), rampUpS: z.number().nonnegative() }).strict();

const UNITS: Readonly<Record<string, number>> = { '': 1, s: 1, m: 60, h: 3600 };

/**
 * "60s", "2m", "1h" or a bare number of seconds ("90"), or a number (a start body's) → seconds; or the problem,
 * in words the caller puts after the flag or field (past its row of the limits table: the limit). A text longer
 * than any time is refused before it is matched: the API takes it from a body of up to a megabyte.
 */
export function secondsOf(given: string | number, limit: LimitName): { seconds: number } | { problem: string } {
  const text = typeof given === 'number' ? String(given) : given.trim();
  const chars = LIMITS.timeTextChars;
  if (text.length > chars.max) return { problem: `a time of ${text.length} characters is above the limit of ${chars.max} ${chars.what}` };
  // One run of spaces at most, in a trimmed text: the match is linear in its length.
  const m = /^(\d+(?:\.\d+)?|\.\d+)\s*(s|m|h)?$/.exec(text);
  // A body's number is taken as it is (1e-7 or 1e+21 has no digits-only form).
  const seconds = m !== null ? Number(m[1]) * (UNITS[m[2] ?? ''] as number) : typeof given === 'number' && given >= 0 ? given : null;
  if (seconds === null) {
    const sign = text.startsWith('-') ? ' (a negative time)' : '';
    return { problem: `'${text}' is not a time${sign}: give seconds (60 or 60s), minutes (2m) or hours (1h), above 0` };
  }
  if (seconds <= 0) return { problem: `${text} is not above 0 seconds, e.g. 5 or 60s` };
  if (seconds > LIMITS[limit].max) {
    const shown = text === String(seconds) ? text : `${text} (${seconds} s)`;
    return { problem: `${shown} is above the limit of ${LIMITS[limit].max} ${LIMITS[limit].what}` };
  }
  return { seconds };
}

/** Why a shape cannot be sent (a ramp with no duration to ramp inside, or one that leaves no measured window), or null. */
export function loadShapeProblem(durationS: number | null, rampUpS: number | null): { field: 'rampUpS'; message: string } | null {
  if (rampUpS === null) return null;
  if (durationS === null) return { field: 'rampUpS', message: 'a ramp opens the streams of a level bounded by time: give a duration too, the ramp inside it' };
  if (rampUpS >= durationS)
    return {
      field: 'rampUpS',
      message: `the ramp (${rampUpS} s) must end before the level does (duration ${durationS} s): the measured window is what is left of the duration after it`,
    };
  return null;
}

/** When stream `slot` (0-based, of `streams`) of a ramped level opens, ns after the start: the first at once, the last as the ramp ends. */
export function slotOpensAtNs(slot: number, streams: number, rampUpS: number): number {
  if (streams <= 1) return 0;
  // The last stream opens exactly as the ramp ends, so no rounding leaves its first request in the ramp.
  return slot >= streams - 1 ? rampUpS * 1e9 : (slot * rampUpS * 1e9) / (streams - 1);
}

/**
 * Requests one stream of a timed level may send: the limits table's measured requests per level shared evenly,
 * so a level never holds more, whichever client sends which stream. A stream that used its last ends the level's sending early.
 */
export function timedRequestsPerSlot(streams: number): number {
  return Math.max(1, Math.floor(LIMITS.requestsPerLevel.max / streams));
}

/** The index (after the warm-ups) of the `k`th request of stream `slot` of a timed level of `streams` streams: streams interleave, so no two share one. */
export const timedRequestIndex = (slot: number, k: number, streams: number): number => slot + k * streams;

/** A timed level as its records show it: the window as sent, and the counts a reader checks it against. */
export const levelWindowSchema = z
  .object({
    durationS: z.number().positive(),
    rampUpS: z.number().nonnegative(),
    /** Requests sent during the ramp (warm-up-marked, `ramp: true`): kept out of every number. */
    rampRequests: z.number().int().nonnegative(),
    /** Measured requests still in flight when the duration ended: they finished and are recorded (and counted). */
    inFlightAtEnd: z.number().int().nonnegative(),
    /** The last send (ramp or measured), ms after the start: before the duration's end. */
    lastSendMs: z.number().nonnegative().nullable(),
    /** The last request's end, ms after the start: how long the level lasted with what was in flight at its end. */
    lastEndMs: z.number().nonnegative().nullable(),
    /** When every stream was first in flight at once, ms after the start (null: never): the ramp's end when it kept up. */
    fullConcurrencyMs: z.number().nonnegative().nullable(),
    /** What ended the sending: the duration, or a stream that sent its share of the measured requests a level may hold (limits table). */
    endedBy: z.enum(['duration', 'request-limit']),
  })
  .strict();
export type LevelWindow = z.infer<typeof levelWindowSchema>;

const endOf = (r: RequestRecord): number => r.endNs ?? r.chunkNs[r.chunkNs.length - 1] ?? r.sendNs;

/** The first instant `streams` intervals are open at once (an end and a start at one instant do not overlap), or null. */
function firstFull(intervals: ReadonlyArray<readonly [number, number]>, streams: number): number | null {
  const events: Array<[number, number]> = [];
  for (const [start, end] of intervals) events.push([start, 1], [end, -1]);
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  for (const [t, d] of events) if ((open += d) >= streams) return t;
  return null;
}

/**
 * The window of a timed level of `streams` streams from its records (`warmup` warm-ups before them): the start is
 * the earliest target send of its ramp and measured requests (the first stream opens there), the end `durationS` later.
 */
export function levelWindow(records: readonly RequestRecord[], shape: LoadShape, streams: number, warmup: number): LevelWindow {
  const sent = records.filter((r) => !r.warmup || r.ramp === true);
  const measured = sent.filter((r) => !r.warmup);
  let startNs = Infinity;
  let lastSend = -Infinity;
  let lastEnd = -Infinity;
  let maxIndex = -1;
  for (const r of sent) {
    startNs = Math.min(startNs, r.targetSendNs);
    lastSend = Math.max(lastSend, r.sendNs);
    lastEnd = Math.max(lastEnd, endOf(r));
    maxIndex = Math.max(maxIndex, r.seq - warmup);
  }
  const endNs = startNs + shape.durationS * 1e9;
  const after = (t: number) => (sent.length === 0 ? null : Math.max(0, (t - startNs) / 1e6));
  const full = firstFull(
    sent.map((r) => [r.sendNs, endOf(r)] as const),
    streams,
  );
  return {
    durationS: shape.durationS,
    rampUpS: shape.rampUpS,
    rampRequests: sent.length - measured.length,
    inFlightAtEnd: measured.filter((r) => endOf(r) > endNs).length,
    lastSendMs: after(lastSend),
    lastEndMs: after(lastEnd),
    fullConcurrencyMs: full === null ? null : after(full),
    endedBy: maxIndex >= (timedRequestsPerSlot(streams) - 1) * streams ? 'request-limit' : 'duration',
  };
}
