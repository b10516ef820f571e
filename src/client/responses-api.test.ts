// The Responses API through the real client: against the simulator (text, the output cap, a continuation with
// previous_response_id) and a transcript in OpenAI's documented event shape (reasoning summary, a function
// call, response.completed usage), with the same timing rules as chat; errors inside the stream.
import { describe, expect, it } from 'vitest';
import { builtinTools, checkToolsSpec } from '../workload/index.js';
import { useSimulators } from '../test-support/simulators.js';
import { scripted, startServer } from '../test-support/scripted-server.js';
import { dialects } from './dialects/registry.js';
import { createStreamingClient } from './streaming-client.js';
import { responseIdOf, toolCallsOf } from './stream-handler.js';
import type { RequestMeta, RequestSpec } from './types.js';

const sim = useSimulators({ prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0, naturalOutputTokens: { min: 5, max: 5 } });
const meta: RequestMeta = { seq: 0, concurrency: 1, warmup: false, targetSendNs: 0 };
const spec: RequestSpec = { endpoint: 'responses', model: 'goodput-sim-1', prompt: 'one two three four', maxTokens: 32, forceLength: false, thinking: false };

describe('the Responses API against the simulator', () => {
  it('streams text with usage from response.completed; a continuation counts the stored conversation', async () => {
    const s = await sim();
    const client = createStreamingClient({ baseUrl: s.url }, { connections: 1, dialect: dialects.vllm });
    const first = await client.send(spec, meta);
    expect(first).toMatchObject({
      outcome: { kind: 'ok' },
      finishReason: 'stop',
      outputTokens: 5,
      outputTokenSource: 'usage',
      promptTokens: 4,
      chunkTokens: [1, 1, 1, 1, 1],
    });
    expect(first.firstTokenNs).toBe(first.chunkNs[0]);
    const id = responseIdOf(first);
    expect(id).toMatch(/^resp-sim-/);
    const next = await client.send({ ...spec, prompt: 'five six', previousResponseId: id as string }, { ...meta, seq: 1 });
    // The server keeps the conversation: 4 prompt + 5 answer + 2 new.
    expect(next).toMatchObject({ outcome: { kind: 'ok' }, promptTokens: 11 });
    const cut = await client.send({ ...spec, maxTokens: 2 }, { ...meta, seq: 2 });
    expect(cut).toMatchObject({ outcome: { kind: 'ok' }, finishReason: 'length', outputTokens: 2 });
    const unknown = await client.send({ ...spec, previousResponseId: 'resp-missing' }, { ...meta, seq: 3 });
    expect(unknown.outcome).toMatchObject({
      kind: 'http-error',
      status: 400,
      message: expect.stringMatching(/Previous response with id 'resp-missing' not found/),
    });
    // A call and a JSON answer through the Responses API's own shapes.
    const tools = checkToolsSpec({ label: 'built-in 8', tools: builtinTools(8), choice: 'required' }, 'test');
    const call = await client.send({ ...spec, maxTokens: 512, tools }, { ...meta, seq: 4 });
    expect(call).toMatchObject({ finishReason: 'tool_calls', toolCalls: { calls: 1, verdict: 'valid' } });
    const schema = { label: 's', name: 's', control: 0, schema: { type: 'object', required: ['a'], properties: { a: { type: 'integer' } } } };
    const json = await client.send({ ...spec, maxTokens: 512, structured: { spec: schema, control: false } }, { ...meta, seq: 5 });
    expect(json.structured).toEqual({ schema: true, verdict: 'valid', problem: null });
    await client.close();
  });

  it('sends input, max_output_tokens, store and previous_response_id; a dialect without the API fails the request naming it', async () => {
    const server = await startServer(
      scripted([
        {
          delayMs: 0,
          bytes:
            'data: {"type":"response.output_text.delta","delta":"x"}\n\ndata: {"type":"response.completed","response":{"id":"r1","status":"completed","usage":{"input_tokens":3,"output_tokens":1}}}\n\n',
        },
      ]),
    );
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 1, dialect: dialects.vllm });
    const r = await client.send({ ...spec, previousResponseId: 'r0', history: [{ role: 'user', content: 'not resent' }] }, meta);
    await client.close();
    expect(server.requests[0]?.url).toBe('/v1/responses');
    expect(JSON.parse(server.requests[0]?.body ?? '{}')).toEqual({
      model: 'goodput-sim-1',
      input: [{ role: 'user', content: 'one two three four' }],
      max_output_tokens: 32,
      store: true,
      previous_response_id: 'r0',
      top_p: 1,
      stream: true,
    });
    expect(r).toMatchObject({ outcome: { kind: 'ok' }, outputTokens: 1, promptTokens: 3 });
    expect(responseIdOf(r)).toBe('r1');
    const tgi = createStreamingClient({ baseUrl: server.url }, { connections: 1, dialect: dialects.tgi });
    const refused = await tgi.send(spec, meta);
    await tgi.close();
    await server.close();
    expect(refused.outcome).toMatchObject({ message: expect.stringMatching(/TGI has no Responses API/) });
  });
});

describe('OpenAI-shaped Responses events', () => {
  const ev = (o: object) => `event: ${(o as { type: string }).type}\ndata: ${JSON.stringify(o)}\n\n`;
  it('reasoning summary, a function call and usage: TTFT on the first reasoning delta, the call judged', async () => {
    const transcript = [
      ev({ type: 'response.created', sequence_number: 0, response: { id: 'resp_67ccd', object: 'response', status: 'in_progress', output: [] } }),
      ev({ type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } }),
      ev({ type: 'response.reasoning_summary_text.delta', sequence_number: 2, item_id: 'rs_1', output_index: 0, summary_index: 0, delta: 'The user wants' }),
      ev({ type: 'response.reasoning_summary_text.delta', sequence_number: 3, item_id: 'rs_1', output_index: 0, summary_index: 0, delta: ' a rename.' }),
      ev({
        type: 'response.output_item.added',
        sequence_number: 4,
        output_index: 1,
        item: { id: 'fc_1', type: 'function_call', status: 'in_progress', arguments: '', call_id: 'call_1', name: 'update_file' },
      }),
      ev({ type: 'response.function_call_arguments.delta', sequence_number: 5, item_id: 'fc_1', output_index: 1, delta: '{"file_id":"r' }),
      ev({ type: 'response.function_call_arguments.delta', sequence_number: 6, item_id: 'fc_1', output_index: 1, delta: 'eport","unit":"metric"}' }),
      ev({
        type: 'response.function_call_arguments.done',
        sequence_number: 7,
        item_id: 'fc_1',
        output_index: 1,
        arguments: '{"file_id":"report","unit":"metric"}',
      }),
      ev({
        type: 'response.completed',
        sequence_number: 8,
        response: {
          id: 'resp_67ccd',
          status: 'completed',
          usage: {
            input_tokens: 81,
            input_tokens_details: { cached_tokens: 64 },
            output_tokens: 40,
            output_tokens_details: { reasoning_tokens: 28 },
            total_tokens: 121,
          },
        },
      }),
    ].join('');
    const server = await startServer(scripted([{ delayMs: 0, bytes: transcript }]));
    const tools = checkToolsSpec({ label: 'built-in 8', tools: builtinTools(8), choice: 'auto' }, 'test');
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 1, dialect: dialects.openai });
    const r = await client.send({ ...spec, tools }, meta);
    await client.close();
    await server.close();
    expect(r).toMatchObject({
      outcome: { kind: 'ok' },
      finishReason: 'tool_calls',
      outputTokens: 40,
      promptTokens: 81,
      cachedPromptTokens: 64,
      reasoningTokens: 28,
      reasoningChunks: 2,
    });
    expect(r.firstTokenNs).toBe(r.chunkNs[0]);
    expect(r.firstAnswerNs).toBe(r.chunkNs[2]);
    expect(toolCallsOf(r)?.[0]).toEqual({ name: 'update_file', arguments: '{"file_id":"report","unit":"metric"}' });
    expect(r.toolCalls?.verdict).toBe('valid');
  });

  it('response.failed and error events are stream errors; a stream that closes before response.completed is truncated', async () => {
    const cases: Array<[string, RegExp | null]> = [
      [
        ev({ type: 'response.output_text.delta', delta: 'a' }) +
          ev({ type: 'response.failed', response: { id: 'r', status: 'failed', error: { code: 'server_error', message: 'the engine died' } } }),
        /the engine died/,
      ],
      [ev({ type: 'response.output_text.delta', delta: 'a' }) + ev({ type: 'error', code: 'x', message: 'overloaded' }), /overloaded/],
      [ev({ type: 'response.output_text.delta', delta: 'a' }), null],
    ];
    for (const [body, error] of cases) {
      const server = await startServer(scripted([{ delayMs: 0, bytes: body }]));
      const client = createStreamingClient({ baseUrl: server.url }, { connections: 1, dialect: dialects.openai });
      const r = await client.send(spec, meta);
      await client.close();
      await server.close();
      if (error === null) expect(r.outcome.kind).toBe('truncated');
      else expect(r.outcome).toEqual({ kind: 'stream-error', message: expect.stringMatching(error) });
    }
  });
});

describe("the simulator's store of conversations", () => {
  it('keeps at most its count and words, dropping the oldest', async () => {
    const { ResponseStore, MAX_STORED_RESPONSES, MAX_STORED_WORDS } = await import('../sim/responses-route.js');
    const store = new ResponseStore();
    for (let i = 0; i <= MAX_STORED_RESPONSES; i++) store.set(`r${i}`, ['w']);
    expect(store.get('r0')).toBeUndefined();
    expect(store.get('r1')).toEqual(['w']);
    const big = new ResponseStore();
    const half = Array.from({ length: MAX_STORED_WORDS / 2 + 1 }, () => 'w');
    big.set('a', half);
    big.set('b', half);
    expect(big.get('a')).toBeUndefined();
    expect(big.get('b')).toBe(half);
  });
});
