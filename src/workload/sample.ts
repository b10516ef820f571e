/**
 * Seeded sampling of corpus prompts: a Fisher–Yates permutation per pass, so
 * the first n draws are distinct when the corpus holds n or more, and further
 * passes start a fresh permutation. The same seed draws the same prompts.
 */
import { mulberry32 } from '../core/index.js';

/** `n` items of `pool` in seeded order (going round again with a new permutation when n > pool size). */
export function seededSample<T>(pool: readonly T[], n: number, seed: number): T[] {
  if (pool.length === 0) return [];
  const out: T[] = [];
  for (let pass = 0; out.length < n; pass++) {
    const rand = mulberry32((seed + pass * 0x9e3779b1) >>> 0);
    const order = pool.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    for (const i of order) {
      if (out.length >= n) break;
      out.push(pool[i] as T);
    }
  }
  return out;
}
