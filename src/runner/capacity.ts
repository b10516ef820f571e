/**
 * Capacity at SLO: the highest load at which every SLO holds. A coarse
 * ascending sweep over the given levels finds the first level that fails;
 * then bisection between the last level that held and that one, until the
 * arrival kind says they are one step apart (whole streams or burst sizes:
 * adjacent; rates: within `resolution` of the upper one). Each probe is one
 * runSweep of one level, with its own warm-up. The report keeps the evidence:
 * the levels measured on both sides of the boundary and every probe.
 * Bisection assumes goodput falls as load rises; a probe that breaks that is
 * still listed, so the evidence shows it.
 */
import { type LevelResult, type Slo, describeSlo } from '../core/index.js';
import { arrivalOps } from '../workload/index.js';
import type { SweepDeps } from './sweep.js';
import { runSweep } from './run-kinds.js';
import { type SweepSpecInput, levelOrder, sweepSpecSchema } from './sweep-spec.js';
import type { CapacityProbe, CapacityReport } from './capacity-report.js';
import { searchCapacity, searchStatement } from './capacity-search.js';

export interface CapacityOptions {
  /** The probe spec of one level (the contract layer adds that probe's prompts). Must carry SLOs. */
  specFor(level: number): Promise<SweepSpecInput>;
  /** Coarse levels, swept ascending. */
  coarse: readonly number[];
  /** Rate axes: stop when the gap is within this share of the upper level. Default 0.1. */
  resolution?: number;
  /** Most probes in all (coarse and bisection). Default 24. */
  maxProbes?: number;
  deps?: SweepDeps;
  onProbe?: (p: CapacityProbe) => void;
}

/**
 * Held or missed, and why. A client-bound level is still judged (our own lag only adds to
 * the latencies, so a hold is a hold) but says so: a miss there may be the client's.
 */
function verdictOf(l: LevelResult): { holds: boolean; reason: string; clientBound: boolean } {
  const bound = l.clientBound.bound ? `; client-bound (${l.clientBound.reason}): a miss may be our client's` : '';
  const g = l.goodput;
  const out = (holds: boolean, reason: string) => ({ holds, reason: reason + bound, clientBound: l.clientBound.bound });
  if (!g) return out(false, 'no SLO was evaluated');
  if (l.failed > 0) return out(false, `${l.failed} of ${l.requests} requests failed`);
  const missed = g.checks
    .filter((c) => !c.holds)
    .map((c) => `${c.metric} p${c.p} ${c.observed === null ? 'beyond every sample' : `${c.observed.toFixed(1)} ms`} > ${c.max} ms`);
  return missed.length === 0 ? out(true, 'every SLO holds') : out(false, missed.join('; '));
}

export async function findCapacity(opts: CapacityOptions): Promise<CapacityReport> {
  const first = sweepSpecSchema.parse(await opts.specFor(opts.coarse[0] as number));
  if (first.slo === null) throw new Error('capacity needs SLOs: the spec has none');
  const slo: Slo = first.slo;
  const ops = arrivalOps(first.arrival);
  const maxProbes = opts.maxProbes ?? 24;
  const outcome = await searchCapacity<CapacityProbe>({
    coarse: levelOrder(opts.coarse),
    maxProbes,
    onProbe: opts.onProbe,
    bisect: (lo, hi) => ops.bisect(lo, hi, opts.resolution ?? 0.1),
    measure: async (level, phase) => {
      const result = await runSweep({ ...(await opts.specFor(level)), levels: [level] }, opts.deps);
      const measured = result.levels[0];
      if (result.run.status !== 'complete' || !measured) return result.run.stopReason ?? `the probe at ${ops.label(level)} did not complete`;
      return { level, label: ops.label(level), phase, ...verdictOf(measured), result: measured };
    },
  });
  return {
    axis: first.arrival.kind,
    arrival: first.arrival,
    slo,
    verdict: outcome.verdict,
    capacity: outcome.capacity,
    stepSize: outcome.stepSize,
    statement: searchStatement(outcome, describeSlo(slo), maxProbes),
    evidence: { below: outcome.below?.result ?? null, above: outcome.above?.result ?? null },
    probes: outcome.probes,
  };
}
