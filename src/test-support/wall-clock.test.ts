import { afterEach, describe, expect, it, vi } from 'vitest';

async function load(mode: string | undefined): Promise<typeof import('./wall-clock.js')> {
  vi.resetModules();
  if (mode === undefined) vi.stubEnv('GOODPUT_TIMING', '');
  else vi.stubEnv('GOODPUT_TIMING', mode);
  return import('./wall-clock.js');
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('wall-clock checks', () => {
  it('are strict by default (npm run bench): a missed bound fails', async () => {
    const { wallClock, wallClockRelaxed } = await load(undefined);
    expect(wallClockRelaxed).toBe(false);
    expect(() => wallClock(12, 'TTFT p50').toBeLessThan(10)).toThrow(/TTFT p50/);
    expect(() => wallClock(12, 'TTFT p50').not.toBeGreaterThan(10)).toThrow(/TTFT p50/);
    wallClock(8, 'TTFT p50').toBeLessThan(10);
  });

  it('relaxed (npm test): a missed bound is printed and passes, with .not too', async () => {
    const { wallClock, wallClockRelaxed } = await load('relaxed');
    expect(wallClockRelaxed).toBe(true);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    wallClock(12, 'TTFT p50 at c=4').toBeLessThan(10);
    wallClock(12, 'TPOT p50').not.toBeGreaterThan(10);
    wallClock('late', 'verdict').toBe('on time');
    expect(warn).toHaveBeenCalledTimes(3);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/wall-clock bound missed .*TTFT p50 at c=4/);
  });

  it('relaxed still refuses a figure that was not measured: NaN, undefined or Infinity is a broken run, not a slow machine', async () => {
    const { wallClock } = await load('relaxed');
    expect(() => wallClock(NaN, 'TTFT p50').toBeLessThan(10)).toThrow(/TTFT p50: NaN is not a measured figure/);
    expect(() => wallClock(undefined, 'TPOT p50').toBeLessThan(10)).toThrow(/not a measured figure/);
    expect(() => wallClock(Infinity, 'e2e').toBeLessThan(10)).toThrow(/not a measured figure/);
  });
});
