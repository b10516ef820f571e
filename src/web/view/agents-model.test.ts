/** The page's agent tables: one row per agent-trace level, and each level's first jobs with their critical paths. */
import { describe, expect, it } from 'vitest';
import type { AgentSummary, LevelResult } from '../../core/index.js';
import { AGENT_JOBS_SHOWN, AGENT_LEVEL_HEADERS, agentJobRows, agentLevelRows } from './agents-model.js';

const agents = (jobs: number): AgentSummary => ({
  sessions: { count: 12, met: 9, metPerS: 1.5, timeMs: { p50: 800, p95: 1900 } },
  jobs: { count: jobs, met: jobs - 1, metPerS: 0.25, makespanMs: { p50: 2000, p95: 4100 }, deadlineMs: null },
  childStartLagMs: { p50: 0.4, p99: 2.5, max: 3.125 },
  cache: { promptTokens: 1000, theoreticalHitTokens: 750, theoreticalHitRate: 0.75, reportedRequests: 30, actualHitRate: null },
  jobList: Array.from({ length: jobs }, (_, j) => ({
    job: `agent${j + 1}`,
    sessions: 2,
    met: j > 0,
    makespanMs: j === 1 ? null : 2000,
    criticalPath:
      j === 1
        ? []
        : [
            { session: `agent${j + 1}`, fromTurn: 1, toTurn: 1 },
            { session: 'sub', fromTurn: 1, toTurn: 3 },
          ],
  })),
});
const level = (a?: AgentSummary) => ({ concurrency: 2, load: { label: 'trace a.jsonl at 2×' }, ...(a ? { agents: a } : {}) }) as unknown as LevelResult;

describe('agent tables', () => {
  it('has one row per agent-trace level with goodput, times, start lag and both cache figures', () => {
    const rows = agentLevelRows([level(), level(agents(3))]);
    expect(rows).toEqual([['trace a.jsonl at 2×', '9 of 12', '1.50', '2 of 3', '0.25', '800 / 1,900', '2,000 / 4,100', '3.13', '75.0 %', '—']]);
    expect(rows[0]).toHaveLength(AGENT_LEVEL_HEADERS.length);
  });

  it("lists a level's first jobs with met, makespan and critical path, and counts the rest", () => {
    const { rows, more } = agentJobRows(level(agents(AGENT_JOBS_SHOWN + 3)));
    expect(rows).toHaveLength(AGENT_JOBS_SHOWN);
    expect(more).toBe(3);
    expect(rows[0]).toEqual(['agent1', '2', 'missed', '2,000', 'agent1[1] → sub[1–3]']);
    expect(rows[1]).toEqual(['agent2', '2', 'met', '—', '—']);
  });
});
