/** The traceparent every request carries: its format, fresh ids per request, the ids on the record, and off when asked. */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createStreamingClient } from './streaming-client.js';
import { traceIdSource, traceparentLine } from './trace-context.js';
import { piecewise, startServer, type TestServer } from '../test-support/scripted-server.js';
import type { RequestMeta, RequestSpec } from './types.js';

const HEADER = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;
const body = readFileSync(new URL('./fixtures/vllm/continuous-usage-crlf.sse', import.meta.url));
const spec: RequestSpec = { endpoint: 'chat', model: 'm', prompt: 'Hello.', maxTokens: 8, forceLength: false, thinking: false };
const meta: RequestMeta = { seq: 0, concurrency: 1, warmup: false, targetSendNs: 0 };

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('trace ids', () => {
  it('are fresh, non-zero hex of the W3C lengths, across a refill of the random block', () => {
    const next = traceIdSource();
    const ids = Array.from({ length: 5000 }, next);
    expect(new Set(ids.map((i) => i.traceId)).size).toBe(5000);
    expect(new Set(ids.map((i) => i.spanId)).size).toBe(5000);
    for (const i of ids) expect(`00-${i.traceId}-${i.spanId}-01`).toMatch(HEADER);
    expect(traceparentLine({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16) })).toBe(`traceparent: 00-${'a'.repeat(32)}-${'b'.repeat(16)}-01\r\n`);
  });
});

describe('the streaming client', () => {
  it('sends a traceparent per request and keeps its ids on the record beside the request id', async () => {
    server = await startServer(piecewise(body, 1));
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 1 });
    const a = await client.send(spec, meta);
    const b = await client.send(spec, { ...meta, seq: 1 });
    await client.close();
    const sent = server.requests.map((r) => HEADER.exec(String(r.headers.traceparent)));
    expect(sent.map((m) => m?.[1])).toEqual([a.traceId, b.traceId]);
    expect(sent.map((m) => m?.[2])).toEqual([a.spanId, b.spanId]);
    expect(a.traceId).not.toBe(b.traceId);
    expect(server.requests.map((r) => r.headers['x-request-id'])).toEqual([a.requestId, b.requestId]);
  });

  it('sends none and records none with traceparent off', async () => {
    server = await startServer(piecewise(body, 2));
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 1, traceparent: false });
    const r = await client.send(spec, meta);
    await client.close();
    expect(r.outcome).toEqual({ kind: 'ok' });
    expect(server.requests[0]?.headers.traceparent).toBeUndefined();
    expect(r).not.toHaveProperty('traceId');
    expect(r).not.toHaveProperty('spanId');
  });
});
