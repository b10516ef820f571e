// Servers that try to grow our memory: each ends as one failed record whose
// outcome names the limit, the client reads far less than the server offers,
// and the heap does not grow with what the server sends.
import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS, RECORD_BOUNDS, type RequestRecord, parseRawRecord } from '../core/index.js';
import { dialects } from './dialects/registry.js';
import { preflight } from './preflight.js';
import { createStreamingClient } from './streaming-client.js';
import { counting, endless } from '../test-support/hostile-server.js';
import { scripted, startServer, type TestServer } from '../test-support/scripted-server.js';
import type { RequestMeta, RequestSpec } from './types.js';
import type { Dialect } from './dialects/types.js';

const meta: RequestMeta = { seq: 0, concurrency: 1, warmup: false, targetSendNs: 0 };
const spec: RequestSpec = { endpoint: 'chat', model: 'm', prompt: 'hi', maxTokens: 8, forceLength: false, thinking: false };
const MiB = 1024 * 1024;
const OVER_EVENTS = 'the stream sent more than 1056 events (comments and empty events included), the limit for an output cap of 8 tokens';
const tokenEvent = 'data: {"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}\n\n';

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

/** One request against `handler`; returns its record, the bytes the server wrote, and the heap growth. */
async function against(handler: ReturnType<typeof endless>, dialect?: Dialect): Promise<{ r: RequestRecord; written: number; heapGrowthMiB: number }> {
  const c = counting(handler);
  const server = await startServer(c.handler);
  servers.push(server);
  const heap0 = process.memoryUsage().heapUsed;
  const client = createStreamingClient({ baseUrl: server.url }, { connections: 1, dialect });
  const r = await client.send(spec, meta);
  const heapGrowthMiB = (process.memoryUsage().heapUsed - heap0) / MiB;
  await client.close();
  return { r, written: c.state.written, heapGrowthMiB };
}

describe('a hostile server', () => {
  it('one SSE line that never ends: response-too-large naming the line limit, read no further', async () => {
    const { r, written, heapGrowthMiB } = await against(endless({ head: 'data: ', piece: 'x'.repeat(64 * 1024) }));
    expect(r.outcome).toMatchObject({ kind: 'response-too-large', phase: 'first-token' });
    expect(r.outcome.kind === 'response-too-large' && r.outcome.message).toBe(
      `an SSE line went past the limit of ${LIMITS.sseLineBytes.max} bytes in one SSE line from a server`,
    );
    expect(written).toBeLessThan(64 * MiB);
    expect(heapGrowthMiB).toBeLessThan(64);
  });

  it('data: lines with no blank line: response-too-large naming the event limit', async () => {
    const { r, written } = await against(endless({ piece: `data: ${'y'.repeat(1000)}\n` }));
    expect(r.outcome.kind).toBe('response-too-large');
    expect(r.outcome.kind === 'response-too-large' && r.outcome.message).toMatch(/^an SSE event went past the limit of 1048576 bytes in one SSE event/);
    expect(written).toBeLessThan(64 * MiB);
  });

  it('valid one-token events past max_tokens, never [DONE]: stream-overrun with the limit, the tokens kept bounded', async () => {
    const { r, written } = await against(endless({ piece: tokenEvent }));
    expect(r.outcome).toEqual({ kind: 'stream-overrun', message: 'the stream carried 1041 tokens, past the limit of 1040 for an output cap of 8 tokens' });
    expect(r.chunkNs.length).toBeLessThanOrEqual(1041);
    expect(written).toBeLessThan(64 * MiB);
  });

  it('events that carry no token, past the event limit: stream-overrun naming the event limit', async () => {
    const { r } = await against(endless({ piece: 'data: {"choices":[]}\n\n' }));
    expect(r.outcome).toEqual({ kind: 'stream-overrun', message: OVER_EVENTS });
  });

  it.each([
    ['SSE comments (keep-alives) and nothing else', ': ping\n', undefined],
    ['SSE events without data', 'event: ping\n\n', undefined],
    ['blank lines', '\n', undefined],
    ['blank NDJSON lines (Ollama native)', '\n', dialects['ollama-native']],
  ])('%s, endlessly: stream-overrun naming the event limit, read no further', async (_what, piece, dialect) => {
    const { r, written } = await against(endless({ contentType: dialect ? 'application/x-ndjson' : 'text/event-stream', piece: piece.repeat(64) }), dialect);
    expect(r.outcome).toEqual({ kind: 'stream-overrun', message: OVER_EVENTS });
    expect(written).toBeLessThan(64 * MiB);
  });

  it('fields other than data with no blank line between: response-too-large naming the event limit', async () => {
    const { r, written } = await against(endless({ piece: 'id: 1\n'.repeat(1000) }));
    expect(r.outcome.kind === 'response-too-large' && r.outcome.message).toMatch(/^an SSE event went past the limit of 1048576 bytes in one SSE event/);
    expect(written).toBeLessThan(64 * MiB);
  });

  it('a huge error body: response-too-large naming the error body limit, with how it starts', async () => {
    const { r, written } = await against(
      endless({ status: 500, contentType: 'application/json', head: '{"error":{"message":"', piece: 'z'.repeat(16 * 1024) }),
    );
    expect(r.httpStatus).toBe(500);
    expect(r.outcome.kind).toBe('response-too-large');
    expect(r.outcome.kind === 'response-too-large' && r.outcome.message).toMatch(
      /^the HTTP 500 error body went past the limit of 65536 bytes of an error body kept for its message; it starts: \{"error":\{"message":"zzz/,
    );
    expect(written).toBeLessThan(64 * MiB);
  });

  it('an NDJSON line that never ends (Ollama native): response-too-large naming the NDJSON limit', async () => {
    const { r } = await against(
      endless({ contentType: 'application/x-ndjson', head: '{"message":{"content":"', piece: 'n'.repeat(64 * 1024) }),
      dialects['ollama-native'],
    );
    expect(r.outcome.kind === 'response-too-large' && r.outcome.message).toBe(
      'an NDJSON line went past the limit of 1048576 bytes in one NDJSON line from a server',
    );
  });

  it('a huge /v1/models: preflight refuses naming the probe limit, without reading it all', async () => {
    const c = counting(endless({ contentType: 'application/json', head: '{"data":[', piece: '{"id":"m","object":"model"},'.repeat(1024) }));
    const server = await startServer(c.handler);
    servers.push(server);
    const found = await preflight({ baseUrl: server.url }, undefined, { timeoutMs: 20_000 });
    expect(found).toMatchObject({ ok: false, reason: 'response-too-large' });
    expect(!found.ok && found.message).toBe(
      `${server.url}/v1/models: the answer went past the limit of 8388608 bytes in a probe response (/v1/models, /props, /metrics); a model list is a few kB. Check the base URL.`,
    );
    expect(c.state.written).toBeLessThan(128 * MiB);
  });

  it('four never-ending lines at once stay bounded too', async () => {
    const c = counting(endless({ head: 'data: ', piece: 'x'.repeat(64 * 1024) }));
    const server = await startServer(c.handler);
    servers.push(server);
    const heap0 = process.memoryUsage().heapUsed;
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 4 });
    const rs = await Promise.all([0, 1, 2, 3].map((seq) => client.send(spec, { ...meta, seq })));
    await client.close();
    expect(rs.map((r) => r.outcome.kind)).toEqual(['response-too-large', 'response-too-large', 'response-too-large', 'response-too-large']);
    expect((process.memoryUsage().heapUsed - heap0) / MiB).toBeLessThan(128);
  });

  it('counts a reader could not bound (1e9 tokens in one chunk, 1e12 prompt tokens, a long finish reason): a record the record schema accepts', async () => {
    const huge =
      'data: {"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}],"usage":{"completion_tokens":1000000000,"prompt_tokens":1000000000000}}\n\n';
    const ending = `data: {"choices":[{"index":0,"delta":{},"finish_reason":"${'f'.repeat(5000)}"}]}\n\ndata: [DONE]\n\n`;
    const server = await startServer(
      scripted([
        { delayMs: 0, bytes: tokenEvent },
        { delayMs: 0, bytes: huge },
        { delayMs: 0, bytes: ending },
      ]),
    );
    servers.push(server);
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 1 });
    const r = await client.send(spec, meta);
    await client.close();
    expect(r.outcome.kind).toBe('stream-overrun');
    expect(r.outputTokens).toBe(1041);
    expect(r.promptTokens).toBe(RECORD_BOUNDS.promptTokens);
    const parsed = parseRawRecord(r);
    expect(parsed.ok ? '' : parsed.message).toBe('');
  });
});
