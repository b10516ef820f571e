// A request that fails on a reused keep-alive socket before any response byte
// is the client's problem (the server closed the idle socket): it is sent once
// more on a fresh connection and its record says so. A failure on a fresh
// socket, or after response bytes, is the server's and is never retried.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { summarizeLevel } from '../core/index.js';
import { createStreamingClient } from './streaming-client.js';
import { startServer, type TestServer } from '../test-support/scripted-server.js';
import type { RequestMeta, RequestSpec } from './types.js';

const meta: RequestMeta = { seq: 0, concurrency: 1, warmup: false, targetSendNs: 0 };
const spec: RequestSpec = { endpoint: 'chat', model: 'm', prompt: 'hi', maxTokens: 8, forceLength: false, thinking: false };
const stream = [
  'data: {"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}\n\n',
  'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n',
  'data: [DONE]\n\n',
].join('');

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

/** Answers the first request of each socket; what it does with later ones is `later`. */
function perSocket(later: 'destroy' | 'answer-then-destroy' | 'answer') {
  const served = new WeakMap<Socket, number>();
  return (req: IncomingMessage, res: ServerResponse) => {
    const n = served.get(req.socket) ?? 0;
    served.set(req.socket, n + 1);
    if (n > 0 && later === 'destroy') return void req.socket.destroy();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (n > 0 && later === 'answer-then-destroy') {
      res.write(stream.slice(0, 40));
      setTimeout(() => req.socket.destroy(), 20);
      return;
    }
    res.end(stream);
  };
}

async function twoInARow(later: Parameters<typeof perSocket>[0]) {
  const server = await startServer(perSocket(later));
  servers.push(server);
  const client = createStreamingClient({ baseUrl: server.url }, { connections: 1 });
  const first = await client.send(spec, meta);
  const second = await client.send(spec, { ...meta, seq: 1 });
  await client.close();
  return { first, second, requests: server.requests.length };
}

describe('retry on a reused keep-alive socket', () => {
  it('retries once on a fresh connection when the reused socket closes before any byte, and records it', async () => {
    const { first, second, requests } = await twoInARow('destroy');
    expect(first.outcome.kind).toBe('ok');
    expect(first.clientRetry).toBeUndefined();
    expect(second).toMatchObject({ outcome: { kind: 'ok' }, clientRetry: true, outputTokens: 1 });
    expect(requests).toBe(3);
    const level = summarizeLevel({
      concurrency: 1,
      records: [first, second],
      targetOutputTokens: 8,
      forceLength: false,
      loopDelayMs: null,
      clientCpuPct: null,
      clientBudgetMs: 10,
      gpu: { available: false, source: 'not available', reason: 'test' },
    });
    expect(level).toMatchObject({ clientRetries: 1, failed: 0, invalid: false });
  });

  it('does not retry once response bytes arrived on the reused socket', async () => {
    const { second, requests } = await twoInARow('answer-then-destroy');
    expect(second.outcome.kind).not.toBe('ok');
    expect(second.clientRetry).toBeUndefined();
    expect(requests).toBe(2);
  });

  it('does not retry a failure on a fresh socket', async () => {
    const server = await startServer((req) => void req.socket.destroy());
    servers.push(server);
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 1 });
    const r = await client.send(spec, meta);
    await client.close();
    expect(r.outcome.kind).toBe('connection-error');
    expect(r.clientRetry).toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });

  it("keeps the retry's own failure, marked as a retry, when the fresh connection fails too", async () => {
    let n = 0;
    const server = await startServer((req, res) => {
      if (n++ === 0) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return void res.end(stream);
      }
      req.socket.destroy();
    });
    servers.push(server);
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 1 });
    await client.send(spec, meta);
    const r = await client.send(spec, { ...meta, seq: 1 });
    await client.close();
    expect(r).toMatchObject({ outcome: { kind: 'connection-error' }, clientRetry: true });
    expect(server.requests).toHaveLength(3);
  });

  it('learns a server that closes every connection after its response (as llama.cpp streams do) and stops reusing sockets', async () => {
    const server = await startServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'keep-alive': 'timeout=5, max=100' });
      res.end(stream, () => req.socket.end());
    });
    servers.push(server);
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 1 });
    const records = [];
    for (let seq = 0; seq < 10; seq++) records.push(await client.send(spec, { ...meta, seq }));
    await client.close();
    expect(records.map((r) => r.outcome.kind)).toEqual(Array(10).fill('ok'));
    // Two reuses (of the sockets the 1st and 3rd requests find) meet a closed socket and are sent again; after that
    // every request opens its own connection.
    expect(records.filter((r) => r.clientRetry === true).map((r) => r.seq)).toEqual([1, 3]);
    expect(server.requests).toHaveLength(12);
  });

  it('keeps reusing sockets when a server closes one idle socket now and then', async () => {
    const served = new WeakMap<Socket, number>();
    let closed = 0;
    const server = await startServer((req, res) => {
      const n = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, n);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // One socket in the run is closed after its fourth answer: an idle timeout, not the server's habit.
      res.end(stream, () => n === 4 && closed++ === 0 && req.socket.end());
    });
    servers.push(server);
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 1 });
    const records = [];
    for (let seq = 0; seq < 12; seq++) records.push(await client.send(spec, { ...meta, seq }));
    await client.close();
    expect(records.filter((r) => r.clientRetry === true)).toHaveLength(1);
    expect(server.requests).toHaveLength(13);
  });
});
