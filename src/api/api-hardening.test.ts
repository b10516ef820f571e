/**
 * What a request may carry, in-process through `app.request()`: a body past
 * its limit is a 413 naming the limit (ingest has its own, larger one), a
 * write that is not JSON a 415, an id past the store's range a 404 and a NUL
 * byte a 400 (never a 500), and /api/health tells nothing about the store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../core/index.js';
import { type ApiHarness, type Json, apiHarness } from '../test-support/api-harness.js';

let h: ApiHarness;
beforeAll(async () => {
  h = await apiHarness();
});
afterAll(async () => {
  await h.close();
});

const HOST = { host: '127.0.0.1:7878' };
const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  h.app.request(path, { method: 'POST', headers: { ...HOST, 'content-type': 'application/json', ...headers }, body });

/** A body streamed in chunks with no Content-Length, as a client that lies or does not know would send it. */
function streamed(bytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(ctrl) {
      if (sent >= bytes) return ctrl.close();
      const n = Math.min(64 * 1024, bytes - sent);
      sent += n;
      ctrl.enqueue(new Uint8Array(n).fill(0x20));
    },
  });
}

describe('body limits', () => {
  it(`a body past apiBodyBytes (${LIMITS.apiBodyBytes.max}) is a 413 naming the limit, by Content-Length`, async () => {
    const res = await post('/api/servers', '{}', { 'content-length': String(LIMITS.apiBodyBytes.max + 1) });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: { code: 'too-large', field: 'body', message: `body: larger than the limit of ${LIMITS.apiBodyBytes.max} bytes in one body sent to goodput serve` },
    });
  });
  it('and counted as it streams when no Content-Length says so', async () => {
    const res = await h.app.request('/api/runs', {
      method: 'POST',
      headers: { ...HOST, 'content-type': 'application/json' },
      body: streamed(2 * LIMITS.apiBodyBytes.max),
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as Json).error.code).toBe('too-large');
  });
  it('a body just under the limit is read (and judged on its content)', async () => {
    const res = await post('/api/servers', JSON.stringify({ name: 'x'.repeat(LIMITS.apiBodyBytes.max - 100) }));
    expect(res.status).toBe(400);
  });
  it(`ingest (a level with its raw records) has its own bound, apiIngestBodyBytes (${LIMITS.apiIngestBodyBytes.max})`, async () => {
    const big = JSON.stringify({ warning: { code: 'x', message: 'y'.repeat(2 * LIMITS.apiBodyBytes.max) } });
    const res = await post('/api/ingest/runs/1/warnings', big);
    expect(res.status).toBe(404); // read and judged: no such run is being written here
    const over = await post('/api/ingest/runs/1/levels', '{}', { 'content-length': String(LIMITS.apiIngestBodyBytes.max + 1) });
    expect(over.status).toBe(413);
    expect(((await over.json()) as Json).error.message).toContain(`limit of ${LIMITS.apiIngestBodyBytes.max} bytes in one level with its raw records`);
  });
});

describe('content type on writes', () => {
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
    it(`a body sent as ${type ?? 'no type'} is a 415`, async () => {
      const res = await h.app.request('/api/servers', {
        method: 'POST',
        headers: { ...HOST, ...(type ? { 'content-type': type } : {}) },
        body: JSON.stringify({ name: 'a', baseUrl: 'http://127.0.0.1:9' }),
      });
      expect(res.status).toBe(415);
      expect(((await res.json()) as Json).error).toMatchObject({
        code: 'unsupported-media-type',
        message: expect.stringMatching(/^body: must be sent as Content-Type: application\/json/),
      });
    });
  }
  it('application/json with a charset is accepted', async () => {
    const res = await post('/api/servers', JSON.stringify({ name: 'charset', baseUrl: 'http://127.0.0.1:9' }), {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(res.status).toBe(201);
  });
});

describe('ids and NUL bytes', () => {
  for (const path of ['/api/runs/99999999999', '/api/runs/99999999999/result', '/api/runs/99999999999/records', '/api/runs/99999999999/events']) {
    it(`GET ${path} is a 404, not a 500`, async () => {
      const r = await h.call('GET', path);
      expect(r.status).toBe(404);
      expect(r.json.error.code).toBe('not-found');
    });
  }
  it('a server id past the range is a 404 naming it', async () => {
    const r = await h.call('POST', '/api/servers/99999999999/check');
    expect(r.status).toBe(404);
    expect(r.json.error.message).toBe('no server with id 99999999999 is registered');
  });
  it('an id of 400 digits is a 400', async () => {
    expect((await h.call('GET', `/api/runs/${'9'.repeat(400)}`)).status).toBe(400);
  });
  it('a NUL byte in a name or an API key is a 400 naming the field', async () => {
    const name = await h.call('POST', '/api/servers', { name: 'a\u0000b', baseUrl: 'http://127.0.0.1:9' });
    expect(name.status).toBe(400);
    expect(name.json.error).toEqual({ code: 'bad-request', field: 'name', message: 'name: must not contain a NUL byte' });
    const key = await h.call('POST', '/api/servers', { name: 'nul-key', baseUrl: 'http://127.0.0.1:9', apiKey: 'sk-\u0000' });
    expect(key.status).toBe(400);
    expect(key.json.error.field).toBe('apiKey');
  });
  it('a NUL byte in the path is a 400', async () => {
    const r = await h.call('DELETE', '/api/servers/a%00b');
    expect(r.status).toBe(400);
    expect(r.json.error.message).toBe('path: must not contain a NUL byte');
  });
});

describe('secrets in the registry and /api/health', () => {
  for (const url of ['http://user:pw@127.0.0.1:9', 'http://127.0.0.1:9/v1?api_key=sk-1', 'http://127.0.0.1:9/?token=t']) {
    it(`refuses a server URL with credentials (${url.replace(/\/\/.*@/, '//…@')}), as the sweep does`, async () => {
      const r = await h.call('POST', '/api/servers', { name: 'creds', baseUrl: url });
      expect(r.status).toBe(400);
      expect(r.json.error.field).toBe('baseUrl');
      expect(r.json.error.message).toMatch(/^baseUrl: baseUrl must not (contain a user name or password|carry a secret in its query)/);
      expect(JSON.stringify((await h.call('GET', '/api/servers')).json)).not.toContain('creds');
    });
  }
  it('/api/health says only that the API is up', async () => {
    const r = await h.call('GET', '/api/health');
    expect(r.json).toEqual({ ok: true });
  });
});
