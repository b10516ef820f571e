// Tool calls against the simulator over loopback: 64 built-in tools, tool_choice required, 10 % invalid
// arguments configured → the measured validity rate; the time to first tool-call token against the
// simulator's own request log (same clock base in one process, wide allowance: no wall-clock threshold).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summarizeToolCalls, type RequestRecord, type ToolsSpec } from '../core/index.js';
import { builtinTools, checkToolsSpec } from '../workload/index.js';
import { useSimulators } from '../test-support/simulators.js';
import { createStreamingClient } from './streaming-client.js';
import { toolCallsOf } from './stream-handler.js';
import type { RequestSpec } from './types.js';

const sim = useSimulators({ prefillBaseMs: 2, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0 });
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'goodput-tools-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const tools = (choice: ToolsSpec['choice']): ToolsSpec => checkToolsSpec({ label: 'built-in 64', tools: builtinTools(64), choice }, 'test');
const spec = (t: ToolsSpec, maxTokens = 512): RequestSpec => ({
  endpoint: 'chat',
  model: 'goodput-sim-1',
  prompt: 'call a tool',
  maxTokens,
  forceLength: false,
  thinking: false,
  tools: t,
});

async function sendAll(url: string, s: RequestSpec, n: number, streams: number): Promise<RequestRecord[]> {
  const client = createStreamingClient({ baseUrl: url }, { connections: streams });
  const out: RequestRecord[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: streams }, async () => {
      while (next < n) {
        const seq = next++;
        out.push(await client.send(s, { seq, concurrency: streams, warmup: false, targetSendNs: 0 }));
      }
    }),
  );
  await client.close();
  return out;
}

describe('tool calls through the real client against the simulator', () => {
  it('64 tools, tool_choice required, 10 % invalid configured: validity within 2 points of 90 %, every call parsed', async () => {
    const s = await sim({ toolCalls: { invalid: 0.1 } });
    const records = await sendAll(s.url, spec(tools('required')), 400, 16);
    expect(records.every((r) => r.outcome.kind === 'ok')).toBe(true);
    const summary = summarizeToolCalls(records);
    expect(summary).not.toBeNull();
    const t = summary as NonNullable<typeof summary>;
    expect(t.requests).toBe(400);
    expect(t.parseRate).toBe(1);
    expect(Math.abs((t.validRate as number) - 0.9)).toBeLessThanOrEqual(0.02);
    expect(t.invalid + t.valid).toBe(400);
    for (const r of records) {
      const c = r.toolCalls as NonNullable<RequestRecord['toolCalls']>;
      expect(c.calls).toBe(1);
      expect(r.finishReason).toBe('tool_calls');
      // The call is the whole answer: its first chunk is the first token, its tokens all the output.
      expect(c.firstNs).toBe(r.firstTokenNs);
      expect(c.argumentTokens).toBe(r.outputTokens);
      expect(c.argumentsDoneNs).toBe(r.chunkNs[r.chunkNs.length - 1]);
      if (c.verdict === 'invalid') expect(c.problem).toMatch(/must have required property/);
      const calls = toolCallsOf(r) ?? [];
      expect(calls[0]?.name).toBe(c.names[0]);
      expect(() => JSON.parse(calls[0]?.arguments ?? '')).not.toThrow();
    }
  });

  it('malformed arguments are unparsed; a named choice calls that tool; auto may answer in text', async () => {
    const s = await sim({ toolCalls: { malformed: 0.25, autoShare: 0.5 } });
    const named = await sendAll(s.url, spec(tools({ name: 'search_weather' })), 40, 4);
    expect(named.every((r) => r.toolCalls?.names[0] === 'search_weather')).toBe(true);
    const t = summarizeToolCalls(named) as NonNullable<ReturnType<typeof summarizeToolCalls>>;
    expect(t.unparsed).toBe(10);
    expect(t.parseRate).toBeCloseTo(0.75, 5);
    const auto = await sendAll(s.url, spec(tools('auto')), 80, 4);
    const a = summarizeToolCalls(auto) as NonNullable<ReturnType<typeof summarizeToolCalls>>;
    expect(a.none).toBeGreaterThan(10);
    expect(a.none).toBeLessThan(70);
    expect(a.requests - a.none).toBe(a.valid + a.invalid + a.unparsed);
  });

  it('an output cap inside the arguments: finish_reason length, the call unparsed', async () => {
    const s = await sim();
    const [r] = await sendAll(s.url, spec(tools('required'), 3), 1, 1);
    expect(r?.finishReason).toBe('length');
    expect(r?.toolCalls).toMatchObject({ verdict: 'unparsed', calls: 1 });
    expect(r?.toolCalls?.problem).toMatch(/output cap/);
  });

  it("time to first tool-call token follows the simulator's own log of its first write", async () => {
    const path = join(dir, 'log.jsonl');
    const s = await sim({ requestLog: path });
    const records = await sendAll(s.url, spec(tools('required')), 40, 8);
    await s.close();
    const log = (await readFile(path, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; firstWriteMs: number });
    for (const r of records) {
      const entry = log.find((l) => l.id === r.requestId);
      const firstNs = r.toolCalls?.firstNs as number;
      const receivedMs = performance.timeOrigin + firstNs / 1e6;
      // Received after the server wrote it, and soon after (a generous allowance for a shared machine).
      expect(receivedMs).toBeGreaterThanOrEqual((entry?.firstWriteMs as number) - 1);
      expect(receivedMs - (entry?.firstWriteMs as number)).toBeLessThan(500);
    }
  });
});
