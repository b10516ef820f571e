/**
 * An agent trace started through the API, in-process against the simulator: the
 * start body's agentTrace (a file's name and text, as the page sends it) is
 * replayed as `goodput replay` replays the file (the levels its speeds, every
 * session's turns sent, the job and session summary on each level, the trace
 * named by its file and sha256); a trace that cannot run is a 400 naming the
 * field and the line, and nothing is stored.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../core/index.js';
import { type ApiHarness, apiHarness, readEvents } from '../test-support/api-harness.js';
import { AGENT_TRACE_LINES, jsonl } from '../test-support/trace-fixtures.js';

let h: ApiHarness;
let simId: number;

const TEXT = jsonl(AGENT_TRACE_LINES);

beforeAll(async () => {
  h = await apiHarness();
  simId = (await h.call('POST', '/api/servers', { name: 'sim', baseUrl: h.sim.url })).json.id;
});
afterAll(async () => {
  await h.close();
});

describe('an agent trace in the start body', () => {
  it('is replayed at the levels as speeds: every turn sent, jobs and sessions summed per level, the trace named', async () => {
    const started = await h.call('POST', '/api/runs', { serverId: simId, levels: [1, 2], agentTrace: { name: 'agents.jsonl', text: TEXT } });
    expect(started.status, JSON.stringify(started.json)).toBe(201);
    const runId = started.json.runId;
    const res = await h.app.request(`/api/runs/${runId}/events`, { headers: { host: '127.0.0.1:7878' } });
    const ev = await readEvents(res);
    expect(ev.at(-1)).toMatchObject({ kind: 'end', status: 'complete' });

    const result = (await h.call('GET', `/api/runs/${runId}/result`)).json;
    expect(result.run.arrival).toMatchObject({
      kind: 'trace',
      offsetsMs: [0, 50],
      source: { file: 'agents.jsonl', format: 'goodput-agents', sha256: createHash('sha256').update(TEXT).digest('hex') },
    });
    expect(result.run.command).toMatch(
      /^goodput serve: Start on "sim", replay of agent trace goodput-agents: 2 jobs, 1 sub-agent, 5 turns; sha256 [0-9a-f]{12}…, speeds 1,2/,
    );
    expect(result.levels.map((l: { load: { level: number } }) => l.load.level)).toEqual([1, 2]);
    for (const l of result.levels) {
      expect([l.requests, l.failed]).toEqual([5, 0]);
      expect(l.agents).toMatchObject({ sessions: { count: 3, met: 3 }, jobs: { count: 2, met: 2 } });
    }
  });

  it('a trace that cannot run is a 400 naming agentTrace and the line; nothing is stored', async () => {
    const before = (await h.call('GET', '/api/runs')).json.length;
    const bad = [
      [
        TEXT + '{"agent": "c", "t": 1, "turns": [{"in": 0, "out": 2}]}\n',
        'agentTrace: agent trace agents.jsonl: line 5: agent c turn 1: in 0 is not a whole number of at least 1',
      ],
      [TEXT + 'not json\n', 'agentTrace: agent trace agents.jsonl: line 5: '],
      [TEXT + '{"agent": "d", "parent": "zz", "after": 1, "turns": [{"in": 8, "out": 2}]}\n', "agent d's parent zz is not in the trace"],
      ['{"timestamp": 0, "input_length": 8, "output_length": 2}\n', 'an agent trace starts with {"goodput": "agents"} or is AgentX objects'],
    ] as const;
    for (const [text, message] of bad) {
      const r = await h.call('POST', '/api/runs', { serverId: simId, levels: [1], agentTrace: { name: 'agents.jsonl', text } });
      expect(r.status).toBe(400);
      expect(r.json.error).toMatchObject({ code: 'bad-request', field: 'agentTrace' });
      expect(r.json.error.message).toContain(message);
    }
    const fast = await h.call('POST', '/api/runs', { serverId: simId, levels: [1, 2000], agentTrace: { name: 'agents.jsonl', text: TEXT } });
    expect(fast.status).toBe(400);
    expect(fast.json.error.message).toContain('2000 is not a speed above 0 and at most 1000 (1 = as recorded)');
    const big = 'x'.repeat(LIMITS.agentTraceTextBytes.max + 1);
    const tooBig = await h.call('POST', '/api/runs', { serverId: simId, levels: [1], agentTrace: { name: 'big.jsonl', text: big } });
    expect(tooBig.status).toBe(400);
    expect(tooBig.json.error.field).toBe('agentTrace.text');
    expect(tooBig.json.error.message).toContain(`agentTrace.text holds ${big.length} bytes, above the limit of ${LIMITS.agentTraceTextBytes.max}`);
    const noName = await h.call('POST', '/api/runs', { serverId: simId, levels: [1], agentTrace: { text: TEXT } });
    expect(noName.status).toBe(400);
    expect(noName.json.error.field).toBe('agentTrace.name');
    expect((await h.call('GET', '/api/runs')).json).toHaveLength(before);
  });
});
