// The pooling client against servers that misbehave below the answer's contract:
// a body without end, one that never comes, an error body without end, a stop.
import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../core/index.js';
import { counting, endless } from '../test-support/hostile-server.js';
import { startServer, type TestServer } from '../test-support/scripted-server.js';
import { monotonicNs } from './clock.js';
import { createPoolingClient } from './pooling-client.js';

const MiB = 1024 * 1024;
const meta = { seq: 0, concurrency: 1, warmup: false };
const payload = { endpoint: 'embeddings', inputs: ['a', 'b'] } as const;
let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function against(handler: Parameters<typeof counting>[0], opts: { timeoutMs?: number; idleMs?: number; signal?: AbortSignal } = {}) {
  const c = counting(handler);
  const server = await startServer(c.handler);
  servers.push(server);
  const client = createPoolingClient(
    { baseUrl: server.url },
    { path: '/v1/embeddings', shape: 'openai' },
    { connections: 1, clock: monotonicNs, timeoutMs: opts.timeoutMs ?? 30_000, ...(opts.idleMs === undefined ? {} : { idleMs: opts.idleMs }) },
  );
  try {
    return { r: await client.send('m', payload, meta, opts.signal), written: c.state.written };
  } finally {
    await client.close();
  }
}

describe('the pooling client against a hostile server', () => {
  it('stops reading an answer past poolingResponseBytes and names the limit', async () => {
    const { r, written } = await against(
      endless({
        contentType: 'application/json',
        head: '{"data":[{"embedding":[',
        piece: '0.125,'.repeat(16 * 1024),
        maxBytes: 2 * LIMITS.poolingResponseBytes.max,
      }),
    );
    expect(r.outcome).toEqual({
      kind: 'response-too-large',
      message: `the answer went past the limit of ${LIMITS.poolingResponseBytes.max} ${LIMITS.poolingResponseBytes.what}`,
    });
    expect(written).toBeLessThan(LIMITS.poolingResponseBytes.max + 16 * MiB);
  });

  it('keeps only the head of an endless error body', async () => {
    const { r } = await against(endless({ status: 500, contentType: 'text/plain', piece: 'e'.repeat(64 * 1024), maxBytes: 8 * MiB }));
    expect(r.outcome).toMatchObject({ kind: 'http-error', status: 500 });
  });

  it('ends a request whose answer never comes at its limit, and an aborted one as aborted', async () => {
    const silent = async () => {
      await new Promise(() => {});
    };
    const { r } = await against(silent, { timeoutMs: 300 });
    expect(r.outcome).toEqual({ kind: 'timeout', message: 'no complete answer within 300 ms' });
    const ctrl = new AbortController();
    setTimeout(() => ctrl.abort(), 50);
    const aborted = await against(silent, { signal: ctrl.signal });
    expect(aborted.r.outcome).toEqual({ kind: 'aborted' });
  });

  it('fails an answer that stalls after its first bytes at the idle limit, not the whole one, saying it went silent', async () => {
    const stalls: Parameters<typeof counting>[0] = async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[{"embedding":[0.125,');
      await new Promise(() => {});
    };
    const { r } = await against(stalls, { timeoutMs: 600_000, idleMs: 300 });
    expect(r.outcome).toEqual({ kind: 'timeout', message: 'the answer went silent: no bytes for 300 ms after its headers' });
    // Ended by the idle limit: long before the whole limit of 600 s could.
    expect(r.endNs - r.sentNs).toBeLessThan(60_000e6);
    expect(r.endNs - r.sentNs).toBeGreaterThanOrEqual(300e6);
  });

  it('warm() opens a socket with one bounded GET and never fails: an endless answer, a silent server, nobody listening', async () => {
    const c = counting(endless({ contentType: 'application/json', piece: ' '.repeat(64 * 1024), maxBytes: 4 * LIMITS.probeResponseBytes.max }));
    const server = await startServer(c.handler);
    servers.push(server);
    const route = { path: '/v1/embeddings', shape: 'openai' } as const;
    const endlessClient = createPoolingClient({ baseUrl: server.url }, route, { connections: 1, clock: monotonicNs, timeoutMs: 30_000 });
    await expect(endlessClient.warm()).resolves.toBeUndefined();
    expect(c.state.written).toBeLessThan(LIMITS.probeResponseBytes.max + 16 * MiB);
    await endlessClient.close();
    const nobody = createPoolingClient({ baseUrl: 'http://127.0.0.1:9' }, route, { connections: 1, clock: monotonicNs, timeoutMs: 30_000 });
    await expect(nobody.warm()).resolves.toBeUndefined();
    await nobody.close();
    const silent = await startServer(async () => {
      await new Promise(() => {});
    });
    servers.push(silent);
    const slow = createPoolingClient({ baseUrl: silent.url }, route, { connections: 1, clock: monotonicNs, timeoutMs: 200 });
    await expect(slow.warm()).resolves.toBeUndefined();
    await slow.close();
  });
});
