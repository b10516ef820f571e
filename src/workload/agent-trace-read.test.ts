/**
 * Agent traces as they come: the goodput agents form and AgentX objects read and
 * linked into sessions, jobs and spawns; and every kind of bad graph refused in
 * one line naming the file and line (a child that never joins, a cycle, a
 * missing parent, a turn past the declared context, a nameless or unknown key).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentBlockKeys, agentChildren, agentPrompt } from './agent-source.js';
import { agentTraceFormat, parseAgentTrace, readAgentTrace } from './agent-trace-read.js';
import { synthAgentTrace } from './agent-synth.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-agents-'));
let n = 0;
const file = (lines: object[]) => {
  const p = join(dir, `a${n++}.jsonl`);
  writeFileSync(p, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return p;
};
const HEADER = { goodput: 'agents', block_tokens: 4 };
const turn = (p: number, extra: object = {}) => ({ in: p, out: 2, ...extra });

describe('reading agent traces', () => {
  it('reads the goodput form: roots at their times, sub-agents after a parent turn, waits and delays in ms', async () => {
    const p = file([
      HEADER,
      { agent: 'b', parent: 'a', after: 1, delay: 0.25, turns: [turn(6)] },
      { agent: 'a', t: 10, turns: [turn(8), turn(12, { wait: 0.5 })] },
      { agent: 'z', t: 11.5, turns: [turn(5, { hash_ids: [7, 8] })] },
    ]);
    expect(await agentTraceFormat(p)).toBe('goodput-agents');
    const t = await readAgentTrace(p);
    expect(t.format).toBe('goodput-agents');
    const s = t.source.sessions;
    expect(s.map((x) => [x.name, x.line, x.job, x.parent, x.after, x.atMs])).toEqual([
      ['b', 2, 1, 1, 0, 250],
      ['a', 3, 1, null, 0, 0],
      ['z', 4, 2, null, 0, 1500],
    ]);
    expect(s[1]?.turns).toEqual([
      { p: 8, o: 2, w: 0 },
      { p: 12, o: 2, w: 500 },
    ]);
    expect(agentChildren(t.source)[1]).toEqual([[0], []]);
    // A session's later turn resends its earlier blocks (its history); trace ids are shared across sessions.
    expect(agentBlockKeys(t.source, 1, 1).slice(0, 2)).toEqual(agentBlockKeys(t.source, 1, 0));
    expect(agentBlockKeys(t.source, 2, 0)).toEqual(['id:7', 'id:8']);
    const first = agentPrompt(t.source, 1, 0, 'R').split(' ');
    const second = agentPrompt(t.source, 1, 1, 'R').split(' ');
    expect(first).toHaveLength(8);
    expect(second.slice(0, 8)).toEqual(first);
  });

  it('reads AgentX objects: each line a job, sub-agent markers spawned after the turn before them, ids kept apart per trace', async () => {
    const trace = (id: string) => ({
      id,
      models: ['m'],
      block_size: 4,
      hash_id_scope: 'local',
      requests: [
        { t: 1, type: 's', model: 'm', in: 8, out: 3, hash_ids: [1, 2] },
        {
          t: 2,
          type: 'subagent',
          agent_id: 'x',
          subagent_type: 'Explore',
          status: 'completed',
          models: ['m'],
          requests: [{ t: 2.1, type: 'n', model: 'm', in: 4, out: 2, hash_ids: [9], think_time: 0.1 }],
        },
        { t: 3, type: 'n', model: 'm', in: 12, out: 3, hash_ids: [1, 2, 3], think_time: 0.4 },
      ],
    });
    const t = await readAgentTrace(file([trace('one'), trace('two')]));
    expect(t.format).toBe('agentx');
    const s = t.source.sessions;
    expect(s.map((x) => [x.name, x.parent, x.after, x.atMs])).toEqual([
      ['one', null, 0, 0],
      ['one::sa:x', 0, 0, 100],
      ['two', null, 0, 0],
      ['two::sa:x', 2, 0, 100],
    ]);
    expect(s[0]?.turns[1]).toEqual({ p: 12, o: 3, h: [0, 1, 3], w: 400 });
    // Id 1 of trace "two" is not id 1 of trace "one".
    expect(s[2]?.turns[0]?.h).not.toEqual(s[0]?.turns[0]?.h);
  });

  const refusals: Array<[string, object[], RegExp]> = [
    [
      'a child that never joins',
      [HEADER, { agent: 'a', t: 0, turns: [turn(4), turn(8)] }, { agent: 'b', parent: 'a', after: 2, turns: [turn(4)] }],
      /line 3: agent b never joins: it is spawned after a's last turn/,
    ],
    [
      'a cycle in the agent graph',
      [
        HEADER,
        { agent: 'r', t: 0, turns: [turn(4)] },
        { agent: 'a', parent: 'b', after: 1, turns: [turn(4), turn(5)] },
        { agent: 'b', parent: 'a', after: 1, turns: [turn(4), turn(5)] },
      ],
      /line 3: the agents a → b → a form a cycle/,
    ],
    ['an agent its own parent', [HEADER, { agent: 'a', parent: 'a', after: 1, turns: [turn(4), turn(5)] }], /line 2: the agents a → a form a cycle/],
    [
      'a parent not in the trace',
      [HEADER, { agent: 'b', parent: 'nobody', after: 1, turns: [turn(4)] }],
      /line 2: agent b's parent nobody is not in the trace/,
    ],
    [
      'a spawn after a turn the parent does not have',
      [HEADER, { agent: 'a', t: 0, turns: [turn(4), turn(5)] }, { agent: 'b', parent: 'a', after: 5, turns: [turn(4)] }],
      /line 3: agent b is spawned after turn 5 of a, which has 2 turns/,
    ],
    [
      'a turn longer than the declared context',
      [
        { ...HEADER, context: 100 },
        { agent: 'a', t: 0, turns: [turn(50), turn(99)] },
      ],
      /line 2: agent a turn 2 needs 99 prompt plus 2 output tokens \(101\), longer than the trace's declared context of 100 tokens/,
    ],
    ['a turn past the prompt limit', [HEADER, { agent: 'a', t: 0, turns: [turn(300_000)] }], /line 2: agent a turn 1: in 300000 is above the limit/],
    [
      'an agent named twice',
      [HEADER, { agent: 'a', t: 0, turns: [turn(4)] }, { agent: 'a', t: 1, turns: [turn(4)] }],
      /line 3: agent a is named twice \(first at line 2\)/,
    ],
    ['an unknown key', [HEADER, { agent: 'a', t: 0, turns: [turn(4)], model: 'x' }], /line 2: unknown key "model"/],
    ['a negative wait', [HEADER, { agent: 'a', t: 0, turns: [turn(4), turn(5, { wait: -1 })] }], /line 2: agent a turn 2: wait -1 is not a number of seconds/],
    ['a root without a start', [HEADER, { agent: 'a', turns: [turn(4)] }], /line 2: agent a has neither "t"/],
    [
      'a sub-agent before the first AgentX turn',
      [{ id: 'x', block_size: 4, requests: [{ type: 'subagent', agent_id: 's', requests: [] }] }],
      /line 1: requests\[0\]: sub-agent s is spawned before the trace's first turn/,
    ],
    [
      "more hash ids than a turn's prompt fills blocks",
      [HEADER, { agent: 'a', t: 0, turns: [turn(8, { hash_ids: [1, 2] }), turn(9, { hash_ids: [1, 2, 3, 4] })] }],
      /line 2: agent a turn 2: hash_ids holds 4 ids, more than the 3 blocks of 4 tokens its 9 prompt tokens fill/,
    ],
    [
      "more AgentX hash ids than a request's prompt fills blocks",
      [{ id: 'x', block_size: 4, requests: [{ t: 0, type: 'n', in: 4, out: 1, hash_ids: Array.from({ length: 5000 }, (_, i) => i) }] }],
      /line 1: agent x turn 1: hash_ids holds 5000 ids, more than the 1 block of 4 tokens its 4 prompt tokens fill/,
    ],
    [
      'an AgentX sub-agent after the last turn',
      [
        {
          id: 'x',
          block_size: 4,
          requests: [
            { t: 0, type: 'n', in: 4, out: 1 },
            { type: 'subagent', agent_id: 's', requests: [{ t: 0, type: 'n', in: 4, out: 1 }] },
          ],
        },
      ],
      /line 1: agent x::sa:s never joins/,
    ],
  ];
  for (const [what, lines, message] of refusals) {
    it(`refuses ${what} in one line naming the file and line`, async () => {
      const p = file(lines);
      const err = await readAgentTrace(p).catch((e: Error) => e);
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toMatch(message);
      expect((err as Error).message.startsWith(`agent trace ${p}: line `)).toBe(true);
      expect((err as Error).message).not.toContain('\n');
    });
  }

  it('refuses a trace with more turns than a level sends, at the line that passes the limit', async () => {
    const many = Array.from({ length: 21 }, (_, i) => ({ agent: `a${i}`, t: 0, turns: Array.from({ length: 1000 }, () => turn(4)) }));
    await expect(readAgentTrace(file([HEADER, ...many]))).rejects.toThrow(/line 22: turns 21000 is above the limit of 20000/);
  });

  it('refuses a trace whose contexts come to more blocks than the limit, naming the line', async () => {
    const big = Array.from({ length: 70 }, (_, i) => ({ agent: `a${i}`, t: 0, turns: Array.from({ length: 4 }, () => turn(240_000)) }));
    await expect(readAgentTrace(file([{ goodput: 'agents', block_tokens: 1 }, ...big]))).rejects.toThrow(
      /line 19: blocks up to this agent 17280000 is above the limit of 16777216 blocks/,
    );
  });

  it('is not an agent trace when the first line is a request trace', async () => {
    expect(await agentTraceFormat(file([{ timestamp: 0, input_length: 4, output_length: 1 }]))).toBeNull();
  });
});

describe('synthetic agent traces', () => {
  const o = {
    agents: 20,
    fanOut: [1, 4] as const,
    turns: [2, 4] as const,
    toolWaitS: [0.2, 2] as const,
    delayS: [0, 0.05] as const,
    rootGapS: [0, 1] as const,
    systemTokens: 64,
    firstTokens: [16, 64] as const,
    growTokens: [8, 32] as const,
    outTokens: [4, 8] as const,
    blockTokens: 16,
    seed: 3,
  };

  it('is seeded, reads back as a valid graph, and keeps to its ranges', async () => {
    const lines = synthAgentTrace(o);
    expect(synthAgentTrace(o)).toEqual(lines);
    expect(synthAgentTrace({ ...o, seed: 4 })).not.toEqual(lines);
    const p = join(dir, 'synth.jsonl');
    writeFileSync(p, lines.join('\n') + '\n');
    const { source } = await readAgentTrace(p);
    const roots = source.sessions.filter((s) => s.parent === null);
    expect(roots).toHaveLength(20);
    const kids = roots.map((_, i) => source.sessions.filter((s) => s.job === source.sessions.indexOf(roots[i] as never) && s.parent !== null).length);
    expect(Math.min(...kids)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...kids)).toBeLessThanOrEqual(4);
    const waits = source.sessions.flatMap((s) => s.turns.slice(1).map((t) => t.w));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(200);
    expect(Math.max(...waits)).toBeLessThanOrEqual(2000);
    // Every turn opens with the shared system blocks and resends its session's previous context.
    for (const s of source.sessions) {
      s.turns.forEach((t, k) => {
        expect(t.h?.slice(0, 4)).toEqual([0, 1, 2, 3]);
        if (k > 0) expect(t.h?.slice(0, s.turns[k - 1]?.h?.length)).toEqual(s.turns[k - 1]?.h);
      });
    }
  });

  it('refuses what a replay could not send', () => {
    expect(() => synthAgentTrace({ ...o, agents: 20_000, turns: [4, 4] })).toThrow(/above the limit of 20000/);
  });
});

describe('an agent trace given as text (picked in the page)', () => {
  it('is read as its file is: the same sessions, the same sha256, the file named by the name it was given', async () => {
    const lines = [HEADER, { agent: 'a', t: 0, turns: [turn(8), turn(12)] }, { agent: 'b', parent: 'a', after: 1, turns: [turn(6)] }];
    const p = file(lines);
    const text = lines.map((l) => JSON.stringify(l)).join('\r\n') + '\r\n';
    writeFileSync(p, text);
    const fromFile = await readAgentTrace(p);
    const fromText = parseAgentTrace('mine.jsonl', text);
    expect(fromText.source).toEqual(fromFile.source);
    expect(fromText.sha256).toBe(fromFile.sha256);
    expect(fromText.path).toBe('mine.jsonl');
  });

  it('is refused naming its name and the bad line, as a file is', async () => {
    const text =
      [HEADER, { agent: 'a', t: 0, turns: [turn(8)] }].map((l) => JSON.stringify(l)).join('\n') + '\n{"agent": "b", "t": 1, "turns": [{"in": 0, "out": 2}]}\n';
    expect(() => parseAgentTrace('mine.jsonl', text)).toThrow('agent trace mine.jsonl: line 3: agent b turn 1: in 0 is not a whole number of at least 1');
    expect(() => parseAgentTrace('long.jsonl', `${JSON.stringify(HEADER)}\n${'x'.repeat(1024 * 1024 + 1)}\n`)).toThrow(
      'trace long.jsonl: line 2 is longer than 1 MiB',
    );
  });
});
