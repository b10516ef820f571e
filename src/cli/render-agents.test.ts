/**
 * The agent lines under the table: figures per level, names from the trace
 * cleaned of terminal escapes and cut, long critical paths elided in the
 * middle, and only the first jobs listed (the rest are in the JSON).
 */
import { describe, expect, it } from 'vitest';
import type { AgentSummary, SweepResult } from '../core/index.js';
import { agentLines } from './render-agents.js';

const EVIL = '\u001b]52;c;ZXZpbA==\u0007\u001b[2J\u009b31m';
const summary = (jobs: number, spans: number): AgentSummary => ({
  sessions: { count: 12, met: 9, metPerS: 1.5, timeMs: { p50: 800, p95: 1900 } },
  jobs: { count: jobs, met: jobs - 1, metPerS: 0.5, makespanMs: { p50: 2000, p95: 4100 }, deadlineMs: 5000 },
  childStartLagMs: { p50: 0.4, p99: 2.5, max: 3.1 },
  cache: { promptTokens: 1000, theoreticalHitTokens: 750, theoreticalHitRate: 0.75, reportedRequests: 30, actualHitRate: 0.6 },
  jobList: Array.from({ length: jobs }, (_, j) => ({
    job: `${'x'.repeat(60)}${EVIL}${j}`,
    sessions: 3,
    met: j > 0,
    makespanMs: j === 1 ? null : 2000 + j,
    criticalPath: Array.from({ length: spans }, (_, k) => ({ session: `s${k}${EVIL}`, fromTurn: 1, toTurn: k + 1 })),
  })),
});
const result = (a: AgentSummary) => ({ levels: [{ concurrency: 1, load: { label: `trace t.jsonl at 1×${EVIL}` }, agents: a }] }) as unknown as SweepResult;

describe('agent lines', () => {
  it('prints goodput per session and job, times, the start lag and both cache figures', () => {
    const text = agentLines(result(summary(2, 3))).join('\n');
    expect(text).toContain('within 5000 ms');
    expect(text).toContain('sessions met 9 of 12 (1.50/s) · jobs met 1 of 2 (0.50/s)');
    expect(text).toContain('session time p50/p95 800/1900 ms · job makespan p50/p95 2000/4100 ms · sub-agent start lag p50 0.40, p99 2.50, max 3.10 ms');
    expect(text).toContain('prefix cache: theoretical 75.0 % of 1000 prompt tokens · server reported 60.0 % (30 requests reporting)');
    expect(text).toMatch(/job x+…: missed · makespan 2000 ms · critical path s0.*\[1\] → s1.*\[1-2\] → s2.*\[1-3\]/);
    expect(text).toContain('makespan n/a (a turn failed or was not sent)');
  });

  it('lets no escape from a trace reach the terminal, cuts long names and paths, lists the first five jobs', () => {
    const lines = agentLines(result(summary(9, 20)));
    const text = lines.join('\n');
    for (const c of ['\u001b', '\u0007', '\u009b']) expect(text).not.toContain(c);
    expect(text).toContain('… 14 more …');
    expect(lines.filter((l) => l.startsWith('    job '))).toHaveLength(5);
    expect(text).toContain('… 4 more jobs in the JSON result (levels[].agents.jobList)');
    for (const l of lines) expect(l.length).toBeLessThan(400);
  });

  it('prints nothing for a run without agent traces', () => {
    expect(agentLines({ levels: [{ concurrency: 1 }] } as unknown as SweepResult)).toEqual([]);
  });
});
