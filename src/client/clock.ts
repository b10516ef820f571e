/**
 * The clock the client stamps every instant with: monotonic nanoseconds as a
 * float64 number. Injected so tests and the benchmark can substitute their own.
 */

/** Returns monotonic time in nanoseconds (float; sub-ns digits are noise). */
export type Clock = () => number;

/** `performance.now()` in nanoseconds: monotonic, ~µs resolution, origin = process start. */
export const monotonicNs: Clock = () => performance.now() * 1e6;
