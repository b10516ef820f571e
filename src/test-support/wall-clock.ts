/**
 * Wall-clock accuracy checks in the timing tests. `npm run bench` holds them
 * strictly; `npm test` runs the same files with GOODPUT_TIMING=relaxed, where a
 * missed wall-clock bound is printed instead of failing, so a loaded CI machine
 * cannot fail them while every functional assertion in the same files (counts,
 * hashes, codes, the figure being a finite number) still must hold.
 */
import { expect } from 'vitest';

/** True in the relaxed pass of `npm test`. */
export const wallClockRelaxed = process.env.GOODPUT_TIMING === 'relaxed';

/**
 * `expect(value, what)` for a figure (or a verdict) that depends on the wall
 * clock. Relaxed, a number must still be finite (a NaN is a broken measurement,
 * not a slow machine); a missed bound is logged with `what` and passes.
 */
export function wallClock<T>(value: T, what: string): ReturnType<typeof expect<T>> {
  const matchers = expect(value, what);
  if (!wallClockRelaxed) return matchers;
  if (typeof value === 'number' || value === undefined || value === null) {
    expect(Number.isFinite(value), `${what}: ${String(value)} is not a measured figure`).toBe(true);
  }
  return lenient(matchers);
}

/** Every matcher (and `.not`'s) logs its failure instead of throwing. */
function lenient<T extends object>(matchers: T): T {
  return new Proxy(matchers, {
    get(target, prop, receiver) {
      const member: unknown = Reflect.get(target, prop, receiver);
      if (prop === 'not' && typeof member === 'object' && member !== null) return lenient(member);
      if (typeof member !== 'function') return member;
      return (...args: unknown[]) => {
        try {
          return (member as (...a: unknown[]) => unknown).apply(target, args);
        } catch (e) {
          console.warn(`wall-clock bound missed (relaxed in npm test, strict in npm run bench): ${(e as Error).message.split('\n')[0]}`);
          return undefined;
        }
      };
    },
  });
}
