/**
 * The HTTP app: guards, the API routes and the built page. Tested in-process
 * with `app.request()`; `serve.ts` puts it on a socket.
 */
import { Hono } from 'hono';
import { ApiError, toApiError, hostGuard, originGuard, tokenGuard, type Catalog } from '../runs/index.js';
import { ingestRoutes } from './routes-ingest.js';
import { runRoutes } from './routes-runs.js';
import { serverRoutes } from './routes-servers.js';
import type { RunHub } from './run-hub.js';
import type { RunManager } from './run-manager.js';
import { bodyLimitGuard, nulGuard } from './request-limits.js';
import { staticFiles } from './static-files.js';

export interface AppDeps {
  catalog: Catalog;
  manager: RunManager;
  hub: RunHub;
  /** Required on every request when set. */
  token: string | null;
  /** Required on every write (any method but GET and HEAD) when set; defaults to `token`. */
  writeToken?: string | null;
  /** The address serve binds (decides the Host guard). */
  host: string;
  /** Directory of the built page. */
  webDir: string;
}

export function createApp(d: AppDeps): Hono {
  const app = new Hono();
  app.onError((err, c) => {
    const e = toApiError(err);
    return c.json(e.toBody(), e.status);
  });
  app.use('*', async (c, next) => {
    await next();
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer');
  });
  app.use('*', hostGuard(d.host), tokenGuard(d.token, d.writeToken === undefined ? d.token : d.writeToken), originGuard());
  app.use('/api/*', nulGuard(), bodyLimitGuard());
  // Unauthenticated on loopback: it says the API is up and nothing else (the store's location may carry a password).
  app.get('/api/health', (c) => c.json({ ok: true }));
  app.route('/api/servers', serverRoutes(d.catalog));
  app.get('/api/workers', async (c) => c.json(await d.catalog.liveWorkers()));
  app.route('/api/runs', runRoutes(d.catalog, d.manager, d.hub));
  app.route('/api/ingest/runs', ingestRoutes(d.catalog));
  app.all('/api/*', (c) => {
    throw new ApiError('not-found', `no API route ${c.req.method} ${c.req.path}`);
  });
  app.get('*', staticFiles(d.webDir));
  return app;
}
