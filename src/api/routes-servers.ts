/** `/api/servers`: the registry. Views never carry an API key. */
import { Hono } from 'hono';
import { serverInputSchema } from '../store/index.js';
import { jsonBody, type Catalog } from '../runs/index.js';

export function serverRoutes(catalog: Catalog): Hono {
  const r = new Hono();
  r.get('/', async (c) => c.json(await catalog.listServers()));
  r.post('/', async (c) => c.json(await catalog.addServer(await jsonBody(c, serverInputSchema)), 201));
  r.post('/check', async (c) => c.json(await catalog.checkAllServers()));
  r.post('/:ref/check', async (c) => c.json(await catalog.checkServer(c.req.param('ref'))));
  r.delete('/:ref', async (c) => c.json(await catalog.removeServer(c.req.param('ref'))));
  return r;
}
