import { describe, expect, it } from 'vitest';
import { rec } from '../test-support/records.js';
import type { RequestRecord } from './record.js';
import { mergeShareRecords, sharesLoad, shiftRecord, splitConcurrency, splitRequests, withShares, type ShareRecords } from './level-shares.js';
import { summarizeLevel } from './level-summary.js';

const gpu = { available: false as const, source: 'not available' as const, reason: 'none' };
const withSeq = (r: RequestRecord, seq: number): RequestRecord => ({ ...r, seq });
const share = (label: string, records: RequestRecord[], over: Partial<ShareRecords> = {}): ShareRecords => ({
  label,
  records,
  clockOffsetNs: 0,
  loopDelayMs: { p50: 0, p99: 0.5, max: 1 },
  clientCpuPct: 20,
  ...over,
});

describe('splitting a level', () => {
  it('splits streams evenly, larger shares first, summing to the total', () => {
    expect(splitConcurrency(10, 3)).toEqual([4, 3, 3]);
    expect(splitConcurrency(1024, 2)).toEqual([512, 512]);
    expect(splitConcurrency(2, 3)).toEqual([1, 1, 0]);
  });
  it('refuses a fractional total or a client count below one, naming the value', () => {
    expect(() => splitConcurrency(2.5, 2)).toThrow(/concurrency 2.5 is not a whole number/);
    expect(() => splitConcurrency(4, 0)).toThrow(/0 is not a whole number of clients/);
  });
  it('gives every request to exactly one share, in proportion to its weight', () => {
    expect(splitRequests(10, [4, 3, 3])).toEqual([
      { from: 0, to: 4 },
      { from: 4, to: 7 },
      { from: 7, to: 10 },
    ]);
    expect(splitRequests(5, [1, 1, 0])).toEqual([
      { from: 0, to: 3 },
      { from: 3, to: 5 },
      { from: 5, to: 5 },
    ]);
    expect(() => splitRequests(5, [0, 0])).toThrow(/no weight/);
  });
});

describe('merging shares', () => {
  it('moves every instant of a share by its clock offset', () => {
    const r = rec({ sendMs: 0, chunksMs: [10, 20], endMs: 21 });
    const s = shiftRecord(r, 5e6);
    expect([s.targetSendNs, s.sendNs, s.firstTokenNs, s.chunkNs, s.endNs]).toEqual([5e6, 5e6, 15e6, [15e6, 25e6], 26e6]);
    expect(r.sendNs).toBe(0);
    // A measured offset has fractions of noise: moved whole, whole instants stay whole.
    expect(shiftRecord(r, 5e6 + 0.4).chunkNs).toEqual([15e6, 25e6]);
    const merged = mergeShareRecords([share('a', [withSeq(r, 1)]), share('b', [withSeq(r, 0)], { clockOffsetNs: 5e6 })]);
    expect(merged.map((x) => [x.seq, x.sendNs])).toEqual([
      [0, 5e6],
      [1, 0],
    ]);
  });

  // Four requests of a 2-stream level; TTFTs 10, 12, 40, 50 ms.
  const all = [
    withSeq(rec({ sendMs: 0, chunksMs: [10, 20, 30], endMs: 31 }), 0),
    withSeq(rec({ sendMs: 0, chunksMs: [12, 22, 32], endMs: 33 }), 1),
    withSeq(rec({ sendMs: 31, chunksMs: [71, 81, 91], endMs: 92 }), 2),
    withSeq(rec({ sendMs: 33, chunksMs: [83, 93, 103], endMs: 104 }), 3),
  ];
  const input = { concurrency: 2, targetOutputTokens: 3, forceLength: true, clientBudgetMs: 10, gpu };
  /** The level as the runner builds it from shares: merged records, the worst loop delay and busy share, each share judged. */
  const summarizeShares = (shares: ShareRecords[]) => {
    const level = summarizeLevel({ ...input, records: mergeShareRecords(shares), ...sharesLoad(shares) });
    return { level: withShares(level, shares, input.clientBudgetMs) };
  };

  it('computes the level from the merged records, never by averaging percentiles', () => {
    // Thread b's clock runs 1 ms behind the level's: its offset puts it back.
    const b = [all[1], all[3]].map((r) => shiftRecord(r as RequestRecord, -1e6));
    const { level } = summarizeShares([share('thread 1', [all[0], all[2]] as RequestRecord[]), share('thread 2', b, { clockOffsetNs: 1e6 })]);
    const single = summarizeLevel({ ...input, records: all, loopDelayMs: { p50: 0, p99: 0.5, max: 1 }, clientCpuPct: 20 });
    expect(level.requests).toBe(4);
    expect(level.ttftMs).toEqual(single.ttftMs);
    // The mean of the shares' p50s (25 and 31) would be 28; the merged p50 is 26.
    expect(level.ttftMs?.p50).toBe(26);
    expect(level.tpotMs).toEqual(single.tpotMs);
    expect(level.throughputTokS).toBeCloseTo(single.throughputTokS, 9);
    expect(level.ttftSplitMs?.burst?.p50).toBe(11);
    expect(level.ttftSplitMs?.steady?.p50).toBe(45);
  });

  it('one client-bound share makes the level client-bound, naming the share', () => {
    const shares = [share('thread 1', [all[0], all[2]] as RequestRecord[]), share('thread 2', [all[1], all[3]] as RequestRecord[], { clientCpuPct: 85 })];
    const out = summarizeShares(shares);
    expect(out.level.shares?.map((s) => s.bound)).toEqual([false, true]);
    expect(out.level.shares?.map((s) => s.requests)).toEqual([2, 2]);
    expect(out.level.clientBound.bound).toBe(true);
    expect(out.level.clientBound.reason).toMatch(/thread 2: the client was busy 85 % of one core/);
    expect(out.level.clientBound.clientCpuPct).toBe(85);
  });

  it('a share whose event loop was delayed past the budget is named too', () => {
    const shares = [
      share('worker a', [all[0], all[2]] as RequestRecord[], { loopDelayMs: { p50: 3, p99: 25, max: 40 } }),
      share('worker b', [all[1], all[3]] as RequestRecord[]),
    ];
    const out = summarizeShares(shares);
    expect(out.level.clientBound.reason).toMatch(/worker a: the client's event loop was delayed 25.0 ms/);
    expect(out.level.clientBound.loopDelayMs?.p99).toBe(25);
  });
});
