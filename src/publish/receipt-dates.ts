/**
 * A receipt's dates are real calendar days and none is after the day it is
 * published: a measurement or a price from the future is an edit.
 */
import type { Receipt } from './receipt-schema.js';
import { type Refusal, refusal } from './refusal.js';

/** True for a real YYYY-MM-DD day (no 2026-02-30). */
export function isCalendarDay(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

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
