/**
 * `goodput serve` on loopback without --token: reads stay open, but every write
 * needs the key serve made at start (any local process can reach a loopback port).
 * The page gets the key as a cookie when opened as serve printed it.
 */
import { mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, apiHarness } from '../test-support/api-harness.js';
import { openStore } from '../store/index.js';
import { startServe } from './serve.js';

const KEY = 'write-key-made-at-start';
let h: ApiHarness;
beforeAll(async () => {
  h = await apiHarness({ writeToken: KEY });
});
afterAll(async () => {
  await h.close();
});

describe('writes on a loopback serve without --token', () => {
  it('reads need no key', async () => {
    for (const path of ['/api/runs', '/api/servers', '/api/health']) expect((await h.call('GET', path)).status).toBe(200);
  });

  it('every write without the key is 401, saying where the key is; with it the write is taken', async () => {
    for (const [method, path] of [
      ['POST', '/api/ingest/runs'],
      ['POST', '/api/servers'],
      ['POST', '/api/runs'],
      ['DELETE', '/api/servers/1'],
      ['POST', '/api/servers/check'],
    ] as const) {
      const r = await h.call(method, path, {});
      expect(r.status, `${method} ${path}`).toBe(401);
      expect(r.json.error.message).toMatch(/^writes to this goodput serve need its key: open the page as goodput serve printed it/);
      expect((await h.call(method, path, {}, { authorization: 'Bearer wrong' })).status).toBe(401);
    }
    expect((await h.call('POST', '/api/servers', { name: 'sim', baseUrl: h.sim.url }, { authorization: `Bearer ${KEY}` })).status).toBe(201);
  });

  it("opening the page with ?token=<key> leaves the key as a cookie the page's writes carry", async () => {
    const opened = await h.app.request(`/?token=${KEY}`, { headers: { host: '127.0.0.1:7878' } });
    const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect(cookie).toBe(`goodput_token_7878=${KEY}`);
    expect((await h.call('POST', '/api/servers/check', undefined, { cookie })).status).toBe(200);
    // A wrong ?token= sets no cookie.
    expect((await h.app.request('/?token=guess', { headers: { host: '127.0.0.1:7878' } })).headers.get('set-cookie')).toBeNull();
  });
});

describe('startServe', () => {
  const dir = mkdtempSync(join(tmpdir(), 'goodput-write-key-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("makes a fresh key, prints it only in the page address, and leaves it for this user's commands in the 0600 lock file", async () => {
    const data = join(dir, 'data');
    const store = await openStore({ kind: 'embedded', dir: data }, { kind: 'serve', command: 'goodput serve' });
    const serving = await startServe({ store, port: 0, webDir: '/nonexistent' });
    try {
      expect(serving.writeToken.length).toBeGreaterThanOrEqual(32);
      expect(serving.pageUrl).toBe(`${serving.url}?token=${serving.writeToken}`);
      expect(statSync(`${data}.lock`).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(`${data}.lock`, 'utf8'))).toMatchObject({ kind: 'serve', token: serving.writeToken });
      const post = (auth: Record<string, string>) =>
        fetch(`${serving.url}api/ingest/runs`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: '{}' });
      expect((await post({})).status).toBe(401);
      expect((await post({ authorization: `Bearer ${serving.writeToken}` })).status).toBe(400);
      expect((await fetch(`${serving.url}api/runs`)).status).toBe(200);
    } finally {
      await serving.close();
      await store.close();
    }
  });
});
