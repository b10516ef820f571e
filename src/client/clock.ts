/**
 * The clock the client stamps every instant with: monotonic nanoseconds as a
 * float64 number holding a whole count. Injected so tests and the benchmark can substitute their own.
 */

/** Returns monotonic time in nanoseconds (an injected clock may give fractions; records round them). */
export type Clock = () => number;

/** `performance.now()` in whole nanoseconds: monotonic, ~µs resolution, origin = process start. */
export const monotonicNs: Clock = () => Math.round(performance.now() * 1e6);
