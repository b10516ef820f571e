/**
 * goodput's own image server, for engines that fetch images by URL: it listens
 * on 127.0.0.1 (a free port) or on the address the user gave, for the sweep's
 * lifetime, and serves exactly the current level's images under a random
 * secret path. GET alone, the Host header must be the address it was given,
 * connections guarded (image-connections.ts: headers within 2 s, a per-peer
 * limit, the oldest silent one closed when full); anything else is refused
 * without a word about what exists.
 */
import { randomBytes } from 'node:crypto';
import { type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ImageFiles, ImageInputs } from '../core/index.js';
import { imageMime } from '../workload/index.js';
import { type ConnectionsClosed, guardConnections } from './image-connections.js';
import { imageFiles, imageFilesDigest, servedImageUrl } from './image-pool.js';

export interface ImageServer {
  /** The URL prefix every image URL starts with: http://host:port/<secret>. */
  readonly servedAt: string;
  /** Serves the images of a level (and only those) from now on: the files its requests name. Returns what identifies them. */
  serveLevel(images: ImageInputs, seed: number, promptOffset: number, requests: number): ImageFiles;
  /** Images answered so far. */
  readonly served: number;
  /** Connections the server closed because they sat silent or made way for others (see image-connections.ts). */
  readonly closed: Readonly<ConnectionsClosed>;
  /** Stops listening and cuts every connection. */
  close(): Promise<void>;
}

function refuse(res: ServerResponse, status: number, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain', connection: 'close', ...extra });
  res.end(`${status}\n`);
}

/** Starts the image server on `listen` (http://host:port), or on 127.0.0.1 at a free port. */
export async function startImageServer(listen: string | null): Promise<ImageServer> {
  const secret = randomBytes(16).toString('hex');
  const at = listen === null ? { host: '127.0.0.1', port: 0 } : { host: new URL(listen).hostname.replace(/^\[|\]$/g, ''), port: Number(new URL(listen).port) };
  let files = new Map<string, { mime: string; file: Buffer }>();
  let served = 0;
  let host = '';
  const server: Server = createServer((req, res) => {
    if (req.headers.host !== host) return refuse(res, 421);
    if (req.method !== 'GET') return refuse(res, 405, { allow: 'GET' });
    const found = files.get(req.url ?? '');
    if (found === undefined) return refuse(res, 404);
    served++;
    res.writeHead(200, { 'content-type': found.mime, 'content-length': String(found.file.length), 'cache-control': 'no-store' });
    res.end(found.file);
  });
  // The headers deadline, the per-peer limit and the connection cap are the guard's (Node's own act only every 30 s).
  const closed = guardConnections(server);
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  host = listen === null ? `127.0.0.1:${port}` : new URL(listen).host;
  const base = `http://${host}`;
  const servedAt = `${base}/${secret}`;
  return {
    servedAt,
    get served() {
      return served;
    },
    closed,
    serveLevel(images, seed, promptOffset, requests) {
      const next = new Map<string, { mime: string; file: Buffer }>();
      const drawn = imageFiles(images, seed, promptOffset, requests);
      for (const { index, file } of drawn) {
        next.set(servedImageUrl(servedAt, images.format, index).slice(base.length), { mime: imageMime(images.format), file });
      }
      files = next;
      return imageFilesDigest(drawn);
    },
    close: () =>
      new Promise<void>((resolve) => {
        files = new Map();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
