import { describe, expect, it } from 'vitest';
import { CLIENT_BUDGET_SHARE, DEFAULT_CLIENT_BUDGET_MS, clientBudgets, judgeClientBound } from './client-bound.js';

const spread = (p99: number) => ({ p50: p99 / 2, p99, max: p99 + 1 });
const judge = (over: Partial<Parameters<typeof judgeClientBound>[0]>) =>
  judgeClientBound({ sendLagMs: null, loopDelayMs: null, budgetMs: DEFAULT_CLIENT_BUDGET_MS, clientCpuPct: null, ...over });

describe('judgeClientBound: each lateness against what it distorts', () => {
  it('15 ms of send lateness against a 1 s TTFT is no bottleneck; against a 40 ms TTFT it is', () => {
    const slow = judge({ sendLatenessMs: spread(15), timings: { ttftP50Ms: 1000, tpotP50Ms: 134 } });
    expect(slow.bound).toBe(false);
    expect(slow.budgets).toEqual({ sendMs: 50, loopMs: DEFAULT_CLIENT_BUDGET_MS });
    const fast = judge({ sendLatenessMs: spread(15), timings: { ttftP50Ms: 40, tpotP50Ms: 8 } });
    expect(fast.bound).toBe(true);
    expect(fast.budgets).toEqual({ sendMs: 10, loopMs: 10 });
    expect(fast.reason).toMatch(/^requests were fully written 15\.0 ms \(p99.*; budget for sends 10 ms \(the floor\), for the event loop 10 ms \(the floor\)$/);
  });

  it('replacement lag is judged like send lateness, on TTFT', () => {
    expect(judge({ sendLagMs: spread(45), timings: { ttftP50Ms: 1000, tpotP50Ms: 134 } }).bound).toBe(false);
    const bound = judge({ sendLagMs: spread(55), timings: { ttftP50Ms: 1000, tpotP50Ms: 134 } });
    expect(bound.bound).toBe(true);
    expect(bound.reason).toContain('budget for sends 50.0 ms (5 % of TTFT p50 1000.0 ms)');
  });

  it('the event loop is judged on the finest interval it distorts (TPOT), so a slow TTFT does not excuse it', () => {
    const cb = judge({ loopDelayMs: spread(15), timings: { ttftP50Ms: 1000, tpotP50Ms: 134 } });
    expect(cb.bound).toBe(true);
    expect(cb.reason).toMatch(/event loop was delayed 15\.0 ms.*for the event loop 10 ms \(the floor\)$/);
    const slowTokens = judge({ loopDelayMs: spread(15), timings: { ttftP50Ms: 2000, tpotP50Ms: 400 } });
    expect(slowTokens.bound).toBe(false);
    expect(slowTokens.budgets?.loopMs).toBe(400 * CLIENT_BUDGET_SHARE);
  });

  it('never goes below the floor, and without timings judges at the floor', () => {
    expect(clientBudgets(10, { ttftP50Ms: 1, tpotP50Ms: 1 })).toEqual({ sendMs: 10, loopMs: 10 });
    expect(clientBudgets(10, null)).toEqual({ sendMs: 10, loopMs: 10 });
    expect(judge({ sendLatenessMs: spread(11) }).bound).toBe(true);
    expect(judge({ sendLatenessMs: spread(9) }).bound).toBe(false);
  });

  it('a non-streaming answer: its latency scales both budgets', () => {
    expect(clientBudgets(10, { ttftP50Ms: 600, tpotP50Ms: null })).toEqual({ sendMs: 30, loopMs: 30 });
  });

  it('keeps the busy-CPU rule whatever the timings', () => {
    const cb = judge({ clientCpuPct: 85, timings: { ttftP50Ms: 5000, tpotP50Ms: 500 } });
    expect(cb.bound).toBe(true);
    expect(cb.reason).toContain('busy 85 % of one core (limit 70 %)');
  });
});
