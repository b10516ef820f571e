/**
 * The Start form's agent trace field, checked in the page before anything is
 * sent: no file is a synthetic sweep, a file past the start body's bound or
 * with a line that is no JSON object is refused naming the file and the line,
 * and the bound is core's limits row.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../core/index.js';
import { FORM_MAX_AGENT_TRACE_BYTES, checkAgentTrace, checkField } from './form-rules.js';

const rule = { check: 'agent-trace', name: 'Agent trace', max: Number.MAX_SAFE_INTEGER, example: 0, positive: false } as const;
const TEXT = '{"goodput": "agents"}\n{"agent": "a", "t": 0, "turns": [{"in": 8, "out": 2}]}\n';

describe('the agent trace field', () => {
  it('is no trace when no file is picked, and the picked file as it is when its lines are JSON objects', () => {
    expect(checkField(rule, '')).toEqual({ ok: true, value: null });
    expect(checkField(rule, { name: 'a.jsonl', text: TEXT })).toEqual({ ok: true, value: { name: 'a.jsonl', text: TEXT } });
  });

  it('refuses a line that is no JSON object, an empty file and a file past the bound, naming the file and the line', () => {
    expect(checkAgentTrace({ name: 'a.jsonl', text: `${TEXT}\n[1, 2]\n` })).toEqual({
      ok: false,
      message: 'a.jsonl: line 4 is not a JSON object (an agent trace has one per line).',
    });
    expect(checkAgentTrace({ name: 'a.jsonl', text: '{"goodput": "agents"}\n{"agent": \n' })).toMatchObject({
      ok: false,
      message: expect.stringContaining('line 2 '),
    });
    expect(checkAgentTrace({ name: 'e.jsonl', text: '\n\n' })).toMatchObject({ ok: false, message: expect.stringContaining('e.jsonl is empty') });
    expect(checkAgentTrace({ name: 'big.jsonl', text: 'é'.repeat(FORM_MAX_AGENT_TRACE_BYTES / 2 + 1) })).toEqual({
      ok: false,
      message: 'big.jsonl is larger than 384 KiB, the most the page sends: replay it with goodput replay TRACE --save.',
    });
  });

  it("is bounded by core's limits row", () => {
    expect(FORM_MAX_AGENT_TRACE_BYTES).toBe(LIMITS.agentTraceTextBytes.max);
  });
});
