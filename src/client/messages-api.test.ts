// Anthropic's Messages API through the real client: golden streams written from Anthropic's documented
// format (text, extended thinking, a tool use, an error event), the simulator speaking it, the request as
// sent (x-api-key, anthropic-version, the body's shape), the chat timing rules on the same instants, and
// hostile streams cut at their bounds.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSimulators } from '../test-support/simulators.js';
import { scripted, startServer } from '../test-support/scripted-server.js';
import { dialects } from './dialects/registry.js';
import { generic } from './dialects/generic.js';
import { messagesReader } from './messages-reader.js';
import { SseParser } from './sse-parser.js';
import { SSE_LIMITS } from './response-limits.js';
import { StreamRecorder } from './stream-recorder.js';
import { createStreamingClient } from './streaming-client.js';
import { answerOf, toolCallsOf } from './stream-handler.js';
import type { RequestMeta, RequestSpec } from './types.js';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, 'fixtures', 'anthropic', name), 'utf8');
const meta: RequestMeta = { seq: 0, concurrency: 1, warmup: false, targetSendNs: 0 };
const spec: RequestSpec = { endpoint: 'messages', model: 'goodput-sim-1', prompt: 'one two three four', maxTokens: 32, forceLength: false, thinking: false };

async function replay(name: string, over: Partial<RequestSpec> = {}) {
  const server = await startServer(scripted([{ delayMs: 0, bytes: fixture(name) }]));
  const client = createStreamingClient({ baseUrl: server.url, apiKey: 'sk-ant-test-0123456789', auth: 'x-api-key' }, { connections: 1, dialect: generic });
  const record = await client.send({ ...spec, keepAnswer: true, ...over }, meta);
  await client.close();
  await server.close();
  return { record, request: server.requests[0] };
}

describe("golden streams of Anthropic's documented format", () => {
  it('text: output tokens from message_delta usage, prompt from message_start, end_turn read as stop, pings carry nothing', async () => {
    const { record, request } = await replay('text.sse');
    expect(record).toMatchObject({ outcome: { kind: 'ok' }, finishReason: 'stop', outputTokens: 15, outputTokenSource: 'usage', promptTokens: 25 });
    // Two text deltas are the token chunks: message_start, the block's start, ping and stop are not.
    expect(record.chunkNs).toHaveLength(2);
    expect(record.firstTokenNs).toBe(record.chunkNs[0]);
    expect(answerOf(record)).toBe('Hello!');
    expect(request?.url).toBe('/v1/messages');
    expect(request?.headers['x-api-key']).toBe('sk-ant-test-0123456789');
    expect(request?.headers.authorization).toBeUndefined();
  });

  it('extended thinking: thinking deltas are reasoning (TTFT on the first), the answer after; cache reads are cached prompt tokens', async () => {
    const { record } = await replay('thinking.sse', { thinking: true, maxTokens: 4096 });
    expect(record).toMatchObject({ outcome: { kind: 'ok' }, outputTokens: 86, promptTokens: 2224, cachedPromptTokens: 1024, reasoningChunks: 2 });
    // Anthropic counts thinking inside output_tokens and reports no count of its own: none is made up.
    expect(record.reasoningTokens).toBeNull();
    expect(record.firstTokenNs).toBe(record.chunkNs[0]);
    expect(record.chunkNs).toHaveLength(3);
    expect(answerOf(record)).toBe('The greatest common divisor of 1071 and 462 is **21**.');
  });

  it('a tool use: its name from content_block_start, its arguments from input_json_delta, tool_use read as tool_calls', async () => {
    const tools = {
      label: 't',
      choice: 'auto' as const,
      tools: [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object' } } }],
    };
    const { record } = await replay('tool-use.sse', { tools });
    expect(record).toMatchObject({ outcome: { kind: 'ok' }, finishReason: 'tool_calls', outputTokens: 89, promptTokens: 472 });
    expect(toolCallsOf(record)).toEqual([{ name: 'get_weather', arguments: '{"location": "San Francisco, CA", "unit": "fahrenheit"}' }]);
  });

  it('an error event fails the request with its type and message', async () => {
    const { record } = await replay('error.sse');
    expect(record.outcome).toMatchObject({ kind: 'stream-error', message: 'server error in stream: overloaded_error: Overloaded' });
  });
});

describe('the request as sent', () => {
  it("the Messages API's body and headers: max_tokens, messages, thinking's budget, no OpenAI keys; --extra-body merged last", async () => {
    const { request } = await replay('text.sse', { temperature: 0, passThrough: { priority: 1, metadata: { user_id: 'u1' } } });
    expect(JSON.parse(request?.body ?? '{}')).toEqual({
      model: 'goodput-sim-1',
      max_tokens: 32,
      messages: [{ role: 'user', content: 'one two three four' }],
      temperature: 0,
      priority: 1,
      metadata: { user_id: 'u1' },
      stream: true,
    });
    const thinking = await replay('text.sse', { thinking: true, maxTokens: 4096, temperature: 0 });
    expect(JSON.parse(thinking.request?.body ?? '{}')).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2048 } });
    expect(JSON.parse(thinking.request?.body ?? '{}').temperature).toBeUndefined();
  });

  it('a dialect without the Messages API fails the request naming it, nothing sent', async () => {
    const server = await startServer(scripted([]));
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 1, dialect: dialects.vllm });
    const r = await client.send(spec, meta);
    await client.close();
    await server.close();
    expect(r.outcome).toMatchObject({ message: "request body could not be built: vLLM has no Anthropic's Messages API" });
    expect(server.requests).toHaveLength(0);
  });
});

describe('the simulator speaks the Messages API', () => {
  const sim = useSimulators({ prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0, naturalOutputTokens: { min: 5, max: 5 } });

  it('text, thinking and the cap: output and thinking counted as on chat', async () => {
    const s = await sim({ reasoningTokens: 3 });
    const client = createStreamingClient({ baseUrl: s.url, auth: 'x-api-key', apiKey: 'k' }, { connections: 1, dialect: generic });
    const plain = await client.send(spec, meta);
    expect(plain).toMatchObject({
      outcome: { kind: 'ok' },
      finishReason: 'stop',
      outputTokens: 5,
      outputTokenSource: 'usage',
      promptTokens: 4,
      reasoningChunks: 0,
    });
    expect(plain.chunkTokens).toEqual([1, 1, 1, 1, 1]);
    // Thinking on: 3 thinking tokens, then the answer; output_tokens counts both, as Anthropic's does.
    const thinking = await client.send({ ...spec, thinking: true }, { ...meta, seq: 1 });
    expect(thinking).toMatchObject({ outcome: { kind: 'ok' }, outputTokens: 8, reasoningChunks: 3 });
    expect(thinking.firstTokenNs).toBe(thinking.chunkNs[0]);
    expect(thinking.firstAnswerNs).toBe(thinking.chunkNs[3]);
    const cut = await client.send({ ...spec, maxTokens: 2 }, { ...meta, seq: 2 });
    expect(cut).toMatchObject({ outcome: { kind: 'ok' }, finishReason: 'length', outputTokens: 2 });
    const wrong = await client.send({ ...spec, model: 'other' }, { ...meta, seq: 3 });
    expect(wrong.outcome).toMatchObject({ kind: 'http-error', status: 404, message: expect.stringMatching(/other/) });
    await client.close();
  });
});

/** One stream's events fed to a recorder, each at its instant, as the handler does per network read. */
function recordStream(events: ReadonlyArray<{ ns: number; data: string }>, reader: 'chat' | 'messages'): StreamRecorder {
  const rec = new StreamRecorder(generic.stream, 64);
  if (reader === 'messages') rec.useReader(messagesReader());
  const parser = new SseParser(rec.onData, SSE_LIMITS, rec.onEmpty);
  for (const e of events) {
    rec.nowNs = e.ns;
    parser.push(Buffer.from(`data: ${e.data}\n\n`));
  }
  return rec;
}

describe('the chat timing rules on the same instants', () => {
  it('first token and every token chunk land on the same instants in both formats', () => {
    const times = [5_000_000, 7_000_000, 9_500_000, 12_000_000];
    const chat = [
      { ns: 4_000_000, data: '{"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}' },
      ...times.map((ns, i) => ({ ns, data: JSON.stringify({ choices: [{ index: 0, delta: { content: ` w${i}` } }] }) })),
      { ns: 12_000_000, data: '{"choices":[],"usage":{"prompt_tokens":4,"completion_tokens":4}}' },
      { ns: 12_000_000, data: '[DONE]' },
    ];
    const messages = [
      { ns: 4_000_000, data: '{"type":"message_start","message":{"usage":{"input_tokens":4,"output_tokens":1}}}' },
      { ns: 4_000_000, data: '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}' },
      { ns: 4_000_000, data: '{"type":"ping"}' },
      ...times.map((ns, i) => ({ ns, data: JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ` w${i}` } }) })),
      { ns: 12_000_000, data: '{"type":"content_block_stop","index":0}' },
      { ns: 12_000_000, data: '{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":4}}' },
      { ns: 12_000_000, data: '{"type":"message_stop"}' },
    ];
    const a = recordStream(chat, 'chat');
    const b = recordStream(messages, 'messages');
    expect(b.firstTokenNs).toBe(a.firstTokenNs);
    expect(b.chunkNs).toEqual(a.chunkNs);
    expect(b.chunkTokens).toEqual(a.chunkTokens);
    expect(b.outputTokens()).toEqual(a.outputTokens());
    expect(b.doneNs).toBe(a.doneNs);
  });
});

describe('hostile Messages streams are bounded', () => {
  it('endless pings are cut at the event allowance of the output cap', async () => {
    const ping = 'event: ping\ndata: {"type": "ping"}\n\n';
    const server = await startServer(scripted([{ delayMs: 0, bytes: ping.repeat(4 * 8 + 1024 + 50) }], { ending: 'hang' }));
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 1, dialect: generic });
    const r = await client.send({ ...spec, maxTokens: 8 }, meta);
    await client.close();
    await server.close();
    expect(r.outcome).toMatchObject({ kind: 'stream-overrun', message: expect.stringMatching(/more than 1056 events/) });
  });

  it('a usage count past the output cap is an overrun; a stream that closes before its stop reason is truncated, as on chat', async () => {
    const over = 'data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":999999}}\n\n';
    const server = await startServer(scripted([{ delayMs: 0, bytes: over }], { ending: 'hang' }));
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 1, dialect: generic });
    const r = await client.send({ ...spec, maxTokens: 8 }, meta);
    await client.close();
    await server.close();
    expect(r.outcome).toMatchObject({ kind: 'stream-overrun', message: expect.stringMatching(/past the limit of 1040/) });
    const cut = await startServer(scripted([{ delayMs: 0, bytes: fixture('text.sse').split('event: message_delta')[0] as string }]));
    const c2 = createStreamingClient({ baseUrl: cut.url }, { connections: 1, dialect: generic });
    const r2 = await c2.send(spec, meta);
    await c2.close();
    await cut.close();
    expect(r2.outcome).toMatchObject({ kind: 'truncated', message: 'the stream closed without [DONE] or a finish_reason after 6 data events' });
  });
});
