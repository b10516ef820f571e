// The measured send path over TLS, against a real https server on loopback
// (a self-signed certificate for 127.0.0.1 kept in fixtures/tls): hosted APIs
// are https, and this path does its own handshake instead of undici's.
import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { H1Pool, type H1Handler } from './h1-pool.js';
import { createStreamingClient } from './streaming-client.js';
import type { RequestMeta, RequestSpec } from './types.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/tls/${name}`, import.meta.url), 'utf8');
const cert = fixture('localhost-cert.pem');
const SSE = 'data: {"choices":[{"delta":{"content":"hi"},"finish_reason":null}]}\n\ndata: [DONE]\n\n';

let server: Server;
let origin = '';
const requests: string[] = [];
beforeAll(async () => {
  server = createServer({ key: fixture('localhost-key.pem'), cert }, (req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => {
      body += d.toString();
    });
    req.on('end', () => {
      requests.push(`${req.method} ${req.url} ${body}`);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(SSE);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(
  () =>
    new Promise((r) => {
      server.closeAllConnections();
      server.close(r);
    }),
);

/** Sends one POST through `pool` and resolves with what its handler heard. */
function send(pool: H1Pool, n: number): Promise<{ status: number; body: string } | { error: Error & { code?: string } }> {
  const body = JSON.stringify({ n });
  return new Promise((resolve) => {
    let status = 0;
    let text = '';
    const handler: H1Handler = {
      onRequestStart: () => {},
      onResponseStart: (_c, s) => {
        status = s;
      },
      onResponseData: (_c, chunk) => {
        text += chunk.toString();
      },
      onResponseEnd: () => resolve({ status, body: text }),
      onResponseError: (_c, error) => resolve({ error }),
    };
    const head = `POST /v1/chat/completions HTTP/1.1\r\nhost: ${pool.hostHeader}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`;
    pool.dispatch({ method: 'POST', wire: head + body }, handler);
  });
}

describe('the HTTP/1.1 pool over TLS', () => {
  it('handshakes before the level, then streams several requests over the same warmed sockets', async () => {
    const pool = new H1Pool(origin, { connections: 2, connectMs: 5_000, headersMs: 5_000, idleMs: 5_000, ca: cert });
    expect(await pool.warm(2)).toBe(2);
    const answers = await Promise.all([1, 2, 3, 4].map((n) => send(pool, n)));
    pool.close();
    for (const a of answers) expect(a).toEqual({ status: 200, body: SSE });
    expect(requests.filter((r) => r.startsWith('POST /v1/chat/completions {"n":'))).toHaveLength(4);
  });

  it('refuses a certificate nobody vouches for: the request fails in its connect phase with the TLS reason, nothing is sent', async () => {
    const before = requests.length;
    const client = createStreamingClient({ baseUrl: origin }, { connections: 1 });
    const spec: RequestSpec = { endpoint: 'chat', model: 'm', prompt: 'hi', maxTokens: 4, forceLength: false, thinking: false };
    const meta: RequestMeta = { seq: 0, concurrency: 1, warmup: false, targetSendNs: 0 };
    const record = await client.send(spec, meta);
    await client.close();
    expect(record.outcome).toMatchObject({ kind: 'connection-error', phase: 'connect' });
    expect(JSON.stringify(record.outcome)).toMatch(/SELF_SIGNED|self.signed/i);
    expect(requests.length).toBe(before);
  });
});
