/**
 * Latency objectives (SLOs) and their verdict on one request. A request meets
 * the SLOs when every stated metric is at or under its limit; a failed request
 * meets none. The percentile `p` of each SLO is judged per level (goodput.ts).
 */
import { z } from 'zod';
import { type RequestRecord, isOk } from './record.js';
import { e2eFromScheduleMs, e2eMs, tpotMs, ttftFromScheduleMs, ttftMs } from './request-metrics.js';

/** The latency metrics an SLO can name, in report order. */
export const SLO_METRICS = ['ttftMs', 'tpotMs', 'e2eMs', 'ttftFromScheduleMs', 'e2eFromScheduleMs'] as const;
export type SloMetric = (typeof SLO_METRICS)[number];

/** One objective: the p-th percentile of the metric must be ≤ `max` (ms). */
export const sloTargetSchema = z
  .object({
    p: z.number({ error: 'p must be a number' }).gt(0, 'p must be above 0').lte(100, 'p must be at most 100'),
    max: z.number({ error: 'max must be a number of ms' }).positive('max must be a positive number of ms'),
  })
  .strict();

/** The SLOs of a benchmark. At least one latency objective; the quality floor is recorded for when scores exist. */
export const sloSchema = z
  .object({
    ttftMs: sloTargetSchema.optional(),
    tpotMs: sloTargetSchema.optional(),
    e2eMs: sloTargetSchema.optional(),
    /** TTFT and e2e from each request's scheduled send (open loops: what a user due at that moment waits, our send lag included). */
    ttftFromScheduleMs: sloTargetSchema.optional(),
    e2eFromScheduleMs: sloTargetSchema.optional(),
    /** Every tool call a request makes parses and validates against its tool's schema (and a required call is made). */
    toolCallValid: z.boolean({ error: 'toolCallValid must be true or false' }).optional(),
    /** Agent traces: a job (a root agent and all its sub-agents) meets its objective only when its makespan is within this, ms. */
    jobDeadlineMs: z.number({ error: 'jobDeadlineMs must be a number of ms' }).positive('jobDeadlineMs must be a positive number of ms').optional(),
    /** Minimum quality score (0..1). Recorded; judged once a quality score is measured. */
    qualityFloor: z.number().min(0, 'qualityFloor must be 0..1').max(1, 'qualityFloor must be 0..1').optional(),
  })
  .strict()
  .refine((s) => SLO_METRICS.some((m) => s[m] !== undefined) || s.toolCallValid === true || s.jobDeadlineMs !== undefined, {
    message: 'give at least one of ttftMs, tpotMs, e2eMs, ttftFromScheduleMs, e2eFromScheduleMs, toolCallValid, jobDeadlineMs',
  });

export type SloTarget = z.infer<typeof sloTargetSchema>;
export type Slo = z.infer<typeof sloSchema>;

/** Why a request missed: a metric over its limit, a tool call that did not validate, or the request failed. */
export type SloMiss = SloMetric | 'toolCallValid' | 'failed';

/** True when a request sent with tools made every call it had to, each parsing and validating. */
export function toolCallsValid(r: RequestRecord): boolean {
  const v = r.toolCalls?.verdict;
  return v === undefined || v === 'valid' || v === 'none';
}

/** The verdict on one request. */
export interface RequestVerdict {
  met: boolean;
  /** Empty when met; `['failed']` for a failed request. */
  missed: SloMiss[];
}

/** A request's value of an SLO metric, ms; null when it has none (e.g. TPOT of a one-token answer). */
export function sloValue(r: RequestRecord, metric: SloMetric): number | null {
  switch (metric) {
    case 'ttftMs':
      return ttftMs(r);
    case 'tpotMs':
      return tpotMs(r);
    case 'e2eMs':
      return e2eMs(r);
    case 'ttftFromScheduleMs':
      return ttftFromScheduleMs(r);
    case 'e2eFromScheduleMs':
      return e2eFromScheduleMs(r);
  }
}

/**
 * Met or missed, and which SLO. A metric the request has no value for (TPOT of
 * a request with one chunk) is not held against it; a failed request misses all.
 */
export function judgeRequest(r: RequestRecord, slo: Slo): RequestVerdict {
  if (!isOk(r)) return { met: false, missed: ['failed'] };
  const missed: SloMiss[] = [];
  for (const metric of SLO_METRICS) {
    const target = slo[metric];
    if (target === undefined) continue;
    const v = sloValue(r, metric);
    if (v !== null && v > target.max) missed.push(metric);
  }
  if (slo.toolCallValid === true && !toolCallsValid(r)) missed.push('toolCallValid');
  return { met: missed.length === 0, missed };
}

/** "TTFT p95 ≤ 500 ms, TPOT p50 ≤ 50 ms" */
export function describeSlo(slo: Slo): string {
  const names: Record<SloMetric, string> = {
    ttftMs: 'TTFT',
    tpotMs: 'TPOT',
    e2eMs: 'e2e',
    ttftFromScheduleMs: 'TTFT from schedule',
    e2eFromScheduleMs: 'e2e from schedule',
  };
  const parts = SLO_METRICS.flatMap((m) => {
    const t = slo[m];
    return t === undefined ? [] : [`${names[m]} p${t.p} ≤ ${t.max} ms`];
  });
  if (slo.toolCallValid === true) parts.push('every tool call valid');
  if (slo.jobDeadlineMs !== undefined) parts.push(`every agent job within ${slo.jobDeadlineMs} ms`);
  if (slo.qualityFloor !== undefined) parts.push(`quality ≥ ${slo.qualityFloor} (not yet measured)`);
  return parts.join(', ');
}
