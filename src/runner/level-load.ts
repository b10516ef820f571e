/**
 * How a level's load was applied and achieved, from its records: the most
 * requests in flight at once and, for open loops, the offered and achieved
 * request rates and how late sends left against the schedule.
 */
import { type LevelLoad, type RequestRecord, maxOf, minOf, peakOverlap, percentiles } from '../core/index.js';

/** Most requests in flight at once (an end and a send at the same instant do not overlap). */
export function peakInFlight(records: readonly RequestRecord[]): number {
  return peakOverlap(records.map((r) => [r.sendNs, r.endNs ?? r.sendNs] as const));
}

/** Requests per second over a list of instants (ns): (n − 1) / span; null for fewer than two or no span. */
function ratePerS(instantsNs: readonly number[]): number | null {
  if (instantsNs.length < 2) return null;
  const span = (maxOf(instantsNs) as number) - (minOf(instantsNs) as number);
  return span > 0 ? (instantsNs.length - 1) / (span / 1e9) : null;
}

export interface LoadInput {
  kind: LevelLoad['kind'];
  level: number;
  label: string;
  /** Measured records of the level (no warm-ups). */
  measured: readonly RecordWithIndex[];
  /** Open loop: scheduled send time of measured request i, ns; null for a closed loop. */
  scheduledNs: readonly number[] | null;
  waitedForSlot: number;
}

/** A measured record and its position among the level's measured requests. */
export interface RecordWithIndex {
  record: RequestRecord;
  index: number;
}

export function levelLoad(input: LoadInput): LevelLoad {
  const records = input.measured.map((m) => m.record);
  const scheduled = input.scheduledNs;
  const lags = scheduled === null ? [] : input.measured.map((m) => (m.record.sendNs - (scheduled[m.index] as number)) / 1e6);
  const spread = percentiles(lags, [50, 99]);
  return {
    kind: input.kind,
    level: input.level,
    label: input.label,
    offeredRps: scheduled === null ? null : ratePerS(scheduled.slice(0, records.length)),
    achievedRps: scheduled === null ? null : ratePerS(records.map((r) => r.sendNs)),
    peakInFlight: peakInFlight(records),
    waitedForSlot: input.waitedForSlot,
    scheduleLagMs: spread === null ? null : { ...spread, max: maxOf(lags) as number },
  };
}
