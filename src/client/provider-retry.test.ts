// A provider that answers 429 (or 529, 503) with Retry-After: the request is sent again after the
// wait (a fake sleep here, so no test waits), its record counts from the first attempt and keeps
// every attempt; without Retry-After, past the policy or with retries off, it fails saying why.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ttftMs, type RetryPolicy } from '../core/index.js';
import { startServer, type TestServer } from '../test-support/scripted-server.js';
import { createStreamingClient } from './streaming-client.js';
import type { RequestMeta, RequestSpec } from './types.js';

const meta: RequestMeta = { seq: 0, concurrency: 1, warmup: false, targetSendNs: 0 };
const spec: RequestSpec = { endpoint: 'chat', model: 'm', prompt: 'hi', maxTokens: 8, forceLength: false, thinking: false };
const stream = [
  'data: {"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}\n\n',
  'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n',
  'data: [DONE]\n\n',
].join('');
const limits = { 'x-ratelimit-limit-requests': '60', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1s' };

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

/** Answers the first `refusals` requests with `status` and `headers`, then streams. */
async function provider(refusals: number, status: number, headers: Record<string, string>) {
  let n = 0;
  const server = await startServer((_req: IncomingMessage, res: ServerResponse) => {
    if (n++ < refusals) {
      res.writeHead(status, { 'content-type': 'application/json', ...limits, ...headers });
      return void res.end('{"error":{"message":"Rate limit reached","type":"rate_limit_error"}}');
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', ...limits, 'x-ratelimit-remaining-requests': '7' });
    res.end(stream);
  });
  servers.push(server);
  return server;
}

/** Sends once through a client whose sleep only advances a fake clock: what it waited is what the record must show. */
async function sendThrough(server: TestServer, retry?: RetryPolicy) {
  const clock = { ns: 0 };
  const waits: number[] = [];
  const client = createStreamingClient(
    { baseUrl: server.url },
    {
      connections: 1,
      clock: () => (clock.ns += 1e6),
      ...(retry ? { retry } : {}),
      sleep: async (ms) => {
        waits.push(ms);
        clock.ns += ms * 1e6;
      },
    },
  );
  const r = await client.send(spec, meta);
  await client.close();
  return { r, waits };
}

describe('retries of a rate-limited answer', () => {
  it('waits what Retry-After asks, sends again, and counts the latency from the first attempt', async () => {
    const server = await provider(2, 429, { 'retry-after': '2' });
    const { r, waits } = await sendThrough(server);
    expect(waits).toEqual([2000, 2000]);
    expect(r.outcome.kind).toBe('ok');
    expect(r.attempts?.map((a) => [a.status, a.waitMs])).toEqual([
      [429, 2000],
      [429, 2000],
    ]);
    expect(r.sendNs).toBe(r.attempts?.[0]?.sendNs);
    expect(ttftMs(r)).toBeGreaterThan(4000);
    expect(r.rateLimit).toEqual({ limitRequests: 60, remainingRequests: 7, resetRequestsMs: 1000 });
    expect(server.requests).toHaveLength(3);
    // One request to the user and to the server's log: the same id on every attempt.
    expect(new Set(server.requests.map((q) => q.headers['x-request-id'])).size).toBe(1);
  });

  it("prefers retry-after-ms, and retries Anthropic's 529 and a 503 that say when", async () => {
    const a = await sendThrough(await provider(1, 529, { 'retry-after': '3', 'retry-after-ms': '250' }));
    expect(a.waits).toEqual([250]);
    expect(a.r.attempts?.[0]?.status).toBe(529);
    const b = await sendThrough(await provider(1, 503, { 'retry-after': '1' }));
    expect(b.r).toMatchObject({ outcome: { kind: 'ok' }, attempts: [{ status: 503, waitMs: 1000 }] });
  });

  it('fails without a retry when the answer has no Retry-After, retries are off, or the wait is past the policy, saying why', async () => {
    const none = await sendThrough(await provider(1, 429, {}));
    expect(none.r.outcome).toMatchObject({ kind: 'http-error', status: 429 });
    expect((none.r.outcome as { message: string }).message).toMatch(/\(not retried: the answer has no Retry-After\)$/);
    expect(none.r.attempts).toBeUndefined();
    const off = await sendThrough(await provider(1, 429, { 'retry-after': '1' }), { retries: 0, maxWaitMs: 60_000 });
    expect((off.r.outcome as { message: string }).message).toMatch(/\(not retried \(--retry off\)\)$/);
    const long = await sendThrough(await provider(1, 429, { 'retry-after': '120' }));
    expect(long.waits).toEqual([]);
    expect((long.r.outcome as { message: string }).message).toMatch(/Retry-After 120 s is past the 60 s of waiting left/);
  });

  it('stops after its retries and keeps every attempt on the failed record', async () => {
    const { r, waits } = await sendThrough(await provider(9, 429, { 'retry-after': '1' }), { retries: 2, maxWaitMs: 60_000 });
    expect(waits).toEqual([1000, 1000]);
    expect(r.outcome).toMatchObject({ kind: 'http-error', status: 429 });
    expect(r.attempts).toHaveLength(2);
    expect((r.outcome as { message: string }).message).toMatch(/not retried again: 2 retries already \(--retry 2\)/);
  });

  it('never retries a server error', async () => {
    const { r, waits } = await sendThrough(await provider(1, 500, { 'retry-after': '1' }));
    expect(waits).toEqual([]);
    expect(r).toMatchObject({ outcome: { kind: 'http-error', status: 500 } });
    expect(r.attempts).toBeUndefined();
  });
});
