/**
 * The pooling client against llama-server's answers, recorded from a real
 * build and served byte for byte on loopback (fixtures/llama-server/README.md):
 * embeddings, embeddings switched off (501), embeddings without pooling (400), and rerank, through the llama.cpp
 * dialect's routes.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { monotonicNs } from './clock.js';
import { llamacpp } from './dialects/llamacpp.js';
import { type PoolingPayload, createPoolingClient, poolingRoute } from './pooling-client.js';

/** The raw HTTP response of a fixture (from its status line on) and the request body it answered. */
function fixture(name: string): { response: Buffer; request: unknown } {
  const text = readFileSync(new URL(`./fixtures/llama-server/${name}`, import.meta.url), 'latin1');
  const at = text.indexOf('HTTP/1.1 ');
  const request = JSON.parse(/^request body: (.*)$/m.exec(text)?.[1] ?? 'null') as unknown;
  return { response: Buffer.from(text.slice(at), 'latin1'), request };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** Answers every request on a connection with `response`, once its head and body have arrived. */
async function serve(response: Buffer, seen: string[]): Promise<string> {
  const server = createServer((socket) => {
    let got = '';
    socket.on('data', (d) => {
      got += d.toString('latin1');
      const end = got.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(got)?.[1] ?? 0);
      if (end >= 0 && got.length >= end + 4 + length) {
        seen.push(got);
        got = '';
        socket.write(response);
      }
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function send(name: string, endpoint: 'embeddings' | 'rerank', payload: PoolingPayload) {
  const { response, request } = fixture(name);
  const seen: string[] = [];
  const url = await serve(response, seen);
  const route = poolingRoute(llamacpp.pooling, endpoint);
  if (route === null) throw new Error('llama.cpp serves both');
  const client = createPoolingClient({ baseUrl: url }, route, { connections: 1, clock: monotonicNs, timeoutMs: 5000 });
  try {
    const record = await client.send('stories260K', payload, { seq: 0, concurrency: 1, warmup: false });
    const body = seen[0]?.slice((seen[0]?.indexOf('\r\n\r\n') ?? 0) + 4);
    return { record, sentBody: JSON.parse(body ?? 'null') as unknown, request, head: seen[0]?.split('\r\n')[0] };
  } finally {
    await client.close();
  }
}

describe('llama-server embeddings and rerank (recorded)', () => {
  it('/v1/embeddings: two vectors of 64 numbers, usage.prompt_tokens read; the request is the one the transcript shows', async () => {
    const r = await send('30-embeddings.http', 'embeddings', { endpoint: 'embeddings', inputs: ['Once upon a time there was', 'a little dog named Max'] });
    expect(r.head).toBe('POST /v1/embeddings HTTP/1.1');
    expect(r.sentBody).toEqual(r.request);
    expect(r.record).toMatchObject({ items: 2, dimension: 64, inputTokens: 16, outcome: { kind: 'ok' } });
  });

  it("without --embeddings: HTTP 501 with llama-server's own message", async () => {
    const r = await send('31-embeddings-disabled.http', 'embeddings', { endpoint: 'embeddings', inputs: ['Once upon a time'] });
    expect(r.record.outcome).toEqual({ kind: 'http-error', status: 501, message: 'This server does not support embeddings. Start it with `--embeddings`' });
  });

  it("with --embeddings but no --pooling: HTTP 400 with llama-server's reason, which the dialect's hint answers", async () => {
    const r = await send('33-embeddings-no-pooling.http', 'embeddings', {
      endpoint: 'embeddings',
      inputs: ['Once upon a time there was', 'a little dog named Max'],
    });
    expect(r.sentBody).toEqual(r.request);
    const message = "Pooling type 'none' is not OAI compatible. Please use a different pooling type";
    expect(r.record.outcome).toEqual({ kind: 'http-error', status: 400, message });
    expect(llamacpp.pooling.refusalHints?.find((h) => h.when.test(message))?.hint).toBe('start llama-server with --pooling mean (or cls, last)');
  });

  it('/v1/rerank: every document scored once (sorted by score, as llama-server answers), usage read', async () => {
    const r = await send('32-rerank.http', 'rerank', {
      endpoint: 'rerank',
      query: 'a dog',
      documents: ['The sun was hot.', 'Tim had a red ball.', 'Max the dog ran home.'],
    });
    expect(r.head).toBe('POST /v1/rerank HTTP/1.1');
    expect(r.sentBody).toEqual(r.request);
    expect(r.record).toMatchObject({ items: 3, dimension: null, inputTokens: 39, outcome: { kind: 'ok' } });
  });

  it('the same answer for more inputs than it holds fails, naming the counts', async () => {
    const r = await send('30-embeddings.http', 'embeddings', { endpoint: 'embeddings', inputs: ['a', 'b', 'c'] });
    expect(r.record.outcome).toEqual({ kind: 'bad-answer', message: '2 vectors came back for 3 inputs' });
  });
});
