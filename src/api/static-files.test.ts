/** The page's static files: served from the folder only, and bad paths answered clearly. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { CSP, staticFiles } from './static-files.js';

const root = mkdtempSync(join(tmpdir(), 'goodput-web-'));
mkdirSync(join(root, 'assets'));
writeFileSync(join(root, 'index.html'), '<!doctype html><title>goodput</title>');
writeFileSync(join(root, 'assets', 'a b.js'), 'export {}');
afterAll(() => rmSync(root, { recursive: true, force: true }));
const app = new Hono().get('*', staticFiles(root));

describe('staticFiles', () => {
  it('serves index.html and percent-encoded asset names', async () => {
    const index = await app.request('/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toBe(CSP);
    const asset = await app.request('/assets/a%20b.js');
    expect([asset.status, await asset.text()]).toEqual([200, 'export {}']);
  });
  it('answers a malformed percent-encoding with 400 and says why, not 500', async () => {
    for (const bad of ['/%E0', '/assets/%E0%A4%A.js', '/%']) {
      const r = await app.request(bad);
      expect(r.status).toBe(400);
      expect(await r.text()).toMatch(/is not valid percent-encoding/);
    }
  });
  it('does not serve a missing file', async () => {
    expect((await app.request('/nope.js')).status).toBe(404);
  });
});
