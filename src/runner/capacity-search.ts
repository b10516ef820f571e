/**
 * The search capacity at SLO runs on any load axis: a coarse ascending pass
 * over the given levels to the first that misses, then bisection between the
 * last that held and that one until the axis says they are one step apart.
 * What a probe measures (a text level, an embeddings level) is the caller's;
 * the search only reads whether it held.
 */

/** What the search needs of a probe. */
export interface SearchProbe {
  level: number;
  label: string;
  phase: 'coarse' | 'bisect';
  holds: boolean;
  reason: string;
}

export type SearchVerdict = 'found' | 'below-range' | 'above-range' | 'budget-exhausted' | 'stopped';

export interface SearchOptions<P extends SearchProbe> {
  /** Coarse levels, probed in this (ascending) order. */
  coarse: readonly number[];
  /** A level between two, or null when they are one step apart. */
  bisect(lo: number, hi: number): number | null;
  /** Most probes in all (coarse and bisection). */
  maxProbes: number;
  /** Measures one level; a string says why the probe did not complete (the search stops). */
  measure(level: number, phase: SearchProbe['phase']): Promise<P | string>;
  onProbe?: (p: P) => void;
}

export interface SearchOutcome<P extends SearchProbe> {
  verdict: SearchVerdict;
  below: P | null;
  above: P | null;
  probes: P[];
  /** Why the search stopped, for verdict stopped. */
  stopped: string | null;
  /** The highest level that held (a lower bound when above-range); null otherwise. */
  capacity: number | null;
  stepSize: number | null;
  /** Where the boundary lies in words, for a search out of probes. */
  bracket: string;
}

export async function searchCapacity<P extends SearchProbe>(opts: SearchOptions<P>): Promise<SearchOutcome<P>> {
  const probes: P[] = [];
  let stopped: string | null = null;
  let outOfProbes = false;
  const probe = async (level: number, phase: SearchProbe['phase']): Promise<P | null> => {
    if (stopped) return null;
    if (probes.length >= opts.maxProbes) {
      outOfProbes = true;
      return null;
    }
    const p = await opts.measure(level, phase);
    if (typeof p === 'string') {
      stopped = p;
      return null;
    }
    probes.push(p);
    opts.onProbe?.(p);
    return p;
  };
  let below: P | null = null;
  let above: P | null = null;
  for (const level of opts.coarse) {
    const p = await probe(level, 'coarse');
    if (!p) break;
    if (p.holds) below = p;
    else {
      above = p;
      break;
    }
  }
  while (below && above) {
    const mid = opts.bisect(below.level, above.level);
    if (mid === null) break;
    const p = await probe(mid, 'bisect');
    if (!p) break;
    if (p.holds) below = p;
    else above = p;
  }
  // Out of probes before the bracket closed: what held is a lower bound, not the capacity.
  const verdict: SearchVerdict = stopped ? 'stopped' : outOfProbes ? 'budget-exhausted' : !below ? 'below-range' : !above ? 'above-range' : 'found';
  const b = below as P | null;
  const a = above as P | null;
  const bracket =
    b && a
      ? `between ${b.label} (holds) and ${a.label} (misses)`
      : b
        ? `at least ${b.label} (holds); nothing above it was measured`
        : 'not bracketed: no probe held';
  return {
    verdict,
    below: b,
    above: a,
    probes,
    stopped,
    capacity: verdict === 'found' || verdict === 'above-range' ? (b?.level ?? null) : null,
    stepSize: b && a ? a.level - b.level : null,
    bracket,
  };
}

/** The statement of a search's outcome; `slo` describes the objectives, `stopped` is the reason a probe gave. */
export function searchStatement(o: SearchOutcome<SearchProbe>, slo: string, maxProbes: number): string {
  switch (o.verdict) {
    case 'budget-exhausted':
      return `the probe budget (${maxProbes}) ran out before the search finished: capacity at SLO (${slo}) is ${o.bracket}; raise --max-probes`;
    case 'found':
      return `capacity at SLO (${slo}): ${o.below?.label}; ${o.above?.label} misses (${o.above?.reason})`;
    case 'below-range':
      return `no level holds the SLOs (${slo}): even ${o.above?.label} misses (${o.above?.reason})`;
    case 'above-range':
      return `every level holds the SLOs (${slo}) up to ${o.below?.label}: the capacity is higher; extend the levels`;
    case 'stopped':
      return `the search stopped: ${o.stopped}`;
  }
}
