/**
 * Capacity at SLO for embeddings and rerank: concurrency searched (coarse
 * levels, then bisection to adjacent levels) for the highest level whose
 * latency objective holds with no failed request. Each probe is one pooling
 * sweep of one level with its own warm-up; the report keeps both sides of the
 * boundary and every probe.
 */
import { z } from 'zod';
import { type PoolingLevel, type PoolingSlo, poolingLevelSchema, poolingSloSchema } from '../core/index.js';
import { type SearchProbe, searchCapacity, searchStatement } from './capacity-search.js';
import type { PoolingDeps } from './pooling-sweep.js';
import { runSweep } from './run-kinds.js';
import type { PoolingSpecInput } from './pooling-spec.js';
import { levelOrder } from './sweep-spec.js';

export const poolingCapacityProbeSchema = z
  .object({
    level: z.number().int().positive(),
    label: z.string(),
    phase: z.enum(['coarse', 'bisect']),
    holds: z.boolean(),
    /** The latency percentile against the objective, or how many requests failed. */
    reason: z.string(),
    result: poolingLevelSchema,
  })
  .strict();

export const poolingCapacityReportSchema = z
  .object({
    axis: z.literal('concurrency'),
    endpoint: z.enum(['embeddings', 'rerank']),
    slo: poolingSloSchema,
    verdict: z.enum(['found', 'below-range', 'above-range', 'budget-exhausted', 'stopped']),
    capacity: z.number().int().positive().nullable(),
    stepSize: z.number().nullable(),
    statement: z.string(),
    evidence: z.object({ below: poolingLevelSchema.nullable(), above: poolingLevelSchema.nullable() }).strict(),
    probes: z.array(poolingCapacityProbeSchema),
  })
  .strict();

export type PoolingCapacityProbe = z.infer<typeof poolingCapacityProbeSchema>;
export type PoolingCapacityReport = z.infer<typeof poolingCapacityReportSchema>;

const label = (c: number) => `concurrency ${c}`;
const describe = (slo: PoolingSlo) => `latency p${slo.p} ≤ ${slo.maxMs} ms`;

/** Held or missed, and why: a failed request misses whatever the latency. */
function verdictOf(l: PoolingLevel, slo: PoolingSlo): Pick<SearchProbe, 'holds' | 'reason'> {
  if (l.failed > 0) return { holds: false, reason: `${l.failed} of ${l.requests} requests failed` };
  const seen = l.slo?.observedMs;
  if (seen === null || seen === undefined) return { holds: false, reason: `latency p${slo.p} beyond every sample` };
  return l.slo?.holds === true
    ? { holds: true, reason: `latency p${slo.p} ${seen.toFixed(1)} ms ≤ ${slo.maxMs} ms` }
    : { holds: false, reason: `latency p${slo.p} ${seen.toFixed(1)} ms > ${slo.maxMs} ms` };
}

export interface PoolingCapacityOptions {
  /** The sweep of the contract; its levels are the coarse pass, its latency objective the SLO. */
  spec: PoolingSpecInput & { latencySlo: PoolingSlo; endpoint: 'embeddings' | 'rerank' };
  maxProbes?: number;
  deps?: Omit<PoolingDeps, 'afterLevel'>;
  onProbe?: (p: PoolingCapacityProbe) => void;
}

export async function findPoolingCapacity(opts: PoolingCapacityOptions): Promise<PoolingCapacityReport> {
  const slo = opts.spec.latencySlo;
  const maxProbes = opts.maxProbes ?? 24;
  const outcome = await searchCapacity<PoolingCapacityProbe>({
    coarse: levelOrder(opts.spec.levels),
    maxProbes,
    onProbe: opts.onProbe,
    bisect: (lo, hi) => (hi - lo <= 1 ? null : Math.floor((lo + hi) / 2)),
    measure: async (level, phase) => {
      const result = await runSweep({ ...opts.spec, levels: [level] }, opts.deps);
      const measured = result.levels[0];
      if (result.run.status !== 'complete' || !measured) return result.run.stopReason ?? `the probe at ${label(level)} did not complete`;
      return { level, label: label(level), phase, ...verdictOf(measured, slo), result: measured };
    },
  });
  return {
    axis: 'concurrency',
    endpoint: opts.spec.endpoint,
    slo,
    verdict: outcome.verdict,
    capacity: outcome.capacity,
    stepSize: outcome.stepSize,
    statement: searchStatement(outcome, describe(slo), maxProbes),
    evidence: { below: outcome.below?.result ?? null, above: outcome.above?.result ?? null },
    probes: outcome.probes,
  };
}
