/**
 * Capacity at SLO, for any kind that states an objective: the highest load at
 * which it holds. A coarse ascending sweep over the given levels finds the
 * first level that fails; then bisection between the last level that held and
 * that one, until the axis says they are one step apart (whole streams or burst
 * sizes: adjacent; rates: within `resolution` of the upper one). Each probe is
 * one runSweep of one level, with its own warm-up. The report keeps the
 * evidence: the levels measured on both sides of the boundary and every probe.
 * Bisection assumes goodput falls as load rises; a probe that breaks that is
 * still listed, so the evidence shows it. What differs by kind (the objective,
 * how a level holds it, the axis, the report's head) is CAPACITY_KINDS.
 */
import { type LevelOf, type LevelResult, type PoolingLevel, type PoolingSlo, describeSlo } from '../core/index.js';
import { arrivalOps } from '../workload/index.js';
import { type DepsOf, type SpecInputOf, type SpecOf, kindOfSpec, runSweep, specSchemaOf } from './run-kinds.js';
import { levelOrder } from './sweep-spec.js';
import type { CapacityProbe, CapacityReport, PoolingCapacityProbe, PoolingCapacityReport } from './capacity-report.js';

/** The kinds capacity searches, with their probe and report. */
interface CapacityKinds {
  text: { probe: CapacityProbe; report: CapacityReport };
  pooling: { probe: PoolingCapacityProbe; report: PoolingCapacityReport };
}
type CapacityKindName = keyof CapacityKinds;

export interface CapacityOptions<K extends CapacityKindName = 'text'> {
  /** The probe spec of one level (the contract layer adds that probe's prompts). Must carry an objective. */
  specFor(level: number): Promise<SpecInputOf<K>>;
  /** Coarse levels, swept ascending. */
  coarse: readonly number[];
  /** Rate axes: stop when the gap is within this share of the upper level. Default 0.1. */
  resolution?: number;
  /** Most probes in all (coarse and bisection). Default 24. */
  maxProbes?: number;
  deps?: Omit<DepsOf<K>, 'afterLevel'>;
  onProbe?: (p: CapacityKinds[K]['probe']) => void;
}

/** What a kind's search reads from its first probe's spec. */
interface KindSearch {
  /** The report's fields before the search's (the axis and the objective among them). */
  head: object;
  /** The objective in words. */
  slo: string;
  label(level: number): string;
  bisect(lo: number, hi: number, resolution: number): number | null;
  /** Held or missed, and why. */
  verdict(level: LevelOf): Pick<Probe, 'holds' | 'reason'>;
}

const NO_SLO = 'capacity needs SLOs: the spec has none';

const CAPACITY_KINDS: { [K in CapacityKindName]: (spec: SpecOf<K>) => KindSearch } = {
  text: (spec) => {
    if (spec.slo === null) throw new Error(NO_SLO);
    const ops = arrivalOps(spec.arrival);
    return {
      head: { axis: spec.arrival.kind, arrival: spec.arrival, slo: spec.slo },
      slo: describeSlo(spec.slo),
      label: (l) => ops.label(l),
      bisect: (lo, hi, resolution) => ops.bisect(lo, hi, resolution),
      verdict: (l) => textVerdict(l as LevelResult),
    };
  },
  pooling: (spec) => {
    const slo = spec.latencySlo;
    if (slo === null) throw new Error(NO_SLO);
    return {
      head: { axis: 'concurrency', endpoint: spec.endpoint, slo },
      slo: `latency p${slo.p} ≤ ${slo.maxMs} ms`,
      label: (c) => `concurrency ${c}`,
      bisect: (lo, hi) => (hi - lo <= 1 ? null : Math.floor((lo + hi) / 2)),
      verdict: (l) => poolingVerdict(l as PoolingLevel, slo),
    };
  },
};

/**
 * Held or missed, and why. A client-bound level is still judged (our own lag only adds to
 * the latencies, so a hold is a hold) but says so: a miss there may be the client's.
 */
function textVerdict(l: LevelResult): { holds: boolean; reason: string; clientBound: boolean } {
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

/** Held or missed, and why: a failed request misses whatever the latency. */
function poolingVerdict(l: PoolingLevel, slo: PoolingSlo): Pick<Probe, 'holds' | 'reason'> {
  if (l.failed > 0) return { holds: false, reason: `${l.failed} of ${l.requests} requests failed` };
  const seen = l.slo?.observedMs;
  if (seen === null || seen === undefined) return { holds: false, reason: `latency p${slo.p} beyond every sample` };
  return l.slo?.holds === true
    ? { holds: true, reason: `latency p${slo.p} ${seen.toFixed(1)} ms ≤ ${slo.maxMs} ms` }
    : { holds: false, reason: `latency p${slo.p} ${seen.toFixed(1)} ms > ${slo.maxMs} ms` };
}

/** A probe: the level, whether it held and why, and the level measured. */
interface Probe {
  level: number;
  label: string;
  phase: 'coarse' | 'bisect';
  holds: boolean;
  reason: string;
  result: LevelOf;
}

type Verdict = 'found' | 'below-range' | 'above-range' | 'budget-exhausted' | 'stopped';

/** Capacity at SLO of the kind the probe specs' endpoint names. */
export async function findCapacity(opts: CapacityOptions<'pooling'>): Promise<PoolingCapacityReport>;
export async function findCapacity(opts: CapacityOptions): Promise<CapacityReport>;
export async function findCapacity(opts: CapacityOptions | CapacityOptions<'pooling'>): Promise<CapacityReport | PoolingCapacityReport> {
  const input = await opts.specFor(opts.coarse[0] as number);
  const kind = CAPACITY_KINDS[kindOfSpec(input) as CapacityKindName] as (spec: SpecOf<CapacityKindName>) => KindSearch;
  const k = kind(specSchemaOf(input).parse(input) as SpecOf<CapacityKindName>);
  const maxProbes = opts.maxProbes ?? 24;
  const probes: Probe[] = [];
  let stopped: string | null = null;
  let outOfProbes = false;
  const probe = async (level: number, phase: Probe['phase']): Promise<Probe | null> => {
    if (stopped) return null;
    if (probes.length >= maxProbes) {
      outOfProbes = true;
      return null;
    }
    const result = await runSweep({ ...(await opts.specFor(level)), levels: [level] }, opts.deps as DepsOf<CapacityKindName>);
    const measured = result.levels[0];
    if (result.run.status !== 'complete' || !measured) {
      stopped = result.run.stopReason ?? `the probe at ${k.label(level)} did not complete`;
      return null;
    }
    const p = { level, label: k.label(level), phase, ...k.verdict(measured), result: measured };
    probes.push(p);
    (opts.onProbe as ((p: Probe) => void) | undefined)?.(p);
    // A provider's rate limit set this level's pace: what it held or missed says nothing of the server's capacity.
    const limited = (measured as Partial<LevelResult>).rateLimit;
    if (limited?.limited === true) {
      stopped = `at ${p.label}, ${limited.reason}: a provider's limit is not the server's capacity, so the search reads no saturation from it`;
      return null;
    }
    return p;
  };
  let below: Probe | null = null;
  let above: Probe | null = null;
  for (const level of levelOrder(opts.coarse)) {
    const p = await probe(level, 'coarse');
    if (!p) break;
    if (p.holds) below = p;
    else {
      above = p;
      break;
    }
  }
  for (let mid = below && above ? k.bisect(below.level, above.level, opts.resolution ?? 0.1) : null; mid !== null;) {
    const p = await probe(mid, 'bisect');
    if (!p) break;
    if (p.holds) below = p;
    else above = p;
    mid = k.bisect((below as Probe).level, (above as Probe).level, opts.resolution ?? 0.1);
  }
  // Out of probes before the bracket closed: what held is a lower bound, not the capacity.
  const verdict: Verdict = stopped ? 'stopped' : outOfProbes ? 'budget-exhausted' : !below ? 'below-range' : !above ? 'above-range' : 'found';
  return {
    ...k.head,
    verdict,
    capacity: verdict === 'found' || verdict === 'above-range' ? (below?.level ?? null) : null,
    stepSize: below && above ? above.level - below.level : null,
    statement: statementOf(verdict, below, above, stopped ?? '', k.slo, maxProbes),
    evidence: { below: below?.result ?? null, above: above?.result ?? null },
    probes,
  } as CapacityReport | PoolingCapacityReport;
}

/** The statement of a search's outcome; `slo` describes the objectives, `stopped` is the reason a probe gave. */
function statementOf(verdict: Verdict, b: Probe | null, a: Probe | null, stopped: string, slo: string, maxProbes: number): string {
  switch (verdict) {
    case 'budget-exhausted': {
      const bracket =
        b && a
          ? `between ${b.label} (holds) and ${a.label} (misses)`
          : b
            ? `at least ${b.label} (holds); nothing above it was measured`
            : 'not bracketed: no probe held';
      return `the probe budget (${maxProbes}) ran out before the search finished: capacity at SLO (${slo}) is ${bracket}; raise --max-probes`;
    }
    case 'found':
      return `capacity at SLO (${slo}): ${b?.label}; ${a?.label} misses (${a?.reason})`;
    case 'below-range':
      return `no level holds the SLOs (${slo}): even ${a?.label} misses (${a?.reason})`;
    case 'above-range':
      return `every level holds the SLOs (${slo}) up to ${b?.label}: the capacity is higher; extend the levels`;
    case 'stopped':
      return `the search stopped: ${stopped}`;
  }
}
