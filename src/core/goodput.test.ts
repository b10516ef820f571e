import { describe, expect, it } from 'vitest';
import { rec } from '../test-support/records.js';
import { levelGoodput, percentileWithMisses } from './goodput.js';
import { describeSlo, judgeRequest, sloSchema } from './slo.js';

// TTFT 100, 200, 300, 400 ms; 10 ms per token after the first (4 tokens); one failure.
const ok = (ttft: number) => rec({ sendMs: 0, chunksMs: [ttft, ttft + 10, ttft + 20, ttft + 30] });
const failed = rec({ chunksMs: [], endMs: 5, outcome: { kind: 'http-error', status: 503, message: 'busy' } });
const records = [ok(100), ok(200), ok(300), ok(400), failed, rec({ warmup: true, chunksMs: [9999] })];

describe('per-request verdict', () => {
  const slo = sloSchema.parse({ ttftMs: { p: 50, max: 250 }, tpotMs: { p: 50, max: 50 } });
  it('met when every stated metric is within its limit; which SLO was missed otherwise', () => {
    expect(judgeRequest(ok(100), slo)).toEqual({ met: true, missed: [] });
    expect(judgeRequest(ok(300), slo)).toEqual({ met: false, missed: ['ttftMs'] });
    expect(judgeRequest(rec({ chunksMs: [10, 110] }), slo)).toEqual({ met: false, missed: ['tpotMs'] });
    expect(judgeRequest(failed, slo)).toEqual({ met: false, missed: ['failed'] });
  });
  it('a metric the request has no value for is not held against it (TPOT of one token)', () => {
    expect(judgeRequest(rec({ chunksMs: [10] }), slo).met).toBe(true);
  });
  it('describes itself in words', () => {
    expect(describeSlo(slo)).toBe('TTFT p50 ≤ 250 ms, TPOT p50 ≤ 50 ms');
  });
});

describe('percentiles with failures counted as +∞', () => {
  it('interpolates among finite samples and gives null once the rank reaches a failure', () => {
    // [10, 20, 30, ∞]: p50 rank 1.5 → 25; p90 rank 2.7 → between 30 and ∞
    expect(percentileWithMisses([30, 10, 20], 1, 50)).toBe(25);
    expect(percentileWithMisses([30, 10, 20], 1, 90)).toBeNull();
    expect(percentileWithMisses([30, 10, 20], 0, 100)).toBe(30);
    expect(percentileWithMisses([], 0, 50)).toBeNull();
  });
});

describe('level goodput', () => {
  it('counts requests meeting every SLO per second and as a share of all measured requests', () => {
    const g = levelGoodput(records, sloSchema.parse({ ttftMs: { p: 50, max: 250 } }), 1000);
    expect(g.requests).toBe(5);
    expect(g.met).toBe(2);
    expect(g.share).toBe(0.4);
    expect(g.missed).toEqual({ ttftMs: 2, tpotMs: 0, e2eMs: 0, failed: 1 });
    expect(g.requestsPerS).toBe(2);
    expect(g.tokensPerS).toBe(8);
    // TTFT samples [100, 200, 300, 400, ∞]: p50 = 300 > 250
    expect(g.checks).toEqual([{ metric: 'ttftMs', p: 50, max: 250, observed: 300, holds: false }]);
    expect(g.holds).toBe(false);
    expect(g.quality).toEqual({ floor: null, status: 'not-measured' });
  });
  it('holds when every percentile is within its limit and nothing failed', () => {
    const g = levelGoodput([ok(100), ok(200)], sloSchema.parse({ ttftMs: { p: 95, max: 250 }, qualityFloor: 0.9 }), 500);
    expect(g.checks[0]).toMatchObject({ observed: 195, holds: true });
    expect(g.holds).toBe(true);
    expect(g.quality.floor).toBe(0.9);
  });
  it('a failure alone makes the level not hold, even when the percentile does', () => {
    const g = levelGoodput([ok(100), ok(100), ok(100), failed], sloSchema.parse({ ttftMs: { p: 50, max: 250 } }), 500);
    expect(g.checks[0]?.holds).toBe(true);
    expect(g.holds).toBe(false);
  });
});

describe('SLO schema', () => {
  it('names the bad field', () => {
    const bad = sloSchema.safeParse({ ttftMs: { p: 150, max: 10 } });
    expect(bad.error?.issues[0]?.path).toEqual(['ttftMs', 'p']);
    expect(bad.error?.issues[0]?.message).toBe('p must be at most 100');
    expect(sloSchema.safeParse({ ttftMs: { p: 95, max: -1 } }).error?.issues[0]?.message).toBe('max must be a positive number of ms');
    expect(sloSchema.safeParse({}).error?.issues[0]?.message).toBe(
      'give at least one of ttftMs, tpotMs, e2eMs, ttftFromScheduleMs, e2eFromScheduleMs, toolCallValid, jobDeadlineMs',
    );
    // A job deadline alone is an objective (agent traces); it must be a positive number of ms.
    expect(sloSchema.safeParse({ jobDeadlineMs: 30_000 }).success).toBe(true);
    expect(sloSchema.safeParse({ jobDeadlineMs: 0 }).error?.issues[0]?.message).toBe('jobDeadlineMs must be a positive number of ms');
    expect(sloSchema.safeParse({ ttft: { p: 95, max: 1 } }).error?.issues[0]?.code).toBe('unrecognized_keys');
  });
});

describe('the toolCallValid SLO', () => {
  const withCalls = (verdict: 'valid' | 'invalid' | 'unparsed' | 'missing' | 'none') => ({
    ...ok(100),
    toolCalls: {
      required: verdict === 'missing',
      calls: verdict === 'none' || verdict === 'missing' ? 0 : 1,
      names: [],
      firstNs: null,
      argumentsDoneNs: null,
      argumentTokens: 0,
      verdict,
      problem: null,
    },
  });
  const slo = sloSchema.parse({ toolCallValid: true });
  it('misses a request whose calls did not all parse and validate, or whose required call never came', () => {
    expect(judgeRequest(withCalls('valid'), slo)).toEqual({ met: true, missed: [] });
    expect(judgeRequest(withCalls('none'), slo)).toEqual({ met: true, missed: [] });
    for (const v of ['invalid', 'unparsed', 'missing'] as const) expect(judgeRequest(withCalls(v), slo)).toEqual({ met: false, missed: ['toolCallValid'] });
    expect(describeSlo(slo)).toBe('every tool call valid');
  });
  it('lowers level goodput by exactly the requests that missed it, and the level no longer holds', () => {
    const rs = [withCalls('valid'), withCalls('valid'), withCalls('invalid'), withCalls('unparsed')];
    const g = levelGoodput(rs, slo, 1000);
    expect(g).toMatchObject({ requests: 4, met: 2, share: 0.5, requestsPerS: 2, holds: false });
    expect(g.missed.toolCallValid).toBe(2);
    expect(levelGoodput(rs.slice(0, 2), slo, 1000).holds).toBe(true);
    expect(levelGoodput(rs, sloSchema.parse({ ttftMs: { p: 50, max: 250 } }), 1000).missed.toolCallValid).toBeUndefined();
  });
});
