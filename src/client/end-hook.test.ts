/**
 * The end hook a closed loop replaces from: heard once, as a good stream's end
 * is read and before its record exists, with the record's own end instant;
 * never for a failure (the loop replaces those once their record is in); and a
 * request prepared ahead carries the id and traceparent it was built with.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createStreamingClient } from './streaming-client.js';
import { piecewise, scripted, startServer, type TestServer } from '../test-support/scripted-server.js';
import type { RequestMeta, RequestSpec } from './types.js';

const stream = readFileSync(new URL('./fixtures/llama-server/10-chat-stream-usage.sse', import.meta.url));
const meta: RequestMeta = { seq: 0, concurrency: 1, warmup: false, targetSendNs: 0 };
const spec: RequestSpec = { endpoint: 'chat', model: 'm', prompt: 'Tell me a story.', maxTokens: 12, forceLength: false, thinking: false };

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function clientFor(handler: Parameters<typeof startServer>[0]) {
  const server = await startServer(handler);
  servers.push(server);
  return createStreamingClient({ baseUrl: server.url, apiKey: undefined }, { connections: 1 });
}

describe('the end hook', () => {
  it('hears a good end once, before the record, at the record’s end instant', async () => {
    const client = await clientFor(piecewise(stream, 7, 48));
    const heard: Array<{ endNs: number; recordYet: boolean }> = [];
    let recordYet = false;
    const sent = client.send(spec, meta, undefined, (endNs) => heard.push({ endNs, recordYet }));
    void sent.then(() => (recordYet = true));
    const r = await sent;
    expect(r.outcome.kind).toBe('ok');
    expect(heard).toEqual([{ endNs: r.endNs, recordYet: false }]);
    await client.close();
  });

  it('is not heard for a failed request', async () => {
    const client = await clientFor(scripted([{ delayMs: 0, bytes: '{"error":{"message":"boom"}}' }], { status: 500, contentType: 'application/json' }));
    const heard: number[] = [];
    const r = await client.send(spec, meta, undefined, (endNs) => heard.push(endNs));
    expect(r.outcome.kind).toBe('http-error');
    expect(heard).toEqual([]);
    await client.close();
  });

  it('sends a prepared request with the ids it was built with, at the send’s own target', async () => {
    const seen: string[] = [];
    const client = await clientFor((req, res) => {
      seen.push(String(req.headers['x-request-id']));
      return piecewise(stream, 3, 64)(req, res);
    });
    const prepared = client.prepare(spec, meta);
    const r = await client.send(prepared, { ...meta, targetSendNs: 123 });
    expect(r.requestId).toBe(prepared.meta.requestId);
    expect(seen).toEqual([prepared.meta.requestId]);
    expect(r.traceId).toBe(prepared.meta.trace?.traceId);
    expect(r.targetSendNs).toBe(123);
    await client.close();
  });
});
