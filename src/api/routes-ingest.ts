/**
 * `/api/ingest/runs`: how a `goodput sweep` in another process stores its run
 * while this serve holds the embedded database. Each route is one RunWriter
 * call; the run shows up live on the page like one started here.
 */
import { Hono } from 'hono';
import type { LevelResult, RequestRecord } from '../core/index.js';
import { ApiError, idParam, jsonBody, type Catalog, type RunWriter } from '../runs/index.js';
import {
  beginRunSchema,
  levelBodySchema,
  modelBodySchema,
  poolingLevelBodySchema,
  poolingResultBodySchema,
  reasonBodySchema,
  resultBodySchema,
  warningBodySchema,
} from './ingest-schemas.js';

/** The figures a stored level and a result's level must agree on. */
const figures = (l: LevelResult) =>
  `concurrency ${l.concurrency}, ${l.requests} requests, ${l.succeeded} succeeded, ${l.failed} failed, ${l.throughputTokS} tok/s`;

/** Why a finished run's levels are not the levels stored with their records (in any order), or null. */
function resultLevelsProblem(claimed: readonly LevelResult[], stored: readonly LevelResult[]): string | null {
  if (claimed.length !== stored.length) return `the result has ${claimed.length} levels; ${stored.length} were stored with their records`;
  const left = stored.map(figures);
  for (const l of claimed) {
    const k = left.indexOf(figures(l));
    if (k === -1) return `a level of ${figures(l)} is not one stored with its records`;
    left.splice(k, 1);
  }
  return null;
}

export function ingestRoutes(catalog: Catalog): Hono {
  const writers = new Map<number, RunWriter>();
  const writer = (id: number): RunWriter => {
    const w = writers.get(id);
    if (!w) throw new ApiError('not-found', `id: run ${id} is not being written through this goodput serve (it ended, or was begun elsewhere)`, 'id');
    return w;
  };
  /** The levels stored through each writer: a result may claim only those. */
  const stored = new Map<number, LevelResult[]>();
  const r = new Hono();
  r.post('/', async (c) => {
    const w = await catalog.beginRun(await jsonBody(c, beginRunSchema));
    writers.set(w.runId, w);
    return c.json({ id: w.runId }, 201);
  });
  r.post('/:id/model', async (c) => {
    await writer(idParam(c)).setModel((await jsonBody(c, modelBodySchema)).model);
    return c.body(null, 204);
  });
  r.post('/:id/warnings', async (c) => {
    await writer(idParam(c)).addWarning((await jsonBody(c, warningBodySchema)).warning);
    return c.body(null, 204);
  });
  r.post('/:id/levels', async (c) => {
    const id = idParam(c);
    const body = await jsonBody(c, levelBodySchema);
    await writer(id).saveLevel(body.level as LevelResult, body.records as RequestRecord[]);
    stored.set(id, [...(stored.get(id) ?? []), body.level as LevelResult]);
    return c.body(null, 204);
  });
  r.post('/:id/pooling-levels', async (c) => {
    const body = await jsonBody(c, poolingLevelBodySchema);
    await writer(idParam(c)).saveLevel(body.level, body.records);
    return c.body(null, 204);
  });
  r.post('/:id/pooling-finish', async (c) => {
    const id = idParam(c);
    await writer(id).finish((await jsonBody(c, poolingResultBodySchema)).result);
    writers.delete(id);
    return c.body(null, 204);
  });
  r.post('/:id/heartbeat', async (c) => {
    await writer(idParam(c)).heartbeat();
    return c.body(null, 204);
  });
  r.post('/:id/finish', async (c) => {
    const id = idParam(c);
    const w = writer(id);
    const { result } = await jsonBody(c, resultBodySchema);
    const problem = resultLevelsProblem(result.levels, stored.get(id) ?? []);
    if (problem !== null) throw new ApiError('bad-request', `result.levels: ${problem}`, 'result.levels');
    await w.finish(result);
    writers.delete(id);
    stored.delete(id);
    return c.body(null, 204);
  });
  r.post('/:id/abandon', async (c) => {
    const id = idParam(c);
    await writer(id).abandon((await jsonBody(c, reasonBodySchema)).reason);
    writers.delete(id);
    stored.delete(id);
    return c.body(null, 204);
  });
  r.post('/:id/discard', async (c) => {
    const id = idParam(c);
    await writer(id).discard((await jsonBody(c, reasonBodySchema)).reason);
    writers.delete(id);
    stored.delete(id);
    return c.body(null, 204);
  });
  return r;
}
