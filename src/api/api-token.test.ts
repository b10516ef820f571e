/**
 * Bound beyond loopback, every request needs the token: 401 without it. The
 * page's cookie is named after the port, so another serve on the same host
 * never takes it for its own, and an explicit ?token= beats a stale one.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, apiHarness } from '../test-support/api-harness.js';
import { startServe } from './serve.js';

let h: ApiHarness;
beforeAll(async () => {
  h = await apiHarness({ token: 's3cret-token', host: '0.0.0.0' });
});
afterAll(async () => {
  await h.close();
});

describe('token on a non-loopback bind', () => {
  for (const [method, path] of [
    ['GET', '/api/servers'],
    ['GET', '/api/runs'],
    ['POST', '/api/runs'],
    ['GET', '/'],
    ['GET', '/api/health'],
  ] as const) {
    it(`${method} ${path} without the token is 401`, async () => {
      const r = await h.call(method, path, method === 'POST' ? { serverId: 1, levels: [1] } : undefined);
      expect(r.status).toBe(401);
      expect(r.json.error).toMatchObject({ code: 'unauthorized', message: expect.stringMatching(/Authorization: Bearer/) });
    });
  }
  it('a wrong token is 401; the right one, as a header, passes', async () => {
    expect((await h.call('GET', '/api/servers', undefined, { authorization: 'Bearer nope' })).status).toBe(401);
    expect((await h.call('GET', '/api/servers', undefined, { authorization: 'Bearer s3cret-token' })).status).toBe(200);
  });
  it('opening the page with ?token= sets a cookie named after the port, HttpOnly, SameSite=Strict, Path=/', async () => {
    const first = await h.app.request('/api/health?token=s3cret-token', { headers: { host: 'box:7878' } });
    expect(first.status).toBe(200);
    const cookie = first.headers.get('set-cookie') ?? '';
    expect(cookie.split('; ').sort()).toEqual(['HttpOnly', 'Path=/', 'SameSite=Strict', 'goodput_token_7878=s3cret-token']);
    const next = await h.app.request('/api/servers', { headers: { host: 'box:7878', cookie: cookie.split(';')[0] as string } });
    expect(next.status).toBe(200);
  });
  it("a cookie set for another port is not this server's token", async () => {
    const other = await h.app.request('/api/servers', { headers: { host: 'box:7878', cookie: 'goodput_token_9000=s3cret-token; goodput_token=s3cret-token' } });
    expect(other.status).toBe(401);
  });
  it('an explicit ?token= wins over a stale cookie, and replaces it', async () => {
    const res = await h.app.request('/?token=s3cret-token', { headers: { host: 'box:7878', cookie: 'goodput_token_7878=stale-from-an-older-serve' } });
    expect(res.status).not.toBe(401);
    expect(res.headers.get('set-cookie')).toMatch(/^goodput_token_7878=s3cret-token;/);
  });
  it('precedence is Bearer, then ?token=, then the cookie', async () => {
    const call = (headers: Record<string, string>, query = '') => h.app.request(`/api/servers${query}`, { headers: { host: 'box:7878', ...headers } });
    expect((await call({ authorization: 'Bearer s3cret-token' }, '?token=wrong')).status).toBe(200);
    expect((await call({ authorization: 'Bearer wrong' }, '?token=s3cret-token')).status).toBe(401);
    expect((await call({ cookie: 'goodput_token_7878=s3cret-token' }, '?token=wrong')).status).toBe(401);
    expect((await call({ cookie: 'goodput_token_7878=wrong' }, '?token=s3cret-token')).status).toBe(200);
  });
  it('serve refuses to bind beyond loopback without a token', async () => {
    await expect(startServe({ store: h.store, host: '0.0.0.0', port: 0 })).rejects.toThrow(/needs a token: give --token/);
  });
  it("a port in use (another person's serve on a shared host) is named with the flag that moves it", async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as AddressInfo).port;
    try {
      await expect(startServe({ store: h.store, port })).rejects.toThrow(`port ${port} on 127.0.0.1 is in use: pick another with --port`);
    } finally {
      await new Promise((r) => taken.close(r));
    }
  });
});
