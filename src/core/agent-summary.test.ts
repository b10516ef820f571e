/**
 * Session and job goodput counted by hand from a small trace's records: which
 * sessions and jobs met their objective (SLO misses, a deadline), makespans,
 * the sub-agent start lag, the critical path, and the perfect cache's hits in
 * send order against the tokens the server reported cached.
 */
import { describe, expect, it } from 'vitest';
import { rec } from '../test-support/records.js';
import type { RequestRecord } from './record.js';
import { sloSchema } from './slo.js';
import { type AgentGraph, summarizeAgents } from './agent-summary.js';

// Job a: root a (2 turns) spawns b after turn 1 (5 ms delay); job z: one turn.
type Node = AgentGraph['sessions'][number] & { h?: number[][] };
const sessions: Node[] = [
  {
    name: 'a',
    job: 0,
    parent: null,
    after: 0,
    atMs: 0,
    turns: [
      { p: 8, w: 0 },
      { p: 12, w: 5 },
    ],
  },
  { name: 'b', job: 0, parent: 0, after: 0, atMs: 5, turns: [{ p: 4, w: 0 }], h: [[7]] },
  { name: 'z', job: 2, parent: null, after: 0, atMs: 0, turns: [{ p: 4, w: 0 }], h: [[7]] },
];
const graph: AgentGraph = { blockTokens: 4, sessions };
const blocksOf = (id: number, turn: number) => {
  const s = sessions[id];
  const own = s?.h?.[turn];
  return own ? own.map((x) => `id:${x}`) : Array.from({ length: Math.ceil((s?.turns[turn]?.p ?? 0) / 4) }, (_, b) => `s${id}:${b}`);
};
const at = (id: number, turn: number, seq: number, r: RequestRecord): RequestRecord => ({ ...r, seq, session: { id, turn } });
const records = [
  at(0, 0, 0, rec({ sendMs: 0, chunksMs: [10, 20] })),
  at(2, 0, 1, rec({ sendMs: 0, chunksMs: [300] })),
  at(1, 0, 2, { ...rec({ sendMs: 27, chunksMs: [40, 50] }), promptTokens: 4, cachedPromptTokens: 0 }),
  at(0, 1, 3, { ...rec({ sendMs: 60, chunksMs: [70] }), promptTokens: 12, cachedPromptTokens: 8 }),
];
const slo = sloSchema.parse({ ttftMs: { p: 50, max: 250 } });

describe('agent summary', () => {
  it('counts sessions and jobs that met their objective, per second, with makespans', () => {
    const s = summarizeAgents({ records, graph, speed: 1, slo, durationMs: 1000, blocksOf });
    expect(s.sessions).toMatchObject({ count: 3, met: 2, metPerS: 2 });
    expect(s.jobs).toMatchObject({ count: 2, met: 1, metPerS: 1, deadlineMs: null });
    expect(s.jobList.map((j) => [j.job, j.sessions, j.met, j.makespanMs])).toEqual([
      ['a', 2, true, 71],
      ['z', 1, false, 301],
    ]);
    expect(s.sessions.timeMs?.p50).toBe(71); // 24, 71, 301 ms
  });

  it('holds jobs to the deadline', () => {
    const s = summarizeAgents({ records, graph, speed: 1, slo: sloSchema.parse({ jobDeadlineMs: 50 }), durationMs: 1000, blocksOf });
    expect(s.sessions.met).toBe(3);
    expect(s.jobs).toMatchObject({ met: 0, deadlineMs: 50 });
  });

  it('with toolCallValid, a turn whose tool call did not parse misses its session and its job', () => {
    const unparsed = records.map((r) =>
      r.seq === 2
        ? {
            ...r,
            toolCalls: {
              required: true,
              calls: 1,
              names: ['f'],
              firstNs: null,
              argumentsDoneNs: null,
              argumentTokens: 3,
              verdict: 'unparsed' as const,
              problem: 'cut JSON',
            },
          }
        : r,
    );
    const s = summarizeAgents({ records: unparsed, graph, speed: 1, slo: sloSchema.parse({ toolCallValid: true }), durationMs: 1000, blocksOf });
    expect(s.sessions.met).toBe(2);
    expect(s.jobList.map((j) => j.met)).toEqual([false, true]);
  });

  it('a job with a turn not sent or failed has no makespan and misses', () => {
    const s = summarizeAgents({ records: records.filter((r) => r.seq !== 2), graph, speed: 1, slo: null, durationMs: 1000, blocksOf });
    expect(s.jobList[0]).toMatchObject({ met: false, makespanMs: null, criticalPath: [] });
    expect(s.sessions.met).toBe(2);
  });

  it("measures each sub-agent's start against its parent turn's end plus the delay, at the level's speed", () => {
    expect(summarizeAgents({ records, graph, speed: 1, slo: null, durationMs: 1000, blocksOf }).childStartLagMs).toEqual({ p50: 1, p99: 1, max: 1 });
    expect(summarizeAgents({ records, graph, speed: 5, slo: null, durationMs: 1000, blocksOf }).childStartLagMs?.max).toBe(5);
  });

  it("walks the critical path back through the child that held the parent's next turn", () => {
    const s = summarizeAgents({ records, graph, speed: 1, slo: null, durationMs: 1000, blocksOf });
    expect(s.jobList[0]?.criticalPath).toEqual([
      { session: 'a', fromTurn: 1, toTurn: 1 },
      { session: 'b', fromTurn: 1, toTurn: 1 },
      { session: 'a', fromTurn: 2, toTurn: 2 },
    ]);
    // A child that ended before the parent's tool wait was over is not on the path.
    const quick = records.map((r) => (r.seq === 2 ? at(1, 0, 2, rec({ sendMs: 21, chunksMs: [22], endMs: 23 })) : r));
    expect(summarizeAgents({ records: quick, graph, speed: 1, slo: null, durationMs: 1000, blocksOf }).jobList[0]?.criticalPath).toEqual([
      { session: 'a', fromTurn: 1, toTurn: 2 },
    ]);
  });

  it('gives a perfect cache the leading blocks sent before, in send order, beside what the server reported', () => {
    const { cache } = summarizeAgents({ records, graph, speed: 1, slo: null, durationMs: 1000, blocksOf });
    // a1 hits a0's two blocks (8), b hits z's block 7 (4): 12 of 28 prompt tokens.
    expect(cache).toEqual({ promptTokens: 28, theoreticalHitTokens: 12, theoreticalHitRate: 12 / 28, reportedRequests: 2, actualHitRate: 0.5 });
  });
});
