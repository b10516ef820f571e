/**
 * A fact: one number of a receipt with everything needed to read it honestly —
 * its unit, its statistic spelled out, where it came from (measured, derived
 * from named measured facts, or not recorded) and the configuration it belongs to.
 */
import { z } from 'zod';

/**
 * `recorded` is the one non-measurement a receipt carries: an input stated with
 * the run (the GPU hourly rate, dated), which cost figures derive from.
 */
export const PROVENANCES = ['measured', 'derived', 'not recorded', 'recorded'] as const;
export type Provenance = (typeof PROVENANCES)[number];

export const CONFIGURATION_KEYS = ['baseline', 'optimized'] as const;
export type ConfigurationKey = (typeof CONFIGURATION_KEYS)[number];

/** The rows both fact tables have, in page order (FIGURES keys); each must exist for both configurations. */
export const FACT_TABLE_ROWS = [
  'peakThroughput',
  'goodput',
  'sloAttainment',
  'singleStream',
  'ttftSingle',
  'tpotSingle',
  'e2eSingle',
  'failedTotal',
  'hourlyRate',
  'costPer1M',
] as const;

export const factSchema = z.object({
  /** Stable within a receipt: "optimized.peakThroughput", "baseline.c2.throughput". */
  id: z.string().min(1),
  /** The definition this number is an instance of (a FIGURES or METRICS key); changes are computed only within one. */
  metric: z.string().min(1),
  label: z.string().min(1),
  value: z.number().nullable(),
  unit: z.string().min(1),
  /** Spelled out: "p50 at concurrency 1", "mean of per-request", never a bare "avg". */
  statistic: z.string(),
  provenance: z.enum(PROVENANCES),
  configuration: z.enum(CONFIGURATION_KEYS),
  /** For derived facts: the ids of the facts it is computed from. */
  derivedFrom: z.array(z.string()).optional(),
  /** The same figure in each run of the contract (goodput run --repeats), run 1 first; absent for a single run. */
  runs: z.array(z.number().nullable()).optional(),
  /** Why it is not recorded, or how it was derived, in words. */
  note: z.string().optional(),
  digits: z.number().int().min(0).max(6),
});

export type Fact = z.infer<typeof factSchema>;

/** "p50 at concurrency 1, measured"; a missing value says so instead of implying one. */
export function statisticText(f: Pick<Fact, 'statistic' | 'provenance' | 'value'>): string {
  return f.value === null ? `${f.statistic}; not recorded` : `${f.statistic}, ${f.provenance}`;
}

type FactBase = Omit<Fact, 'value' | 'provenance' | 'derivedFrom' | 'note'>;

export const recorded = (base: FactBase, value: number | null, whyMissing: string): Fact =>
  value === null ? { ...base, value: null, provenance: 'not recorded', note: whyMissing } : { ...base, value, provenance: 'recorded' };

export const measured = (base: FactBase, value: number | null, whyMissing = 'not captured by the run'): Fact =>
  value === null || !Number.isFinite(value)
    ? { ...base, value: null, provenance: 'not recorded', note: whyMissing }
    : { ...base, value, provenance: 'measured' };

/** A derived fact is only as recorded as its sources: any missing source makes it not recorded. */
export function derived(base: FactBase, sources: readonly Fact[], compute: (values: number[]) => number, how: string): Fact {
  const values = sources.map((s) => s.value);
  const derivedFrom = sources.map((s) => s.id);
  if (values.some((v) => v === null)) {
    return { ...base, value: null, provenance: 'not recorded', derivedFrom, note: `${how}; a source is not recorded` };
  }
  const value = compute(values as number[]);
  if (!Number.isFinite(value)) return { ...base, value: null, provenance: 'not recorded', derivedFrom, note: `${how}; not computable from its sources` };
  return { ...base, value, provenance: 'derived', derivedFrom, note: how };
}
