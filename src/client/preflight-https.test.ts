/** An https:// URL against a plain-HTTP server says so and names the http:// URL to try. */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preflight } from './preflight.js';

const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"data":[{"id":"m"}]}');
});
let port = 0;
beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
);

describe('preflight over the wrong scheme', () => {
  it('https:// to a plain-HTTP server: "this server speaks plain HTTP: try http://"', async () => {
    const r = await preflight({ baseUrl: `https://127.0.0.1:${port}` }, undefined, { timeoutMs: 5000 });
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.message).toMatch(new RegExp(`this server speaks plain HTTP: try http://127\\.0\\.0\\.1:${port}$`));
    expect((await preflight({ baseUrl: `http://127.0.0.1:${port}` }, undefined)).ok).toBe(true);
  });
});
