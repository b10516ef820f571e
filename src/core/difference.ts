/**
 * The one rule for a change, its interval and calling it better or worse,
 * used by the page, the CLI, the report and receipts: the difference
 * (candidate − baseline) of one statistic of each side's samples (over runs:
 * the mean of all runs) with a 95 % percentile-bootstrap interval of that same
 * statistic, seeded so the same inputs always give the same interval. The
 * change as a share of the baseline is a ratio (candidate ÷ baseline − 1) and
 * its interval comes from the same resamples as a ratio, so a positive figure
 * never falls by more than 100 %. The interval always holds the change it is
 * stated with. A direction is named only when the interval excludes zero, the
 * change does not round to zero at the digits shown, and it is larger than
 * the figure's own noise; otherwise "no difference established".
 */
import { percentileOfSorted } from './percentiles.js';
import { mulberry32 } from './random.js';

/** The bootstrap's fixed seed and resample count: documented in docs/compare.md, reproducible everywhere. */
export const BOOTSTRAP = { seed: 20_240_611, resamples: 2000, confidence: 0.95 } as const;

/** Fewer runs per side than this cannot be resampled as runs: the records are resampled instead. */
export const MIN_REPEATS = 3;

/** Samples resampled per side at most (a bound on work, not on the data): a longer side is thinned evenly first. */
export const MAX_BOOTSTRAP_SAMPLES = 20_000;

export type Verdict = 'better' | 'worse' | 'no difference established' | 'not compared';

export interface Difference {
  /** Candidate − baseline of the statistic; null when either side has none. */
  diff: number | null;
  /** The change as a share of the baseline, %; null when the baseline is 0 or missing. */
  pct: number | null;
  /** The interval's bounds of `diff`; null when it could not be bootstrapped (one value per side). Always lo ≤ diff ≤ hi. */
  lo: number | null;
  hi: number | null;
  /**
   * The interval of `pct`, %, from the same resamples as the ratio candidate ÷ baseline − 1 (so never below −100 % for
   * figures that cannot go negative); null when not bootstrapped or the baseline is not positive. Always pctLo ≤ pct ≤ pctHi.
   */
  pctLo: number | null;
  pctHi: number | null;
  verdict: Verdict;
  /** What was resampled: each side's request records, each side's runs, or nothing (single values). */
  basis: 'requests' | 'runs' | 'single values';
  /** Why the verdict is what it is, in words ("interval excludes zero", "rounds to zero", …). */
  why: string;
}

export interface DifferenceInput {
  /** Which way is better; null: no direction (memory), never better or worse. */
  direction: 'higher' | 'lower' | null;
  /** Each side's samples: per-request values (basis "requests") or per-run figures (basis "runs"). */
  baseline: readonly number[];
  candidate: readonly number[];
  basis: 'requests' | 'runs';
  /** The statistic of a side's samples (a percentile, a mean, a rate); `side` for a statistic that differs by side (a quality composite's fixed perplexity term). */
  statistic(samples: ArrayLike<number>, side?: 'baseline' | 'candidate'): number | null;
  /** Decimals the figure is shown with: a change that rounds to zero there is no change. */
  digits: number;
  /** The figure's own noise, in its unit (e.g. the quality score's spread on identical servers): a smaller change is not called a direction. */
  noise?: number;
  /**
   * The figures as shown (baseline, candidate), when they are not exactly the statistic of the samples (a level summary's
   * trimming): the samples' bootstrap gives the interval's shape, moved onto these figures so it holds the change stated.
   */
  point?: readonly [number | null, number | null];
  seed?: number;
  resamples?: number;
}

/** Evenly thinned to at most `max` values (keeps the order-free distribution, bounds the work). */
function bounded(xs: readonly number[], max: number): Float64Array {
  if (xs.length <= max) return Float64Array.from(xs);
  const out = new Float64Array(max);
  for (let i = 0; i < max; i++) out[i] = xs[Math.floor((i * xs.length) / max)] as number;
  return out;
}

function resample(xs: Float64Array, rand: () => number, into: Float64Array): Float64Array {
  for (let i = 0; i < xs.length; i++) into[i] = xs[Math.floor(rand() * xs.length)] as number;
  return into;
}

function quantile(sorted: Float64Array, q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (pos - lo);
}

const rounded = (x: number, digits: number) => Number(x.toFixed(digits));

/** The q-quantiles (tail, 1 − tail) of the first `n` values, or nulls when there are none. */
function bounds(values: Float64Array, n: number): [number, number] | null {
  if (n === 0) return null;
  const sorted = values.subarray(0, n).sort();
  const tail = (1 - BOOTSTRAP.confidence) / 2;
  return [quantile(sorted, tail), quantile(sorted, 1 - tail)];
}

/** [lo, hi] widened to reach `x`: a percentile interval can fall beside its point (floating noise, extreme skew), and a stated change always lies in its stated interval. */
const holding = (b: [number, number] | null, x: number | null): [number | null, number | null] =>
  b === null || x === null ? [null, null] : [Math.min(b[0], x), Math.max(b[1], x)];

/** The difference with its interval and the verdict the one rule gives it. */
export function difference(input: DifferenceInput): Difference {
  const a = bounded(input.baseline.filter(Number.isFinite), MAX_BOOTSTRAP_SAMPLES);
  const b = bounded(input.candidate.filter(Number.isFinite), MAX_BOOTSTRAP_SAMPLES);
  const sx = a.length > 0 ? input.statistic(a, 'baseline') : null;
  const sy = b.length > 0 ? input.statistic(b, 'candidate') : null;
  const x = input.point?.[0] ?? sx;
  const y = input.point?.[1] ?? sy;
  if (x === null || y === null)
    return { diff: null, pct: null, lo: null, hi: null, pctLo: null, pctHi: null, verdict: 'not compared', basis: input.basis, why: 'a side has no value' };
  const diff = y - x;
  const pct = x !== 0 ? (diff / Math.abs(x)) * 100 : null;
  const canResample = input.basis === 'runs' ? a.length >= MIN_REPEATS && b.length >= MIN_REPEATS : a.length >= 2 && b.length >= 2;
  const base = { diff, pct, basis: canResample ? input.basis : ('single values' as const) };
  if (!canResample || sx === null || sy === null) {
    const why = !canResample
      ? input.basis === 'runs'
        ? `fewer than ${MIN_REPEATS} runs on a side`
        : 'fewer than 2 values on a side'
      : "a side's samples have no statistic";
    return { ...base, lo: null, hi: null, pctLo: null, pctHi: null, verdict: 'no difference established', why };
  }
  const n = Math.max(1, Math.min(input.resamples ?? BOOTSTRAP.resamples, BOOTSTRAP.resamples * 10));
  const rand = mulberry32(input.seed ?? BOOTSTRAP.seed);
  const ra = new Float64Array(a.length);
  const rb = new Float64Array(b.length);
  const diffs = new Float64Array(n);
  const ratios = new Float64Array(n);
  // Shown figures other than the samples' statistic: each resample is moved by the same offset (difference) or factor (ratio).
  const shift = diff - (sy - sx);
  const ratioShift = x > 0 && sx > 0 && sy > 0 ? y / x / (sy / sx) : null;
  let kept = 0;
  let keptRatios = 0;
  for (let i = 0; i < n; i++) {
    const sa = input.statistic(resample(a, rand, ra), 'baseline');
    const sb = input.statistic(resample(b, rand, rb), 'candidate');
    if (sa === null || sb === null) continue;
    diffs[kept++] = sb - sa + shift;
    if (ratioShift !== null && sa > 0) ratios[keptRatios++] = ((sb / sa) * ratioShift - 1) * 100;
  }
  const [lo, hi] = holding(bounds(diffs, kept), diff);
  // A ratio interval needs every resample's baseline positive: else it would leave some out.
  const [pctLo, pctHi] = keptRatios === kept && pct !== null ? holding(bounds(ratios, keptRatios), pct) : [null, null];
  const withCi = { ...base, lo, hi, pctLo, pctHi };
  if (input.direction === null) return { ...withCi, verdict: 'no difference established', why: 'the figure has no better direction' };
  // Both intervals come from the same resamples; either holding zero (they can differ only by interpolation) establishes nothing.
  const holdsZero = (l: number | null, h: number | null) => l !== null && h !== null && l <= 0 && h >= 0;
  if (lo === null || hi === null || holdsZero(lo, hi) || holdsZero(pctLo, pctHi))
    return { ...withCi, verdict: 'no difference established', why: 'the interval includes zero' };
  if (rounded(diff, input.digits) === 0) return { ...withCi, verdict: 'no difference established', why: 'the change rounds to zero' };
  if (input.noise !== undefined && Math.abs(diff) <= input.noise)
    return { ...withCi, verdict: 'no difference established', why: `the change is within the figure's own noise (±${Number(input.noise.toPrecision(2))})` };
  const up = diff > 0;
  return { ...withCi, verdict: up === (input.direction === 'higher') ? 'better' : 'worse', why: 'the interval excludes zero' };
}

/** The p-th percentile as a statistic, interpolated as the level summaries' percentiles are. */
export function percentileStatistic(p: number): (xs: ArrayLike<number>) => number | null {
  return (xs) => percentileOfSorted(Float64Array.from(xs).sort(), p);
}

export const meanStatistic = (xs: ArrayLike<number>): number | null => {
  if (xs.length === 0) return null;
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i] as number;
  return s / xs.length;
};
