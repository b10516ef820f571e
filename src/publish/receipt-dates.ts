/**
 * A receipt's dates are real calendar days and none is after the day it is
 * published: a measurement or a price from the future is an edit. Each run's
 * start and end, inside the evidence file the receipt's SHA-256 names, are
 * checked too: instants, in order, within a run's length, none in the future.
 */
import { LIMITS, isCalendarDay } from '../core/index.js';
import type { Receipt } from './receipt-schema.js';
import { type Refusal, refusal } from './refusal.js';

/** True for a real YYYY-MM-DD day (no 2026-02-30): core's rule, which provider price rows are read by too. */
export { isCalendarDay };

/** Days from `a` to `b` (both calendar days). */
export const daysBetween = (a: string, b: string): number => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

export function dayRefusal(field: string, day: string, today: string): Refusal | null {
  if (!isCalendarDay(day)) return refusal('date', field, `${JSON.stringify(day)} is not a calendar date`);
  if (day > today) return refusal('date', field, `${day} is after the publishing day ${today}`);
  return null;
}

export function dateRefusals(r: Receipt, today: string): Refusal[] {
  const days: Array<[string, string | null]> = [
    ['measuredAt', r.measuredAt],
    ['configurations.baseline.measuredAt', r.configurations.baseline.measuredAt],
    ['configurations.optimized.measuredAt', r.configurations.optimized.measuredAt],
    ['costBasis.priceAsOf', r.costBasis.priceAsOf],
  ];
  return days.flatMap(([field, day]) => (day === null ? [] : [dayRefusal(field, day, today)].filter((x): x is Refusal => x !== null)));
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A run's stated start and end (`where` names the run): ISO instants, the end
 * not before the start nor more than LIMITS.runDays after it, neither after the
 * publishing day. A start moved back alone is refused here; moved back with
 * its end, only a run signature (which covers both) stands behind the dates.
 */
export function runDateRefusals(where: string, run: { startedAt: string; endedAt: string | null }, today: string): Refusal[] {
  const out: Refusal[] = [];
  const instant = (field: string, at: string): number | null => {
    const t = Date.parse(at);
    if (INSTANT.test(at) && isCalendarDay(at.slice(0, 10)) && !Number.isNaN(t)) return t;
    out.push(refusal('date', `${where} ${field}`, `${JSON.stringify(at.slice(0, 40))} is not an ISO instant (YYYY-MM-DDThh:mm:ssZ)`));
    return null;
  };
  const start = instant('run.startedAt', run.startedAt);
  const end = run.endedAt === null ? null : instant('run.endedAt', run.endedAt);
  if (start !== null && run.startedAt.slice(0, 10) > today)
    out.push(refusal('date', `${where} run.startedAt`, `${run.startedAt} is after the publishing day ${today}`));
  if (start === null || end === null || run.endedAt === null) return out;
  if (run.endedAt.slice(0, 10) > today) out.push(refusal('date', `${where} run.endedAt`, `${run.endedAt} is after the publishing day ${today}`));
  if (end < start) out.push(refusal('date', `${where} run.endedAt`, `${run.endedAt} is before the run's start ${run.startedAt}`));
  else if (end - start > LIMITS.runDays.max * 86_400_000)
    out.push(
      refusal(
        'date',
        `${where} run.startedAt`,
        `${run.startedAt} is ${((end - start) / 86_400_000).toFixed(1)} days before the run's end ${run.endedAt}, more than the limit of ${LIMITS.runDays.max} ${LIMITS.runDays.what}: the start was moved`,
      ),
    );
  return out;
}
