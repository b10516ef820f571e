/** A disagreement with the server's counts on a level that lost a worker names the worker. */
import { describe, expect, it } from 'vitest';
import { withLostShares } from './level-telemetry.js';

const share = (label: string, lost: string | null) => ({
  label,
  requests: 10,
  bound: false,
  reason: null,
  clientCpuPct: null,
  loopDelayMs: null,
  clockOffsetNs: 0,
  clockToDb: null,
  lost,
});

describe('withLostShares', () => {
  const w = { code: 'server-disagrees', message: "level 8: our figures and the server's disagree: output tokens 1,200 vs 1,500" };
  it('names the lost worker in the token-count warning it causes', () => {
    expect(withLostShares(w, { shares: [share('worker a', null), share('worker b', 'worker b stopped answering mid-level')] }).message).toBe(
      `${w.message}; worker b (worker b stopped answering mid-level) was lost mid-level: the server kept generating for its requests, which we no longer counted`,
    );
  });
  it('leaves other warnings and levels without a lost client as they were', () => {
    expect(withLostShares(w, { shares: [share('worker a', null)] })).toEqual(w);
    expect(withLostShares(w, {})).toEqual(w);
    const other = { code: 'gpu-source', message: 'x' };
    expect(withLostShares(other, { shares: [share('worker b', 'gone')] })).toEqual(other);
  });
});
