// The measured send path's own rules, over real loopback sockets: an idle
// socket that speaks unasked is never used again (its bytes are never read as
// the next response), a header that could inject another is refused before
// anything is sent, the request goes out whole in one write, and a traced send
// keeps its breakdown in order.
import { type Server, type Socket, createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createStreamingClient } from './streaming-client.js';
import type { RequestMeta, RequestSpec } from './types.js';

const spec: RequestSpec = { endpoint: 'chat', model: 'm', prompt: 'hi', maxTokens: 4, forceLength: false, thinking: false };
const meta: RequestMeta = { seq: 0, concurrency: 1, warmup: false, targetSendNs: 0 };
const SSE =
  'data: {"choices":[{"delta":{"content":"hi"},"finish_reason":null}]}\n\n' + 'data: {"choices":[{"delta":{},"finish_reason":"length"}]}\n\ndata: [DONE]\n\n';
const RESPONSE = `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: ${Buffer.byteLength(SSE)}\r\n\r\n${SSE}`;

let servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  servers = [];
});

/** A raw server answering every request with RESPONSE; `afterFirst` runs on a socket once it answered its first. */
async function rawServer(afterFirst: (s: Socket) => void): Promise<{ url: string; sockets: Socket[]; requests: string[] }> {
  const sockets: Socket[] = [];
  const requests: string[] = [];
  const server = createServer((s) => {
    sockets.push(s);
    let buf = '';
    let answered = 0;
    s.on('data', (d) => {
      buf += d.toString('latin1');
      const head = buf.indexOf('\r\n\r\n');
      if (head === -1) return;
      const length = Number(/content-length: (\d+)/i.exec(buf.slice(0, head))?.[1] ?? 0);
      if (buf.length < head + 4 + length) return;
      requests.push(buf.slice(0, head + 4 + length));
      buf = buf.slice(head + 4 + length);
      s.write(RESPONSE);
      if (++answered === 1) afterFirst(s);
    });
    s.on('error', () => {});
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, sockets, requests };
}

describe('the HTTP/1.1 pool', () => {
  it('drops an idle socket that sends bytes nobody asked for; the next request goes on a fresh one and reads its own answer', async () => {
    const srv = await rawServer((s) => setTimeout(() => s.write('HTTP/1.1 500 Forged\r\ncontent-length: 4\r\n\r\nevil'), 20));
    const client = createStreamingClient({ baseUrl: srv.url }, { connections: 1 });
    const first = await client.send(spec, meta);
    await new Promise((r) => setTimeout(r, 120));
    const second = await client.send(spec, { ...meta, seq: 1 });
    await client.close();
    expect(first).toMatchObject({ outcome: { kind: 'ok' }, outputTokens: 1, httpStatus: 200 });
    expect(second).toMatchObject({ outcome: { kind: 'ok' }, outputTokens: 1, httpStatus: 200 });
    expect(second.clientRetry).toBeUndefined();
    expect(srv.sockets).toHaveLength(2);
  });

  it('writes the whole request with its length and id, and refuses an API key that would inject a header', async () => {
    const srv = await rawServer(() => {});
    const client = createStreamingClient({ baseUrl: srv.url, apiKey: 'k1' }, { connections: 1 });
    const r = await client.send(spec, { ...meta, requestId: 'req-7' });
    await client.close();
    expect(r.outcome.kind).toBe('ok');
    const [req] = srv.requests;
    const [head, body] = (req as string).split('\r\n\r\n') as [string, string];
    expect(head).toMatch(/^POST \/v1\/chat\/completions HTTP\/1\.1\r\nhost: 127\.0\.0\.1:\d+\r\n/);
    expect(head).toContain('\r\nauthorization: Bearer k1\r\n');
    expect(head).toContain('\r\nx-request-id: req-7\r\n');
    expect(head).toContain(`\r\ncontent-length: ${Buffer.byteLength(body)}`);
    expect(JSON.parse(body)).toMatchObject({ model: 'm', stream: true });
    expect(() => createStreamingClient({ baseUrl: srv.url, apiKey: 'k\r\nx-evil: 1' }, { connections: 1 })).toThrow(
      /header "authorization" holds a character a header cannot carry/,
    );
  });

  it('refuses a request id that could inject a header, as a failed record, never sent', async () => {
    const srv = await rawServer(() => {});
    const client = createStreamingClient({ baseUrl: srv.url }, { connections: 1 });
    const r = await client.send(spec, { ...meta, requestId: 'a\r\nx-evil: 1' });
    await client.close();
    expect(r.outcome).toMatchObject({
      kind: 'not-sent',
      code: 'ERR_REQUEST_BODY',
      message: expect.stringContaining('request id must be 1 to 256 visible ASCII characters'),
    });
    expect(srv.requests).toHaveLength(0);
  });

  it("keeps a send's breakdown only when traced: built ≤ handed over ≤ write start ≤ written ≤ response head", async () => {
    const srv = await rawServer(() => {});
    const plain = createStreamingClient({ baseUrl: srv.url }, { connections: 1 });
    const untraced = await plain.send(spec, meta);
    await plain.close();
    expect(untraced.sendTrace).toBeUndefined();
    process.env.GOODPUT_SEND_TRACE = '1';
    try {
      const client = createStreamingClient({ baseUrl: srv.url }, { connections: 1 });
      const r = await client.send(spec, meta);
      await client.close();
      const t = r.sendTrace as { builtNs: number; writeStartNs: number };
      expect(t.builtNs).toBeGreaterThan(0);
      const order = [t.builtNs, r.sendNs, t.writeStartNs, r.writtenNs as number, r.headersNs as number];
      expect([...order].sort((a, b) => a - b)).toEqual(order);
    } finally {
      delete process.env.GOODPUT_SEND_TRACE;
    }
  });
});
