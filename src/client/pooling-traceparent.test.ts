/**
 * Embeddings and rerank requests carry a W3C traceparent as text requests do:
 * the server sees the ids the record keeps, a fresh trace per request, the same
 * header on every retry; turned off, or given by the user, none of ours is sent
 * and no ids are recorded. The records pass the schema files carry.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type PoolingRecord, poolingRecordSchema } from '../core/index.js';
import { startServer, type TestServer } from '../test-support/scripted-server.js';
import { type PoolingClientOptions, createPoolingClient } from './pooling-client.js';

const meta = { seq: 0, concurrency: 1, warmup: false };
const embed = JSON.stringify({ data: [{ embedding: [0.5, 0.25] }], usage: { prompt_tokens: 2 } });
const rank = JSON.stringify({ results: [{ index: 0, relevance_score: 0.9 }] });

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

/** A server that keeps every request's traceparent (undefined when none came), refusing the first `refusals` with a 429 and Retry-After 1. */
async function recording(body: string, refusals = 0) {
  const seen: Array<string | undefined> = [];
  const server = await startServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(req.headers['traceparent'] as string | undefined);
    if (seen.length <= refusals) {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      return void res.end('{"error":{"message":"slow down"}}');
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  servers.push(server);
  return { server, seen };
}

async function send(
  server: TestServer,
  route: { path: string; shape: 'openai' | 'rerank' },
  o: Partial<PoolingClientOptions> = {},
  headers: Record<string, string> = {},
): Promise<PoolingRecord[]> {
  let ns = 0;
  const client = createPoolingClient({ baseUrl: server.url, headers: Object.entries(headers).map(([name, value]) => ({ name, value })) }, route, {
    connections: 1,
    clock: () => (ns += 1e6),
    timeoutMs: 5000,
    sleep: async () => {},
    ...o,
  });
  try {
    const payload =
      route.shape === 'rerank' ? ({ endpoint: 'rerank', query: 'q', documents: ['d'] } as const) : ({ endpoint: 'embeddings', inputs: ['a'] } as const);
    return [await client.send('m', payload, meta), await client.send('m', payload, { ...meta, seq: 1 })];
  } finally {
    await client.close();
  }
}

const header = (r: PoolingRecord) => `00-${r.traceId}-${r.spanId}-01`;

describe('traceparent on pooling requests', () => {
  it('embeddings: the server sees the ids each record keeps, a fresh trace per request', async () => {
    const { server, seen } = await recording(embed);
    const records = await send(server, { path: '/v1/embeddings', shape: 'openai' });
    expect(records.map((r) => r.outcome.kind)).toEqual(['ok', 'ok']);
    for (const r of records) {
      expect(r.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(r.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(poolingRecordSchema.safeParse(r).success).toBe(true);
    }
    expect(seen).toEqual(records.map(header));
    expect(records[0]?.traceId).not.toBe(records[1]?.traceId);
  });

  it('rerank: every retry of a request carries its one traceparent', async () => {
    const { server, seen } = await recording(rank, 2);
    const [first] = await send(server, { path: '/v1/rerank', shape: 'rerank' });
    expect(first?.attempts).toHaveLength(2);
    expect(seen.slice(0, 3)).toEqual([first, first, first].map((r) => header(r as PoolingRecord)));
  });

  it('sends none and records none when turned off, and sends a user-given one as given', async () => {
    const off = await recording(embed);
    const records = await send(off.server, { path: '/v1/embeddings', shape: 'openai' }, { traceparent: false });
    expect(off.seen).toEqual([undefined, undefined]);
    expect(records.map((r) => [r.traceId, r.spanId])).toEqual([
      [undefined, undefined],
      [undefined, undefined],
    ]);
    const given = await recording(embed);
    const mine = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const theirs = await send(given.server, { path: '/v1/embeddings', shape: 'openai' }, {}, { traceparent: mine });
    expect(given.seen).toEqual([mine, mine]);
    expect(theirs[0]?.traceId).toBeUndefined();
  });
});
