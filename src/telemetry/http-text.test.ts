// A scrape is bounded by the limits table's probe response row, the figure docs/limits-and-security.md states for /metrics.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../core/index.js';
import { getText } from './http-text.js';

let server: Server;
let url = '';
beforeAll(async () => {
  const body = Buffer.alloc(LIMITS.probeResponseBytes.max + 1, 'a');
  server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(req.url === '/big' ? body : body.subarray(0, LIMITS.probeResponseBytes.max));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('getText', () => {
  it('reads a body of exactly the probe response limit and refuses one byte more', async () => {
    const atLimit = await getText(`${url}/ok`, { timeoutMs: 10_000 });
    expect(atLimit.ok && atLimit.text.length).toBe(LIMITS.probeResponseBytes.max);
    expect(await getText(`${url}/big`, { timeoutMs: 10_000 })).toEqual({
      ok: false,
      error: `the answer is larger than ${LIMITS.probeResponseBytes.max} bytes`,
    });
  });
});
