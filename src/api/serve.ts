/**
 * `goodput serve` as a function: the app on a socket, the run manager, the
 * live hub. Binding anything but loopback needs a token; writes always need
 * one (made at start when none was given). Closing stops the
 * runs in flight (their finished levels are stored) and the socket.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve as listen } from '@hono/node-server';
import type { Store } from '../store/index.js';
import { createApp } from './app.js';
import { isLoopback, localCatalog } from '../runs/index.js';
import { RunHub } from './run-hub.js';
import { RunManager } from './run-manager.js';
import { defaultWebDir } from './static-files.js';

export interface ServeOptions {
  store: Store;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 7878; 0 picks a free port. */
  port?: number;
  token?: string | null;
  webDir?: string;
  probeTimeoutMs?: number;
}

export interface Serving {
  /** The page's URL, e.g. http://127.0.0.1:7878/. */
  url: string;
  /** The key every write needs (the --token when one was given, else made at start). */
  writeToken: string;
  /** The page's URL with the key made at start, which the page keeps as a cookie (`/?token=…`); `url` when --token was given. */
  pageUrl: string;
  port: number;
  close(): Promise<void>;
}

/** Thrown for a bind that is not allowed; the message says what to do. */
export class ServeError extends Error {
  override name = 'ServeError';
}

export async function startServe(o: ServeOptions): Promise<Serving> {
  const host = o.host ?? '127.0.0.1';
  const token = o.token ?? null;
  if (!isLoopback(host) && token === null) {
    throw new ServeError(`binding ${host} makes the API reachable from other machines, so it needs a token: give --token <secret> (or GOODPUT_TOKEN)`);
  }
  const hub = new RunHub();
  const catalog = localCatalog(o.store, { hub, probeTimeoutMs: o.probeTimeoutMs });
  const manager = new RunManager(o.store, catalog, hub);
  // Writes always need a key: a local process could otherwise store forged runs in this user's store.
  const writeToken = token ?? randomBytes(24).toString('base64url');
  const app = createApp({ catalog, manager, hub, token, writeToken, host, webDir: o.webDir ?? defaultWebDir() });
  const server = await new Promise<ReturnType<typeof listen>>((resolve, reject) => {
    const s = listen({ fetch: app.fetch, port: o.port ?? 7878, hostname: host }, () => resolve(s));
    s.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        new ServeError(
          err.code === 'EADDRINUSE'
            ? `port ${o.port ?? 7878} on ${host} is in use: pick another with --port`
            : `cannot listen on ${host}:${o.port ?? 7878}: ${err.message}`,
        ),
      );
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : shownHost;
  // The lock file is 0600 in the user's private data folder: only this user's commands read the key there.
  o.store.advertise(`http://${reachable}:${port}`, writeToken);
  return {
    url: `http://${shownHost}:${port}/`,
    writeToken,
    // A --token is the user's own and never printed; a key made here is, once, so the page can be opened with it.
    pageUrl: token === null ? `http://${shownHost}:${port}/?token=${writeToken}` : `http://${shownHost}:${port}/`,
    port,
    async close() {
      await manager.stopAll();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
    },
  };
}
