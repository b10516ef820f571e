/**
 * Goodput of one level: the requests that met every SLO, per second and as a
 * share of all measured requests (failures included in the denominator; those
 * the workload cancelled on purpose left out, as they never ran to an end), and
 * whether each SLO held at its percentile. A failed request counts as +∞ in
 * every percentile, so failures can only make an SLO harder to hold.
 */
import { z } from 'zod';
import type { RequestRecord } from './record.js';
import { isCancelled, isOk } from './record.js';
import { SLO_METRICS, type Slo, judgeRequest, sloValue } from './slo.js';

export const sloCheckSchema = z.object({
  metric: z.enum(SLO_METRICS),
  p: z.number(),
  max: z.number(),
  /** The p-th percentile over measured requests, ms; null when failures push it beyond every finite sample, or no samples. */
  observed: z.number().nullable(),
  holds: z.boolean(),
});

export const levelGoodputSchema = z.object({
  /** Measured requests judged: all but those the workload cancelled on purpose. */
  requests: z.number().int().nonnegative(),
  /** Requests that met every SLO. */
  met: z.number().int().nonnegative(),
  /** met / requests (0..1); null without requests. */
  share: z.number().min(0).max(1).nullable(),
  missed: z.object({
    ttftMs: z.number().int(),
    tpotMs: z.number().int(),
    e2eMs: z.number().int(),
    failed: z.number().int(),
    /** Present when the SLOs name a from-schedule metric. */
    ttftFromScheduleMs: z.number().int().optional(),
    e2eFromScheduleMs: z.number().int().optional(),
    /** Requests whose tool calls did not all parse and validate (absent without a toolCallValid SLO). */
    toolCallValid: z.number().int().optional(),
  }),
  /** Requests meeting every SLO per second of the level's duration. */
  requestsPerS: z.number().nonnegative(),
  /** Output tokens of those requests per second. */
  tokensPerS: z.number().nonnegative(),
  checks: z.array(sloCheckSchema),
  /** Every SLO held at its percentile and no request failed. */
  holds: z.boolean(),
  /** The quality floor is recorded, not yet judged: no quality score is measured. */
  quality: z.object({ floor: z.number().nullable(), status: z.literal('not-measured') }),
});

export type SloCheck = z.infer<typeof sloCheckSchema>;
export type LevelGoodput = z.infer<typeof levelGoodputSchema>;

/**
 * The p-th percentile (linear interpolation, as percentiles.ts) of `finite`
 * samples plus `infinite` samples of +∞; null when the answer is not finite.
 */
export function percentileWithMisses(finite: readonly number[], infinite: number, p: number): number | null {
  const sorted = Float64Array.from(finite).sort();
  const n = sorted.length + infinite;
  if (n === 0) return null;
  const rank = (p / 100) * (n - 1);
  const lo = Math.floor(rank);
  const hi = Math.min(lo + 1, n - 1);
  const at = (i: number) => (i < sorted.length ? (sorted[i] as number) : Infinity);
  const frac = rank - lo;
  const v = frac === 0 ? at(lo) : at(lo) + (at(hi) - at(lo)) * frac;
  return Number.isFinite(v) ? v : null;
}

/**
 * Goodput of a level's records (warm-ups are skipped here).
 * @param durationMs the level's measured duration (first send → last end), ms
 */
export function levelGoodput(records: readonly RequestRecord[], slo: Slo, durationMs: number): LevelGoodput {
  // A request the workload gave up on purpose never ran to its end: it neither meets nor misses an objective.
  const measured = records.filter((r) => !r.warmup && !isCancelled(r));
  const missed: LevelGoodput['missed'] = {
    ttftMs: 0,
    tpotMs: 0,
    e2eMs: 0,
    failed: 0,
    ...(slo.ttftFromScheduleMs ? { ttftFromScheduleMs: 0 } : {}),
    ...(slo.e2eFromScheduleMs ? { e2eFromScheduleMs: 0 } : {}),
    ...(slo.toolCallValid === true ? { toolCallValid: 0 } : {}),
  };
  let met = 0;
  let tokens = 0;
  for (const r of measured) {
    const v = judgeRequest(r, slo);
    for (const m of v.missed) missed[m] = (missed[m] ?? 0) + 1;
    if (v.met) {
      met++;
      tokens += r.outputTokens;
    }
  }
  const failures = measured.filter((r) => !isOk(r)).length;
  const checks: SloCheck[] = [];
  for (const metric of SLO_METRICS) {
    const target = slo[metric];
    if (target === undefined) continue;
    const values: number[] = [];
    for (const r of measured) {
      const v = isOk(r) ? sloValue(r, metric) : null;
      if (v !== null) values.push(v);
    }
    const observed = percentileWithMisses(values, failures, target.p);
    checks.push({ metric, p: target.p, max: target.max, observed, holds: observed !== null && observed <= target.max });
  }
  const seconds = durationMs / 1000;
  return {
    requests: measured.length,
    met,
    share: measured.length > 0 ? met / measured.length : null,
    missed,
    requestsPerS: seconds > 0 ? met / seconds : 0,
    tokensPerS: seconds > 0 ? tokens / seconds : 0,
    checks,
    holds: measured.length > 0 && failures === 0 && checks.every((c) => c.holds) && (missed.toolCallValid ?? 0) === 0,
    quality: { floor: slo.qualityFloor ?? null, status: 'not-measured' },
  };
}
