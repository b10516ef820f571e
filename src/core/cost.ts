/**
 * Cost per million output tokens, from an hourly hardware cost and a measured
 * throughput. Never called without an hourly cost: no rate, no figure.
 */

/** The basis printed next to every cost figure. */
export const COST_BASIS =
  'GPU hourly cost over output tokens only, at the measured peak throughput sustained for a whole hour; ' +
  'excludes prompt tokens, idle time and redundancy, which all make real cost higher.';

/** USD per 1M output tokens = hourly / (tok/s × 3600) × 1e6. */
export function costPer1MUsd(hourlyUsd: number, throughputTokS: number): number {
  if (!(hourlyUsd >= 0)) throw new RangeError(`hourly cost must be ≥ 0, got ${hourlyUsd}`);
  if (!(throughputTokS > 0)) throw new RangeError(`throughput must be > 0 tok/s, got ${throughputTokS}`);
  return (hourlyUsd / (throughputTokS * 3600)) * 1e6;
}

/** Saving against a baseline rate, percent of the baseline (negative when dearer). */
export function savingPct(costUsdPer1M: number, baselineUsdPer1M: number): number {
  if (!(baselineUsdPer1M > 0)) throw new RangeError(`baseline rate must be > 0 USD per 1M, got ${baselineUsdPer1M}`);
  return ((baselineUsdPer1M - costUsdPer1M) / baselineUsdPer1M) * 100;
}
