/**
 * The read door of a CLI command that holds the embedded store (a sweep, a
 * contract run): PGlite is one process's database, so `runs list`, `runs show`,
 * `runs export` and `servers list` started meanwhile read through the holder,
 * over loopback, with a random token that only the lock file (0600) carries.
 * Nothing else is answered: writes wait for the holder to finish.
 *
 * The holder is measuring while it answers. Listing and showing are a few
 * small queries; an export serialises every raw record of a run, so it waits
 * until the level being measured has ended (`measuring` says when one is).
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve as listen } from '@hono/node-server';
import { Hono } from 'hono';
import { ApiError, toApiError } from './api-error.js';
import { hostGuard, tokenGuard } from './auth.js';
import { idParam } from './body.js';
import type { Catalog } from './catalog.js';

/** Connections the door holds at once; more are refused by the kernel's accept, not queued in memory. */
export const DOOR_MAX_CONNECTIONS = 32;
/** A connection that sends no complete request within this is closed, ms (idle keep-alive ones sooner). */
const DOOR_HEADERS_MS = 5000;
const DOOR_KEEP_ALIVE_MS = 2000;

export interface ReadDoor {
  url: string;
  token: string;
  close(): Promise<void>;
}

/** Keeps exports and measured levels apart: an export waits for the level being measured, and a level waits for the export in progress. */
export interface MeasuringGate {
  /** Runs `fn` (an export) between levels: after the level being measured ends, and before the next one may start. */
  between<T>(fn: () => Promise<T>): Promise<T>;
}

export function readDoorApp(catalog: Catalog, token: string, gate: MeasuringGate, holder: string): Hono {
  const app = new Hono();
  // One export at a time: each holds a run's records in memory, so six at once would hold six.
  let exporting: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = exporting.then(() => gate.between(fn));
    exporting = next.catch(() => {});
    return next;
  };
  app.onError((err, c) => {
    const e = toApiError(err);
    return c.json(e.toBody(), e.status);
  });
  app.use('*', hostGuard('127.0.0.1'), tokenGuard(token));
  app.get('/api/servers', async (c) => c.json(await catalog.listServers()));
  app.get('/api/runs', async (c) => c.json(await catalog.listRuns()));
  app.get('/api/runs/:id', async (c) => c.json(await catalog.getRun(idParam(c))));
  app.get('/api/runs/:id/result', async (c) => {
    const id = idParam(c);
    return c.json(await oneAtATime(() => catalog.exportRun(id)));
  });
  app.get('/api/runs/:id/records', async (c) => {
    const id = idParam(c);
    const level = c.req.query('concurrency');
    if (level !== undefined && !(Number(level) > 0)) throw new ApiError('bad-request', `concurrency: '${level}' is not a positive number`, 'concurrency');
    return c.json(await oneAtATime(() => catalog.runRecords(id, level === undefined ? undefined : Number(level))));
  });
  app.all('*', () => {
    throw new ApiError('busy', `${holder} holds the embedded store and answers only reads; wait for it to finish`);
  });
  return app;
}

/** Opens the door on a free loopback port. */
export async function openReadDoor(catalog: Catalog, gate: MeasuringGate, holder: string): Promise<ReadDoor> {
  const token = randomBytes(24).toString('base64url');
  const app = readDoorApp(catalog, token, gate, holder);
  const server = await new Promise<ReturnType<typeof listen>>((resolve, reject) => {
    const s = listen(
      {
        fetch: app.fetch,
        port: 0,
        hostname: '127.0.0.1',
        // Another local user can connect without the token: idle and half-sent connections are closed within seconds.
        serverOptions: { headersTimeout: DOOR_HEADERS_MS, requestTimeout: 0, keepAliveTimeout: DOOR_KEEP_ALIVE_MS, connectionsCheckingInterval: 1000 },
      },
      () => resolve(s),
    );
    s.once('error', reject);
  });
  const http = server as unknown as import('node:http').Server;
  http.maxConnections = DOOR_MAX_CONNECTIONS;
  // A connection silent for DOOR_HEADERS_MS is closed unless it has a request being answered (an export waiting for a level's end).
  const answering = new Set<import('node:net').Socket>();
  http.on('request', (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    answering.add(req.socket);
    res.once('close', () => answering.delete(req.socket));
  });
  http.setTimeout(DOOR_HEADERS_MS, (socket) => {
    if (!answering.has(socket)) socket.destroy();
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}

/**
 * A gate driven by the sweep: `beforeLevel` resolves once no export is in
 * progress and marks the level measured in the same turn (so no export can slip
 * in between), `end` releases the exports that waited for it.
 */
export function measuringGate(): MeasuringGate & { beforeLevel(): Promise<void>; start(): void; end(): void } {
  let waiters: Array<() => void> = [];
  let quietWaiters: Array<() => void> = [];
  let measuring = false;
  let reads = 0;
  return {
    async between<T>(fn: () => Promise<T>): Promise<T> {
      while (measuring) await new Promise<void>((resolve) => waiters.push(resolve));
      reads++;
      try {
        return await fn();
      } finally {
        reads--;
        if (reads === 0) {
          const released = quietWaiters;
          quietWaiters = [];
          for (const w of released) w();
        }
      }
    },
    async beforeLevel() {
      while (reads > 0) await new Promise<void>((resolve) => quietWaiters.push(resolve));
      measuring = true;
    },
    start: () => {
      measuring = true;
    },
    end: () => {
      measuring = false;
      const released = waiters;
      waiters = [];
      for (const w of released) w();
    },
  };
}
