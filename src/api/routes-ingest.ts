/**
 * `/api/ingest/runs`: how a `goodput sweep` in another process stores its run
 * while this serve holds the embedded database. Each route is one RunWriter
 * call; the run shows up live on the page like one started here.
 */
import { Hono } from 'hono';
import type { LevelResult, RequestRecord } from '../core/index.js';
import { ApiError } from './api-error.js';
import { idParam, jsonBody } from './body.js';
import type { Catalog, RunWriter } from './catalog.js';
import {
  beginRunSchema, levelBodySchema, modelBodySchema, poolingLevelBodySchema, poolingResultBodySchema, reasonBodySchema, resultBodySchema, warningBodySchema,
} from './ingest-schemas.js';

export function ingestRoutes(catalog: Catalog): Hono {
  const writers = new Map<number, RunWriter>();
  const writer = (id: number): RunWriter => {
    const w = writers.get(id);
    if (!w) throw new ApiError('not-found', `id: run ${id} is not being written through this goodput serve (it ended, or was begun elsewhere)`, 'id');
    return w;
  };
  const r = new Hono();
  r.post('/', async (c) => {
    const w = await catalog.beginRun(await jsonBody(c, beginRunSchema));
    writers.set(w.runId, w);
    return c.json({ id: w.runId }, 201);
  });
  r.post('/:id/model', async (c) => { await writer(idParam(c)).setModel((await jsonBody(c, modelBodySchema)).model); return c.body(null, 204); });
  r.post('/:id/warnings', async (c) => { await writer(idParam(c)).addWarning((await jsonBody(c, warningBodySchema)).warning); return c.body(null, 204); });
  r.post('/:id/levels', async (c) => {
    const body = await jsonBody(c, levelBodySchema);
    await writer(idParam(c)).saveLevel(body.level as LevelResult, body.records as RequestRecord[]);
    return c.body(null, 204);
  });
  r.post('/:id/pooling-levels', async (c) => {
    const body = await jsonBody(c, poolingLevelBodySchema);
    await writer(idParam(c)).savePoolingLevel(body.level, body.records);
    return c.body(null, 204);
  });
  r.post('/:id/pooling-finish', async (c) => {
    const id = idParam(c);
    await writer(id).finishPooling((await jsonBody(c, poolingResultBodySchema)).result);
    writers.delete(id);
    return c.body(null, 204);
  });
  r.post('/:id/heartbeat', async (c) => { await writer(idParam(c)).heartbeat(); return c.body(null, 204); });
  r.post('/:id/finish', async (c) => {
    const id = idParam(c);
    await writer(id).finish((await jsonBody(c, resultBodySchema)).result);
    writers.delete(id);
    return c.body(null, 204);
  });
  r.post('/:id/abandon', async (c) => {
    const id = idParam(c);
    await writer(id).abandon((await jsonBody(c, reasonBodySchema)).reason);
    writers.delete(id);
    return c.body(null, 204);
  });
  r.post('/:id/discard', async (c) => {
    const id = idParam(c);
    await writer(id).discard((await jsonBody(c, reasonBodySchema)).reason);
    writers.delete(id);
    return c.body(null, 204);
  });
  return r;
}
