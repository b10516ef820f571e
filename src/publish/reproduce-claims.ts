/**
 * What `goodput reproduce` reports: every claim a receipt makes (each number
 * of its fact table, headlines among them, that it states as measured or
 * derived) beside the same number that the receipt builder gives from the
 * reader's own runs of both contracts, and whether the claim holds. The
 * reproduced figure is the median of the reader's runs (one disturbed run
 * does not move it); it holds when it lies within the published runs' range
 * (the figure alone for a single run) widened by a floor: a share of the
 * figure (of a quality score, of its distance from a perfect score), and for
 * durations a few milliseconds (a loopback round trip and a timer's jitter
 * are that large on any machine). Recorded inputs (the GPU's
 * hourly rate and count) are the contract's, not measurements; a number the
 * receipt does not record claims nothing. Each level's curve points are
 * claims too, judged by the same rule and reported level by level: the
 * receipt states run 1's figure, so the published range is rebuilt from every
 * run of its evidence (withLevelRuns).
 */
import type { Fact } from './fact.js';
import type { Receipt } from './receipt-schema.js';

/** The allowance's floors, stated in docs/receipts.md ("Checking a receipt"). */
export const REPRODUCE_TOLERANCE = { relative: 0.2, durationMs: 2, scorePoints: 0.01 } as const;

export interface ClaimCheck {
  id: string;
  label: string;
  unit: string;
  statistic: string;
  configuration: Fact['configuration'];
  /** The concurrency of a per-level curve point; null for a figure of the fact table. */
  level: number | null;
  digits: number;
  /** The receipt's figure and, for repeated runs, the figure in each run. */
  published: number;
  publishedRuns: Array<number | null> | null;
  /** The interval the reproduced figure must lie in: the published runs' range (or the figure) widened by the floor. */
  low: number;
  high: number;
  /** The median of the reader's runs' figures (the one run's figure without repeats); null when none recorded it. */
  reproduced: number | null;
  reproducedRuns: Array<number | null> | null;
  holds: boolean;
  /** Which allowance applied, or why the claim does not hold, in words. */
  why: string;
}

/** The figures of the runs that recorded one; the fact's own value when it states no runs. */
function figures(f: Fact): number[] {
  const runs = (f.runs ?? []).filter((x): x is number => x !== null && Number.isFinite(x));
  return runs.length >= 2 ? runs : f.value === null ? [] : [f.value];
}

/** The middle figure (the mean of the two middle ones for an even count): one disturbed run does not move it. */
function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** The floor of a claim's allowance and the words that name it. */
function floorOf(claim: Fact): { width: number; from: string } {
  const value = claim.value as number;
  // A score near 1 differs by its distance from a perfect score: 20 % of the figure would let 0.99 hold at 0.8.
  if (claim.metric === 'quality') {
    const width = Math.max(REPRODUCE_TOLERANCE.relative * (1 - value), REPRODUCE_TOLERANCE.scorePoints);
    return { width, from: `${REPRODUCE_TOLERANCE.relative * 100} % of the distance from a perfect score, at least ${REPRODUCE_TOLERANCE.scorePoints}` };
  }
  const share = REPRODUCE_TOLERANCE.relative * Math.abs(value);
  const ms = claim.unit === 'ms' ? REPRODUCE_TOLERANCE.durationMs : 0;
  return share >= ms ? { width: share, from: `${REPRODUCE_TOLERANCE.relative * 100} % of the figure` } : { width: ms, from: `${ms} ms` };
}

/** A per-level point of a curve (`optimized.c2.throughput`) and its concurrency. */
const PER_LEVEL = /^(?:baseline|optimized)\.c(\d+)\./;
const levelOf = (id: string): number | null => {
  const m = PER_LEVEL.exec(id);
  return m === null ? null : Number(m[1]);
};

/**
 * The published receipt with each per-level point's figure in every run, taken
 * from `rebuilt` (the receipt built again from the same checked evidence with
 * perLevelRuns): the published receipt states run 1's alone. A point whose
 * run 1 figure is not the published one keeps its own figure.
 */
export function withLevelRuns(published: Receipt, rebuilt: Receipt): Receipt {
  const again = new Map(rebuilt.facts.map((f) => [f.id, f]));
  const facts = published.facts.map((f) => {
    const runs = again.get(f.id);
    return levelOf(f.id) !== null && runs?.runs !== undefined && runs.value === f.value ? { ...f, runs: runs.runs } : f;
  });
  return { ...published, facts };
}

export interface LevelVerdict {
  configuration: Fact['configuration'];
  concurrency: number;
  claims: number;
  /** Ids of the level's points that do not hold. */
  failing: string[];
}

/** The per-level points' verdicts, one entry a configuration and level, in the order the claims come. */
export function levelVerdicts(claims: readonly ClaimCheck[]): LevelVerdict[] {
  const out = new Map<string, LevelVerdict>();
  for (const c of claims) {
    if (c.level === null) continue;
    const key = `${c.configuration}.${c.level}`;
    const v = out.get(key) ?? { configuration: c.configuration, concurrency: c.level, claims: 0, failing: [] };
    v.claims++;
    if (!c.holds) v.failing.push(c.id);
    out.set(key, v);
  }
  return [...out.values()];
}

/** Each claim of `published` against the figure `reproduced` (the receipt built from the reader's runs) states under the same id. */
export function reproduceClaims(published: Receipt, reproduced: Receipt): ClaimCheck[] {
  const again = new Map(reproduced.facts.map((f) => [f.id, f]));
  return published.facts
    .filter((f) => f.value !== null && (f.provenance === 'measured' || f.provenance === 'derived'))
    .map((claim) => {
      const value = claim.value as number;
      const other = again.get(claim.id);
      const published = figures(claim);
      const { width, from } = floorOf(claim);
      // A figure that cannot be negative (every rate, time, count and share here) is not allowed below zero.
      const low = Math.max(Math.min(value, ...published) >= 0 ? 0 : -Infinity, Math.min(value, ...published) - width);
      const high = Math.max(value, ...published) + width;
      const got = other === undefined ? null : median(figures(other));
      const holds = got !== null && got >= low && got <= high;
      const range = published.length > 1 ? `the published runs' range ± ${from}` : `± ${from}`;
      const why = got === null ? `the reproduction records no value${other?.note ? ` (${other.note})` : ''}` : holds ? `within ${range}` : `beyond ${range}`;
      return {
        id: claim.id,
        label: claim.label,
        unit: claim.unit,
        statistic: claim.statistic,
        configuration: claim.configuration,
        level: levelOf(claim.id),
        digits: claim.digits,
        published: value,
        publishedRuns: claim.runs ?? null,
        low,
        high,
        reproduced: got,
        reproducedRuns: other?.runs ?? null,
        holds,
        why,
      };
    });
}
