// An embeddings or rerank request a provider refused for now (429, 529, 503 with Retry-After) is sent
// again by the streamed requests' own loop and policy: its record counts from the first attempt and
// keeps every attempt; without Retry-After, past the policy or with retries off, it fails saying why.
// The sleep only advances a fake clock, so no test waits; the records pass the schema files carry.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type RetryPolicy, poolingRecordSchema } from '../core/index.js';
import { startServer, type TestServer } from '../test-support/scripted-server.js';
import { createPoolingClient } from './pooling-client.js';

const meta = { seq: 0, concurrency: 1, warmup: false };
const payload = { endpoint: 'embeddings', inputs: ['a', 'b'] } as const;
const answer = JSON.stringify({ data: [{ embedding: [0.5, 0.25] }, { embedding: [0.125, 1] }], usage: { prompt_tokens: 2 } });

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

/** Answers the first `refusals` requests with `status` and `headers`, then embeds. */
async function provider(refusals: number, status: number, headers: Record<string, string>) {
  let n = 0;
  const server = await startServer((_req: IncomingMessage, res: ServerResponse) => {
    if (n++ < refusals) {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      return void res.end('{"error":{"message":"Rate limit reached","type":"rate_limit_error"}}');
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(answer);
  });
  servers.push(server);
  return { server, asked: () => n };
}

async function sendThrough(server: TestServer, retry?: RetryPolicy) {
  const clock = { ns: 0 };
  const waits: number[] = [];
  const client = createPoolingClient(
    { baseUrl: server.url },
    { path: '/v1/embeddings', shape: 'openai' },
    {
      connections: 1,
      clock: () => (clock.ns += 1e6),
      timeoutMs: 5000,
      ...(retry ? { retry } : {}),
      sleep: async (ms) => {
        waits.push(ms);
        clock.ns += ms * 1e6;
      },
    },
  );
  try {
    return { r: await client.send('m', payload, meta), waits };
  } finally {
    await client.close();
  }
}

describe('an embeddings request the provider refused for now', () => {
  it('is sent again after each Retry-After; its latency counts from the first attempt, every attempt kept', async () => {
    const { server, asked } = await provider(2, 429, { 'retry-after': '2' });
    const { r, waits } = await sendThrough(server);
    expect(asked()).toBe(3);
    expect(waits).toEqual([2000, 2000]);
    expect(r.outcome).toEqual({ kind: 'ok' });
    expect(r.dimension).toBe(2);
    expect(r.attempts?.map((a) => [a.status, a.waitMs])).toEqual([
      [429, 2000],
      [429, 2000],
    ]);
    // Counted from the first send: the two waits are inside the latency the user felt.
    expect(r.sentNs).toBe(r.attempts?.[0]?.sendNs);
    expect((r.endNs - r.sentNs) / 1e6).toBeGreaterThan(4000);
    expect(poolingRecordSchema.safeParse(r).success).toBe(true);
  });

  it('529 and 503 with retry-after-ms are retried the same way', async () => {
    for (const status of [529, 503]) {
      const { server } = await provider(1, status, { 'retry-after-ms': '250' });
      const { r, waits } = await sendThrough(server);
      expect(waits).toEqual([250]);
      expect(r.outcome).toEqual({ kind: 'ok' });
      expect(r.attempts).toHaveLength(1);
    }
  });

  it('without Retry-After, with retries off or past the longest wait, fails once, saying why', async () => {
    const bare = await provider(5, 429, {});
    const none = await sendThrough(bare.server);
    expect(bare.asked()).toBe(1);
    expect(none.r.outcome).toMatchObject({ kind: 'http-error', status: 429 });
    expect(none.r).not.toHaveProperty('attempts');
    expect((none.r.outcome as { message: string }).message).toMatch(/\(not retried: .*Retry-After/);

    const off = await provider(5, 429, { 'retry-after': '1' });
    const offR = await sendThrough(off.server, { retries: 0, maxWaitMs: 60_000 });
    expect(off.asked()).toBe(1);
    expect(offR.waits).toEqual([]);
    expect(offR.r.outcome).toMatchObject({ kind: 'http-error', status: 429 });

    const long = await provider(5, 429, { 'retry-after': '30' });
    const longR = await sendThrough(long.server, { retries: 3, maxWaitMs: 10_000 });
    expect(long.asked()).toBe(1);
    expect(longR.r.outcome).toMatchObject({ kind: 'http-error', status: 429 });
  });
});
