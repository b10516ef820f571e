/**
 * Serves the built page (Vite's output in dist/web-app) — index.html and its
 * hashed assets — with a strict Content-Security-Policy: nothing remote.
 */
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from 'hono';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** dist/web-app, from source (tests, tsx) or from dist. */
export function defaultWebDir(): string {
  const fromSource = import.meta.url.endsWith('.ts');
  return fileURLToPath(new URL(fromSource ? '../../dist/web-app/' : '../web-app/', import.meta.url));
}

/** A handler for GET requests outside /api. */
export function staticFiles(root: string) {
  return async (c: Context) => {
    let path: string;
    try {
      path = c.req.path === '/' ? '/index.html' : decodeURIComponent(c.req.path);
    } catch {
      return c.text(`bad request: the path ${c.req.path} is not valid percent-encoding (URI malformed)`, 400);
    }
    const file = normalize(join(root, path));
    if (!file.startsWith(root.endsWith(sep) ? root : root + sep)) return c.text('not found', 404);
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      if (path === '/index.html') return c.text('The Benchmarks page is not built: run `npm run build`, then restart goodput serve.', 503);
      return c.text('not found', 404);
    }
    const hashed = path.startsWith('/assets/');
    return c.body(new Uint8Array(body), 200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
      'content-security-policy': CSP,
    });
  };
}
