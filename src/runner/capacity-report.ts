/**
 * The capacity report (`goodput capacity --json`): one zod schema for the file,
 * the type and the README reference.
 */
import { z } from 'zod';
import { ARRIVAL_KINDS, arrivalSchema, levelResultSchema, sloSchema } from '../core/index.js';

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
