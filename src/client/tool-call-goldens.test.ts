// Tool-call streams of several engines, through the real client over loopback: each transcript whole, split
// at seeded random byte boundaries, with CRLF and (SSE) keep-alive comments, must give the same call — the
// same tool, arguments that parse to the same object and validate — and the same timing rules (the call's
// first chunk is the first token). Hostile streams: too many calls, too many argument bytes, unknown tools.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS, type RequestRecord } from '../core/index.js';
import { builtinTools, checkToolsSpec } from '../workload/index.js';
import { randomPieces, scripted, seededRandom, startServer, type TestServer } from '../test-support/scripted-server.js';
import { dialects } from './dialects/registry.js';
import type { DialectKind } from './dialects/types.js';
import { createStreamingClient } from './streaming-client.js';
import { toolCallsOf } from './stream-handler.js';
import type { RequestMeta, RequestSpec } from './types.js';

const ARGS = { file_id: 'anim', query: 'ullamco_cupidatat', limit: 65, unit: 'metric', tags: ['qui', 'cillum_proident_do_quis_exercita', 'dolor_culpa'] };
const tools = checkToolsSpec({ label: 'built-in 8', tools: builtinTools(8), choice: { name: 'update_file' } }, 'test');
const spec: RequestSpec = { endpoint: 'chat', model: 'm', prompt: 'rename the report', maxTokens: 256, forceLength: false, thinking: false, tools };
const meta: RequestMeta = { seq: 0, concurrency: 1, warmup: false, targetSendNs: 0 };

/** file, the dialect that reads it, the finish reason and output tokens it reports. */
const GOLDEN: Array<{ file: string; dialect: DialectKind; finish: string; outputTokens: number }> = [
  { file: 'simulator.sse', dialect: 'vllm', finish: 'tool_calls', outputTokens: 35 },
  { file: 'vllm.sse', dialect: 'vllm', finish: 'tool_calls', outputTokens: 29 },
  { file: 'llamacpp.sse', dialect: 'llamacpp', finish: 'tool_calls', outputTokens: 40 },
  { file: 'ollama.sse', dialect: 'ollama', finish: 'tool_calls', outputTokens: 38 },
  { file: 'ollama-native.ndjson', dialect: 'ollama-native', finish: 'stop', outputTokens: 38 },
];

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function through(dialect: DialectKind, deliveries: Buffer[][], contentType: string): Promise<RequestRecord[]> {
  let served = 0;
  const server = await startServer((req, res) =>
    scripted(
      (deliveries[served++] ?? []).map((bytes) => ({ delayMs: 0, bytes })),
      { contentType },
    )(req, res),
  );
  servers.push(server);
  const out: RequestRecord[] = [];
  for (let i = 0; i < deliveries.length; i++) {
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 1, dialect: dialects[dialect] });
    out.push(await client.send(spec, meta));
    await client.close();
  }
  const sent = JSON.parse(server.requests[0]?.body ?? '{}') as Record<string, unknown>;
  expect(Array.isArray(sent.tools) && sent.tools.length).toBe(8);
  return out;
}

describe('golden tool-call streams of several engines parse to the same call', () => {
  for (const g of GOLDEN) {
    it(`${g.dialect}: ${g.file}`, async () => {
      const body = readFileSync(new URL(`./fixtures/tool-calls/${g.file}`, import.meta.url));
      const ndjson = g.file.endsWith('.ndjson');
      const random = seededRandom(body.length);
      const text = body.toString('utf8');
      const deliveries = [
        [body],
        randomPieces(body, random, 48),
        randomPieces(body, random, 5),
        randomPieces(Buffer.from(text.replace(/\n/g, '\r\n')), random, 64),
      ];
      if (!ndjson) deliveries.push(randomPieces(Buffer.from(text.replace(/\n\n/g, '\n\n: keep-alive\n\n')), random, 64));
      const records = await through(g.dialect, deliveries, ndjson ? 'application/x-ndjson' : 'text/event-stream');
      for (const r of records) {
        expect(r.outcome).toEqual({ kind: 'ok' });
        expect(r.finishReason).toBe(g.finish);
        expect(r.outputTokens).toBe(g.outputTokens);
        expect(r.toolCalls).toMatchObject({ required: true, calls: 1, names: ['update_file'], verdict: 'valid', problem: null });
        expect(r.toolCalls?.firstNs).toBe(r.firstTokenNs);
        expect(r.firstAnswerNs).toBe(r.firstTokenNs);
        expect(r.toolCalls?.argumentsDoneNs).not.toBeNull();
        const calls = toolCallsOf(r) ?? [];
        expect(calls).toHaveLength(1);
        expect(JSON.parse(calls[0]?.arguments ?? '')).toEqual(ARGS);
      }
    });
  }
});

describe('hostile and odd tool-call streams', () => {
  const sse = (...events: unknown[]) => Buffer.from(events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join(''));
  const delta = (toolCalls: unknown, finish: string | null = null) => ({ choices: [{ index: 0, delta: { tool_calls: toolCalls }, finish_reason: finish }] });

  it('a lone tool-call object (not a list) is read as call 0; arguments sent as an object are serialised', async () => {
    const [r] = await through(
      'generic',
      [
        [
          sse(
            delta({ index: 0, id: 'a', type: 'function', function: { name: 'update_file', arguments: '{"file_id":' } }),
            delta({ index: 0, function: { arguments: '"x","unit":"metric"}' } }, 'tool_calls'),
            '[DONE]',
          ),
        ],
      ],
      'text/event-stream',
    );
    expect(r?.toolCalls).toMatchObject({ calls: 1, verdict: 'valid' });
    const [o] = await through(
      'generic',
      [[sse(delta([{ index: 0, function: { name: 'update_file', arguments: { file_id: 'y', unit: 'imperial' } } }], 'tool_calls'), '[DONE]')]],
      'text/event-stream',
    );
    expect(o?.toolCalls).toMatchObject({ calls: 1, verdict: 'valid' });
  });

  it('schema misses, cut JSON, unknown tools and no call at all each get their verdict and problem', async () => {
    const cases: Array<[unknown, string, RegExp | null]> = [
      [[{ index: 0, function: { name: 'update_file', arguments: '{"query":"q","unit":"metric"}' } }], 'invalid', /must have required property 'file_id'/],
      [[{ index: 0, function: { name: 'update_file', arguments: '{"file_id":"q"' } }], 'unparsed', /are not JSON/],
      [[{ index: 0, function: { name: 'rm_rf', arguments: '{}' } }], 'unparsed', /no tool is named rm_rf/],
      [[], 'missing', /required and none came/],
    ];
    for (const [calls, verdict, problem] of cases) {
      const [r] = await through('generic', [[sse(delta(calls, 'tool_calls'), '[DONE]')]], 'text/event-stream');
      expect(r?.toolCalls?.verdict).toBe(verdict);
      expect(r?.toolCalls?.problem).toMatch(problem as RegExp);
    }
  });

  it('recorded: llama-server --jinja whose model has no tool-call format answers a required call with text; the verdict is missing', async () => {
    // stories260K's template has no tool-call format, so llama-server b9928 sent prose (finish "length", 64 tokens) although a call was required.
    const body = readFileSync(new URL('./fixtures/tool-calls/llamacpp-no-tool-format.sse', import.meta.url));
    const [r] = await through('llamacpp', [[body]], 'text/event-stream');
    expect(r?.outcome).toEqual({ kind: 'ok' });
    expect(r?.finishReason).toBe('length');
    expect(r?.outputTokens).toBe(64);
    expect(r?.toolCalls).toMatchObject({ required: true, calls: 0, verdict: 'missing' });
    expect(r?.toolCalls?.problem).toMatch(/required and none came/);
  });

  it('more calls than the limit, or more argument bytes: cut, judged unparsed, memory bounded', async () => {
    const many = Array.from({ length: LIMITS.toolCallsPerResponse.max + 5 }, (_, i) => ({
      index: i,
      function: { name: 'update_file', arguments: '{"file_id":"a"}' },
    }));
    const [r] = await through('generic', [[sse(delta(many, 'tool_calls'), '[DONE]')]], 'text/event-stream');
    expect(r?.toolCalls).toMatchObject({ calls: LIMITS.toolCallsPerResponse.max, verdict: 'unparsed' });
    expect(r?.toolCalls?.problem).toMatch(/more than 32 tool calls read from one response/);
    const piece = 'a'.repeat(60_000);
    const events = [delta([{ index: 0, function: { name: 'update_file', arguments: '{"file_id":"' } }])];
    for (let i = 0; i < 6; i++) events.push(delta([{ index: 0, function: { arguments: piece } }]));
    const [big] = await through(
      'generic',
      [[sse(...events, delta([{ index: 0, function: { arguments: '"}' } }], 'tool_calls'), '[DONE]')]],
      'text/event-stream',
    );
    expect(big?.toolCalls?.verdict).toBe('unparsed');
    expect(big?.toolCalls?.problem).toMatch(/past the limit of 262144 bytes of tool-call arguments/);
    expect(toolCallsOf(big as RequestRecord)?.[0]?.arguments.length ?? 0).toBeLessThanOrEqual(LIMITS.toolArgumentBytes.max);
  });
});
