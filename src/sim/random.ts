/**
 * Seeded pseudo-randomness: a mulberry32 stream for sequential draws (fault plan)
 * and stateless integer hashing for per-request, per-token choices, so a run with
 * the same seed and request order is repeatable.
 */

export { mulberry32 } from '../core/index.js';

/** murmur3's 32-bit finaliser: a good avalanche of one integer. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of a few integers (order matters). */
export function hashInts(...values: number[]): number {
  let h = 0x9747b28c;
  for (const v of values) h = fmix32((h ^ fmix32(v | 0)) + 0x9e3779b9);
  return h >>> 0;
}

/** A uniform float in [0, 1) determined by the given integers. */
export function unitFloat(...values: number[]): number {
  return hashInts(...values) / 4294967296;
}

/** A uniform integer in [min, max] determined by `key`. */
export function uniformInt(min: number, max: number, ...key: number[]): number {
  return min + Math.floor(unitFloat(...key) * (max - min + 1));
}

/** The string hash lives in core: the workload keys trace blocks with it too. */
export { hashString53 } from '../core/index.js';
