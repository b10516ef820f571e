/**
 * `/api/runs`: the history, one run, its result and records, Start, Stop and
 * the live event stream (SSE).
 */
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { ApiError, idParam, jsonBody, type Catalog, type LiveEvent } from '../runs/index.js';
import type { RunHub } from './run-hub.js';
import type { RunManager } from './run-manager.js';
import { startRunSchema } from './start-run-schema.js';

/** A comment line every this often keeps proxies from closing an idle stream, ms. */
const KEEPALIVE_MS = 15_000;
/** How often a run of another process is re-read from the store, ms. */
const POLL_MS = 2_000;

/** Sends the levels and the end of a run that another process writes, as the store shows them. */
async function followStored(catalog: Catalog, id: number, push: (e: LiveEvent) => void, closed: () => boolean): Promise<void> {
  const first = await catalog.getRun(id);
  let seen = first.levels.length;
  push({ kind: 'snapshot', state: { runId: id, levels: first.levels, current: null, warnings: first.warnings } });
  while (!closed()) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    const run = await catalog.getRun(id).catch(() => null);
    if (run === null) return;
    for (const level of run.levels.slice(seen)) push({ kind: 'level-end', level });
    seen = run.levels.length;
    if (run.status !== 'running') return push({ kind: 'end', status: run.status, reason: run.stopReason });
  }
}

export function runRoutes(catalog: Catalog, manager: RunManager, hub: RunHub): Hono {
  const r = new Hono();
  r.get('/', async (c) => c.json(await catalog.listRuns()));
  r.post('/', async (c) => {
    const body = await jsonBody(c, startRunSchema);
    return c.json(await manager.start(body), 201);
  });
  r.get('/:id', async (c) => c.json(await catalog.getRun(idParam(c))));
  r.get('/:id/result', async (c) => c.json(await catalog.exportRun(idParam(c))));
  r.get('/:id/records', async (c) => {
    const level = c.req.query('concurrency');
    if (level !== undefined && !(Number(level) > 0)) throw new ApiError('bad-request', `concurrency: '${level}' is not a positive number`, 'concurrency');
    return c.json(await catalog.runRecords(idParam(c), level === undefined ? undefined : Number(level)));
  });
  r.post('/:id/stop', (c) => {
    manager.stop(idParam(c));
    return c.json({ stopping: true }, 202);
  });
  r.get('/:id/events', async (c) => {
    const id = idParam(c);
    const run = await catalog.getRun(id);
    return streamSSE(c, async (stream) => {
      const queue: LiveEvent[] = [];
      let wake: (() => void) | null = null;
      const push = (e: LiveEvent) => {
        queue.push(e);
        wake?.();
      };
      const unsubscribe = hub.subscribe(id, push);
      let closed = false;
      stream.onAbort(() => {
        closed = true;
        wake?.();
      });
      if (unsubscribe === null && run.status !== 'running') push({ kind: 'end', status: run.status, reason: run.stopReason });
      // Running in another process (sharing PostgreSQL): follow it through the store instead.
      if (unsubscribe === null && run.status === 'running') void followStored(catalog, id, push, () => closed);
      try {
        while (!closed) {
          const e = queue.shift();
          if (e === undefined) {
            const timer = new Promise<void>((resolve) => {
              wake = resolve;
              setTimeout(resolve, KEEPALIVE_MS);
            });
            await timer;
            wake = null;
            if (queue.length === 0 && !closed) {
              await stream.write(': keep-alive\n\n');
              // A live run whose writer vanished (a CLI sweep killed mid-level) ends here as the store reads it.
              const now = unsubscribe ? await catalog.getRun(id).catch(() => null) : null;
              if (now && now.status !== 'running') hub.publish(id, { kind: 'end', status: now.status, reason: now.stopReason });
            }
            continue;
          }
          await stream.writeSSE({ event: e.kind, data: JSON.stringify(e) });
          if (e.kind === 'end') break;
        }
      } finally {
        unsubscribe?.();
      }
    });
  });
  return r;
}
