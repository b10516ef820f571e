import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { preflight } from './preflight.js';
import { serverFingerprint } from './server-fingerprint.js';
import { closedPort, startServer, type TestServer } from '../test-support/scripted-server.js';

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(status: number, body: string, type = 'application/json'): Promise<TestServer> {
  const server = await startServer((_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  });
  servers.push(server);
  return server;
}

const models = JSON.stringify({
  object: 'list',
  data: [
    { id: 'qwen3-8b', object: 'model' },
    { id: 'llama-3.1-8b', object: 'model' },
  ],
});

describe('preflight', () => {
  it('finds the named model, and GETs /v1/models whether or not the base URL ends in /v1', async () => {
    const server = await serve(200, models);
    for (const baseUrl of [server.url, `${server.url}/v1/`]) {
      expect(await preflight({ baseUrl }, 'llama-3.1-8b')).toEqual({
        ok: true,
        models: ['qwen3-8b', 'llama-3.1-8b'],
        model: 'llama-3.1-8b',
        fingerprint: serverFingerprint(JSON.parse(models)),
      });
    }
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/models', '/v1/models']);
  });

  it('picks the first served model when none is given', async () => {
    const server = await serve(200, models);
    expect(await preflight({ baseUrl: server.url }, undefined)).toMatchObject({ ok: true, model: 'qwen3-8b' });
  });

  it('model-missing lists what is served', async () => {
    const server = await serve(200, models);
    const r = await preflight({ baseUrl: server.url }, 'gpt-4o');
    expect(r).toEqual({ ok: false, reason: 'model-missing', message: expect.stringContaining('it serves: qwen3-8b, llama-3.1-8b') });
    expect(r.ok ? '' : r.message).toMatch(/Name one of these with --model \(a contract's model.name\)\.$/);
    const empty = await serve(200, '{"data":[]}');
    expect(await preflight({ baseUrl: empty.url }, undefined)).toMatchObject({ ok: false, reason: 'model-missing' });
  });

  it('auth on 401 and 403, without the key in the message', async () => {
    for (const status of [401, 403]) {
      const server = await serve(status, '{"error":{"message":"Incorrect API key provided: sk-secret-123"}}');
      const r = await preflight({ baseUrl: server.url, apiKey: 'sk-secret-123' }, 'm');
      expect(r).toMatchObject({ ok: false, reason: 'auth' });
      expect(JSON.stringify(r)).not.toContain('sk-secret-123');
      expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-secret-123');
    }
  });

  it('not-openai names what was wrong', async () => {
    const cases: Array<[number, string, string, RegExp]> = [
      [404, '{"detail":"Not Found"}', 'application/json', /answered HTTP 404/],
      [200, '<!doctype html><title>Grafana</title>', 'text/html', /did not return JSON.*<!doctype html>/],
      [200, '{"models":[{"name":"x"}]}', 'application/json', /without a "data" array/],
      [200, '{"data":[{"id":"a"},{"name":"b"}]}', 'application/json', /data\[1\] has no string "id"/],
    ];
    for (const [status, body, type, message] of cases) {
      const server = await serve(status, body, type);
      expect(await preflight({ baseUrl: server.url }, undefined)).toEqual({ ok: false, reason: 'not-openai', message: expect.stringMatching(message) });
    }
  });

  it('refuses a model list past the limits table or holding terminal controls, for every caller', async () => {
    const ids = (n: number) => JSON.stringify({ data: Array.from({ length: n }, (_, i) => ({ id: `m${i}` })) });
    const cases: Array<[string, string]> = [
      [ids(10_001), 'its /v1/models data 10001 is above the limit of 10000'],
      [JSON.stringify({ data: [{ id: 'ok' }, { id: `x${'y'.repeat(1024)}` }] }), 'its /v1/models data[1].id length'],
      [JSON.stringify({ data: [{ id: 'evil\u001b[2J' }] }), 'its /v1/models data[0].id holds a control character or a line break'],
      [JSON.stringify({ data: [{ id: 'lora', parent: 'base\nFAKE' }] }), 'its /v1/models data[0].parent holds a control character or a line break'],
    ];
    for (const [body, message] of cases) {
      const server = await serve(200, body);
      const r = await preflight({ baseUrl: server.url }, undefined);
      expect(r).toMatchObject({ ok: false, reason: 'bad-model-list' });
      expect(r.ok ? '' : r.message).toContain(message);
    }
  });

  it('unreachable on a refused connection, with the URL and the system code', async () => {
    const port = await closedPort();
    const r = await preflight({ baseUrl: `http://127.0.0.1:${port}` }, 'm');
    expect(r).toEqual({
      ok: false,
      reason: 'unreachable',
      message: expect.stringContaining(`http://127.0.0.1:${port}/v1/models could not be reached (ECONNREFUSED)`),
    });
  });

  it('unreachable when the server does not answer in time', async () => {
    const server = await startServer(() => undefined);
    servers.push(server);
    const started = performance.now();
    const r = await preflight({ baseUrl: server.url }, 'm', { timeoutMs: 200 });
    expect(r).toEqual({ ok: false, reason: 'unreachable', message: expect.stringContaining('did not answer within 200 ms') });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('unreachable for a URL that is not http(s)', async () => {
    expect(await preflight({ baseUrl: 'ftp://example' }, 'm')).toMatchObject({ ok: false, reason: 'unreachable' });
  });
});
