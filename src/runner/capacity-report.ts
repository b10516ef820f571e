/**
 * The capacity reports (`goodput capacity --json`), a text kind's and an
 * embeddings or rerank one's: one zod schema each for the file, the type and
 * the README reference.
 */
import { z } from 'zod';
import { ARRIVAL_KINDS, arrivalSchema, levelResultSchema, poolingLevelSchema, poolingSloSchema, sloSchema } from '../core/index.js';

export const capacityProbeSchema = z.object({
  /** The probed level on the arrival kind's axis. */
  level: z.number(),
  label: z.string(),
  phase: z.enum(['coarse', 'bisect']),
  holds: z.boolean(),
  /** Which SLO missed and by how much, or "every SLO holds"; says when the level was client-bound. */
  reason: z.string(),
  /** Our client limited the level: its timings are less certain (a miss may be ours). */
  clientBound: z.boolean(),
  result: levelResultSchema,
});

export const capacityReportSchema = z.object({
  axis: z.enum(ARRIVAL_KINDS),
  arrival: arrivalSchema,
  slo: sloSchema,
  /** found: the boundary was bracketed; below-range: the first level already misses; above-range: the last level still holds; stopped: a probe did not complete. */
  verdict: z.enum(['found', 'below-range', 'above-range', 'budget-exhausted', 'stopped']),
  /** The highest level that held (a lower bound when above-range); null otherwise. */
  capacity: z.number().nullable(),
  /** Distance between the levels either side of the boundary when the search ended. */
  stepSize: z.number().nullable(),
  statement: z.string(),
  /** The levels measured on both sides of the boundary. */
  evidence: z.object({ below: levelResultSchema.nullable(), above: levelResultSchema.nullable() }),
  probes: z.array(capacityProbeSchema),
});

export type CapacityProbe = z.infer<typeof capacityProbeSchema>;
export type CapacityReport = z.infer<typeof capacityReportSchema>;

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
