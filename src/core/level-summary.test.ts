import { describe, expect, it } from 'vitest';
import { rec } from '../test-support/records.js';
import { type LevelInput, summarizeLevel } from './level-summary.js';
import { steadyWindow } from './steady-state.js';

const base = (records: LevelInput['records'], over: Partial<LevelInput> = {}): LevelInput => ({
  concurrency: 2,
  records,
  targetOutputTokens: 4,
  forceLength: true,
  loopDelayMs: { p50: 0.1, p99: 0.5, max: 1 },
  clientCpuPct: 12,
  clientBudgetMs: 10,
  gpu: { available: false, source: 'not available', reason: 'nvidia-smi not found' },
  ...over,
});

describe('summarizeLevel', () => {
  // Two slots. A: 0→41, B: 0→61, C replaces A at 41→102. 4 tokens each.
  const a = rec({ sendMs: 0, chunksMs: [10, 20, 30, 40], endMs: 41 });
  const b = rec({ sendMs: 0, chunksMs: [30, 40, 50, 60], endMs: 61 });
  const c = rec({ sendMs: 41, chunksMs: [71, 81, 91, 101], endMs: 102 });
  const warm = rec({ sendMs: -500, chunksMs: [-400, -300, -200, -100], endMs: -99, warmup: true });

  it('excludes warm-up requests from every number', () => {
    const s = summarizeLevel(base([warm, a, b, c]));
    expect(s.requests).toBe(3);
    expect(s.warmupRequests).toBe(1);
    // 12 tokens over 0 → 102 ms
    expect(s.durationMs).toBe(102);
    expect(s.throughputTokS).toBeCloseTo(12 / 0.102, 6);
    // TTFT samples 10, 30, 30 → p50 30
    expect(s.ttftMs?.p50).toBe(30);
    expect(s.tpotMs).toEqual({ p50: 10, p95: 10 });
    expect(s.e2eMs?.p50).toBe(61);
    expect(s.invalid).toBe(false);
    expect(s.outputTokens).toMatchObject({ mean: 4, min: 4, max: 4, source: 'usage', short: 0 });
  });

  it('steady state counts tokens while both slots were busy: 0 → 61 ms', () => {
    // In flight reaches 2 at t=0; the dip at 41 (A ends, C sent) is turnaround;
    // it falls below 2 for good when B ends at 61. Tokens in [0, 61]: A 4, B 4, C 0.
    const w = steadyWindow([a, b, c], 2);
    expect(w).toMatchObject({ startNs: 0, endNs: 61e6, tokens: 8 });
    expect(w?.throughputTokS).toBeCloseTo(8 / 0.061, 6);
    expect(steadyWindow([a], 2)).toBeNull();
  });

  it('a failure marks the level invalid with the reason, and its tokens are not counted', () => {
    const failed = rec({ sendMs: 0, chunksMs: [10, 20], endMs: 21, outcome: { kind: 'truncated', message: 'closed without [DONE]' } });
    const s = summarizeLevel(base([a, failed]));
    expect(s.failed).toBe(1);
    expect(s.invalid).toBe(true);
    expect(s.invalidReason).toBe('1 of 2 requests failed (1 truncated)');
    expect(s.failureExamples).toEqual(['truncated: closed without [DONE]']);
    expect(s.outputTokensTotal).toBe(4);
  });

  it('flags short outputs only when the length was forced', () => {
    const short = rec({ chunksMs: [10, 20], endMs: 21 });
    expect(summarizeLevel(base([short])).outputTokens.short).toBe(1);
    expect(summarizeLevel(base([short], { forceLength: false })).outputTokens.short).toBe(0);
  });

  it('no successful request: statistics are null, never zero', () => {
    const s = summarizeLevel(base([rec({ outcome: { kind: 'http-error', status: 500, message: 'boom' }, chunksMs: [], endMs: 1 })]));
    expect(s.ttftMs).toBeNull();
    expect(s.tpotMs).toBeNull();
    expect(s.perRequestTokS).toBeNull();
    expect(s.failures).toEqual({ 'http-error': 1 });
  });

  it('marks the level client-bound when replacement sends lag beyond the budget; the ramp is reported apart', () => {
    // a starts the level at 0; the replacement was meant to leave at 41 (a's end) but left at 66.
    const late = rec({ targetSendMs: 41, sendMs: 66, chunksMs: [90, 100], endMs: 101 });
    const rampLate = rec({ targetSendMs: 0, sendMs: 3, chunksMs: [30, 40], endMs: 41 });
    const s = summarizeLevel(base([a, rampLate, late]));
    expect(s.clientBound.bound).toBe(true);
    expect(s.clientBound.reason).toMatch(/replacement requests left 25.0 ms \(p99\) after the slot freed/);
    expect(s.clientBound.rampMs).toBe(3);
    // A slow ramp alone does not make a level client-bound.
    expect(summarizeLevel(base([a, rampLate])).clientBound.bound).toBe(false);
    const calm = summarizeLevel(base([a]));
    expect(calm.clientBound.bound).toBe(false);
    const loop = summarizeLevel(base([a], { loopDelayMs: { p50: 5, p99: 30, max: 40 } }));
    expect(loop.clientBound.reason).toMatch(/event loop was delayed 30.0 ms/);
  });

  it('sees a burst: a level whose requests were written late after their start is client-bound, the lateness named', () => {
    // 100 requests all meant to leave at 0 (a burst); our writes took until 0.5 ms each, then 30 of them 50+ ms late.
    const at = (i: number, writtenMs: number) => ({
      ...rec({ targetSendMs: 0, sendMs: 0, chunksMs: [20, 30], endMs: 31 }),
      seq: i,
      writtenNs: writtenMs * 1e6,
    });
    const burst = Array.from({ length: 100 }, (_, i) => at(i, i < 70 ? 0.5 : 50 + i / 10));
    const s = summarizeLevel(base(burst));
    expect(s.clientBound.bound).toBe(true);
    expect(s.clientBound.sendLatenessMs?.p99).toBeGreaterThan(50);
    expect(s.clientBound.reason).toMatch(/fully written 5\d\.\d ms \(p99, max 59\.9 ms\) after their slot freed or their scheduled instant/);
    // The same burst written within half a millisecond is not.
    const calm = summarizeLevel(base(Array.from({ length: 100 }, (_, i) => at(i, 0.5))));
    expect(calm.clientBound.bound).toBe(false);
    expect(calm.clientBound.sendLatenessMs).toEqual({ p50: 0.5, p99: 0.5, max: 0.5 });
    // Records of earlier versions carry no write instant: nothing to judge, nothing invented.
    expect(summarizeLevel(base([a, b])).clientBound.sendLatenessMs).toBeNull();
  });

  it("judges lateness against the level's own timings: 15 ms late is client-bound at a 40 ms TTFT, not at a 1 s TTFT", () => {
    const late = (i: number, firstMs: number, gapMs: number) => ({
      ...rec({ targetSendMs: 0, sendMs: 15, chunksMs: [firstMs, firstMs + gapMs, firstMs + 2 * gapMs], endMs: firstMs + 2 * gapMs + 1 }),
      seq: i,
      writtenNs: 15e6,
    });
    const slow = summarizeLevel(base(Array.from({ length: 20 }, (_, i) => late(i, 1000, 134))));
    expect(slow.clientBound.bound).toBe(false);
    expect(slow.clientBound.budgets).toEqual({ sendMs: 49.25, loopMs: 10 });
    const fast = summarizeLevel(base(Array.from({ length: 20 }, (_, i) => late(i, 40, 8))));
    expect(fast.clientBound.bound).toBe(true);
    expect(fast.clientBound.reason).toMatch(/fully written 15\.0 ms .*; budget for sends 10 ms \(the floor\)/);
    // A result of an earlier version (no budgets kept) recomputes by its own rule: the floor alone, its reason's words.
    const old = summarizeLevel({ ...base(Array.from({ length: 20 }, (_, i) => late(i, 1000, 134))), clientBudgetRule: 'floor' });
    expect(old.clientBound.bound).toBe(true);
    expect(old.clientBound.reason).toMatch(/fully written 15\.0 ms .*; budget 10 ms$/);
    expect(old.clientBound).not.toHaveProperty('budgets');
  });

  it('reasoning tokens come from usage when reported', () => {
    const r = rec({ chunksMs: [10, 20, 30, 40], reasoningTokens: 2, firstAnswerMs: 30 });
    const s = summarizeLevel(base([r]));
    expect(s.reasoningTokens).toEqual({ total: 2, source: 'usage' });
    expect(s.ttfaMs?.p50).toBe(30);
    expect(s.ttftMs?.p50).toBe(10);
  });
});
