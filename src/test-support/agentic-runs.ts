/**
 * Hand-made runs of the agentic kinds for view tests: a sweep sent with tools
 * (each level's tool-call verdicts and the time to first tool-call token) and
 * an agent-trace replay at speeds 1 and 2 (sessions and jobs met, the job
 * makespan). The text figures are receipt-fixture's literals, the agentic
 * ones chosen so each chart's summary can be written by hand.
 */
import type { AgentSummary, LevelResult, SweepResult, ToolCallSummary } from '../core/index.js';
import { contract, level, resultOf } from './receipt-fixture.js';

/** `valid` of 20 judged tool calls valid, the rest invalid; first tool-call token at `ttft` ms p50 (p95 half again). */
export function toolCalls(valid: number, ttft: number): ToolCallSummary {
  return {
    requests: 20,
    valid,
    invalid: 20 - valid,
    unparsed: 0,
    missing: 0,
    none: 0,
    parseRate: 1,
    validRate: valid / 20,
    ttftToolMs: { p50: ttft, p95: ttft * 1.5, p99: ttft * 2 },
    argumentsMs: { p50: 30, p95: 44 },
    argumentTokensMean: 40,
  };
}

/** A chat sweep at concurrency 1 and 4 with 8 tools offered: 18 then 15 of 20 calls valid, first tool-call token at 40 then 90 ms. */
export function toolCallRun(): SweepResult {
  const r = resultOf(contract(), [
    { ...level({ c: 1, tokS: 100, perReq: 100, ttft: [40, 60], tpot: 10, e2e: 670 }), toolCalls: toolCalls(18, 40) },
    { ...level({ c: 4, tokS: 300, perReq: 75, ttft: [90, 140], tpot: 12, e2e: 900 }), toolCalls: toolCalls(15, 90) },
  ]);
  return { ...r, run: { ...r.run, forceLength: false, tools: { label: 'built-in 8', count: 8, choice: 'auto', sha256: 'a'.repeat(64) } } };
}

function agents(speed: number): AgentSummary {
  return {
    sessions: { count: 12, met: 12 - speed, metPerS: 1.5 * speed, timeMs: { p50: 800 * speed, p95: 1900 * speed } },
    jobs: { count: 3, met: 3, metPerS: 0.375 * speed, makespanMs: { p50: 2000 * speed, p95: 3000 * speed }, deadlineMs: null },
    childStartLagMs: { p50: 5, p99: 12, max: 14 },
    cache: { promptTokens: 1000, theoreticalHitTokens: 750, theoreticalHitRate: 0.75, reportedRequests: 0, actualHitRate: null },
    jobList: [1, 2, 3].map((j) => ({ job: `agent${j}`, sessions: 4, met: true, makespanMs: 2000 * speed, criticalPath: [] })),
  };
}

/** An agent trace replayed at speeds 1 and 2: sessions met at 1.5 then 3 per second, makespan p50 2,000 then 4,000 ms. */
export function agentRun(): SweepResult {
  const at = (speed: number, l: LevelResult): LevelResult => ({
    ...l,
    agents: agents(speed),
    load: {
      kind: 'trace',
      level: speed,
      label: `trace agents.jsonl at ${speed}×`,
      offeredRps: null,
      achievedRps: null,
      peakInFlight: 3 * speed,
      waitedForSlot: 0,
      scheduleLagMs: null,
    },
  });
  const r = resultOf(contract(), [
    at(1, level({ c: 3, tokS: 120, perReq: 60, ttft: [45, 70], tpot: 10, e2e: 700 })),
    at(2, level({ c: 6, tokS: 210, perReq: 52, ttft: [60, 95], tpot: 11, e2e: 820 })),
  ]);
  return { ...r, run: { ...r.run, forceLength: false } };
}
