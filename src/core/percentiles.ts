/**
 * Exact percentiles from raw samples. Linear interpolation between closest
 * ranks (numpy's default, which vLLM and SGLang report), so figures line up.
 */

/** Sorts a copy ascending (numbers, not strings). */
export function sortedCopy(samples: readonly number[]): Float64Array {
  const out = Float64Array.from(samples);
  out.sort();
  return out;
}

/** The p-th percentile (0..100) of ascending `sorted`; null when there are no samples. */
export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  if (p < 0 || p > 100) throw new RangeError(`percentile ${p} is outside 0..100`);
  const rank = (p / 100) * (n - 1);
  const lo = Math.floor(rank);
  const hi = Math.min(lo + 1, n - 1);
  const loV = sorted[lo] as number;
  return loV + ((sorted[hi] as number) - loV) * (rank - lo);
}

/** Named percentiles of raw samples, e.g. `percentiles(xs, [50, 95])` → `{p50, p95}`; null without samples. */
export function percentiles<P extends number>(samples: readonly number[], ps: readonly P[]): Record<`p${P}`, number> | null {
  if (samples.length === 0) return null;
  const sorted = sortedCopy(samples);
  const out = {} as Record<`p${P}`, number>;
  for (const p of ps) out[`p${p}`] = percentileOfSorted(sorted, p) as number;
  return out;
}

/** Arithmetic mean; null without samples. */
export function mean(samples: readonly number[]): number | null {
  if (samples.length === 0) return null;
  let sum = 0;
  for (const x of samples) sum += x;
  return sum / samples.length;
}

/** Largest sample (a loop: spreading a million samples into Math.max overflows the stack); null without samples. */
export function maxOf(samples: readonly number[]): number | null {
  if (samples.length === 0) return null;
  let m = -Infinity;
  for (const x of samples) if (x > m) m = x;
  return m;
}

/** Smallest sample; null without samples. */
export function minOf(samples: readonly number[]): number | null {
  if (samples.length === 0) return null;
  let m = Infinity;
  for (const x of samples) if (x < m) m = x;
  return m;
}
