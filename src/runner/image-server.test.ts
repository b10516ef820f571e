/**
 * goodput's image server on its own: it serves exactly the level's images under
 * its secret prefix, refuses other paths, hosts and methods, and is gone once closed.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { imageFiles } from './image-pool.js';
import { startImageServer } from './image-server.js';

/** A raw request (any Host header, any method) and the status and body it got. */
function ask(url: string, opts: { method?: string; host?: string } = {}): Promise<{ status: number; body: Buffer; type: string | undefined }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: opts.method ?? 'GET', headers: { host: opts.host ?? u.host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), type: res.headers['content-type'] }));
    });
    req.on('error', reject);
    req.end();
  });
}

const images = { perRequest: 2, width: 64, height: 48, format: 'jpeg' as const, delivery: 'url' as const };

describe('the image server', () => {
  it("serves the level's images, byte for byte, under a secret prefix on 127.0.0.1", async () => {
    const server = await startImageServer(null);
    try {
      expect(server.servedAt).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}$/);
      server.serveLevel(images, 42, 5, 3);
      const files = imageFiles(images, 42, 5, 3);
      expect(files.map((f) => f.index)).toEqual([10, 11, 12, 13, 14, 15]);
      const got = await ask(`${server.servedAt}/12.jpg`);
      expect(got).toMatchObject({ status: 200, type: 'image/jpeg' });
      expect(got.body.equals(files[2]?.file as Buffer)).toBe(true);
      expect(server.served).toBe(1);
      // The next level replaces the files: the last level's are gone.
      server.serveLevel(images, 42, 8, 1);
      expect((await ask(`${server.servedAt}/12.jpg`)).status).toBe(404);
      expect((await ask(`${server.servedAt}/16.jpg`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('refuses other paths, other hosts and other methods, saying nothing of what exists', async () => {
    const server = await startImageServer(null);
    try {
      server.serveLevel(images, 1, 0, 1);
      const root = new URL(server.servedAt);
      const cases: Array<[string, Parameters<typeof ask>[1], number]> = [
        [`${root.origin}/0.jpg`, {}, 404],
        [`${root.origin}/${'0'.repeat(32)}/0.jpg`, {}, 404],
        [`${server.servedAt}/0.png`, {}, 404],
        [`${server.servedAt}/9.jpg`, {}, 404],
        [`${server.servedAt}/../0.jpg`, {}, 404],
        [`${server.servedAt}/0.jpg`, { host: 'evil.example' }, 421],
        [`${server.servedAt}/0.jpg`, { host: `localhost:${root.port}` }, 421],
        [`${server.servedAt}/0.jpg`, { method: 'POST' }, 405],
        [`${server.servedAt}/0.jpg`, { method: 'HEAD' }, 405],
        [`${server.servedAt}/0.jpg`, { method: 'DELETE' }, 405],
      ];
      for (const [url, opts, status] of cases) {
        const got = await ask(url, opts);
        expect({ url, opts, status: got.status }).toEqual({ url, opts, status });
        if (opts?.method !== 'HEAD') expect(got.body.toString()).toBe(`${status}\n`);
      }
      expect((await ask(`${server.servedAt}/0.jpg`)).status).toBe(200);
      expect(server.served).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('listens on the address it is given, answering only that Host, and refuses connections once closed', async () => {
    const first = await startImageServer(null);
    const port = Number(new URL(first.servedAt).port);
    await first.close();
    await expect(ask(`${first.servedAt}/0.jpg`)).rejects.toThrow(/ECONNREFUSED/);
    const given = await startImageServer(`http://127.0.0.1:${port}`);
    try {
      expect(given.servedAt.startsWith(`http://127.0.0.1:${port}/`)).toBe(true);
      given.serveLevel(images, 1, 0, 1);
      expect((await ask(`${given.servedAt}/1.jpg`)).status).toBe(200);
    } finally {
      await given.close();
    }
  });
});
