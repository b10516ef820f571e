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

/**
 * cyrb53: a 53-bit string hash (as a safe integer), enough to key prefix-cache
 * blocks without practical collisions.
 */
export function hashString53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
