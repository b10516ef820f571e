/**
 * Test support for this folder only: a tiny node:http server on 127.0.0.1 that
 * plays scripted responses (bytes split at seeded random boundaries, with small
 * delays), plus a seeded PRNG. Not used by production code.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { mulberry32 } from '../core/index.js';

/** Seeded PRNG (mulberry32): deterministic floats in [0, 1). */
export const seededRandom = mulberry32;

/** Splits `bytes` into pieces of 1..maxPiece bytes at random boundaries. */
export function randomPieces(bytes: Buffer, random: () => number, maxPiece: number): Buffer[] {
  const pieces: Buffer[] = [];
  for (let pos = 0; pos < bytes.length;) {
    const size = 1 + Math.floor(random() * maxPiece);
    pieces.push(bytes.subarray(pos, pos + size));
    pos += size;
  }
  return pieces;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One write of a scripted response, after `delayMs`. */
export interface Step {
  delayMs: number;
  bytes: Buffer | string;
}

/** How a scripted response ends: cleanly, by destroying the socket, or never. */
export type Ending = 'end' | 'destroy' | 'hang';

/** Writes `steps` in order as a 200 (or `status`) response, then ends as told. */
export function scripted(steps: Step[], opts: { status?: number; contentType?: string; ending?: Ending } = {}) {
  return async (_req: IncomingMessage, res: ServerResponse): Promise<void> => {
    res.writeHead(opts.status ?? 200, { 'content-type': opts.contentType ?? 'text/event-stream' });
    res.flushHeaders();
    for (const step of steps) {
      await (step.delayMs > 0 ? sleep(step.delayMs) : new Promise((r) => setImmediate(r)));
      if (res.destroyed) return;
      res.write(step.bytes);
    }
    const ending = opts.ending ?? 'end';
    if (ending === 'end') res.end();
    else if (ending === 'destroy') {
      await sleep(30); // let the last write leave before the socket dies
      res.socket?.destroy();
    }
  };
}

/** A body served in seeded random pieces of up to `maxPiece` bytes, each after 0..maxDelayMs. */
export function piecewise(body: Buffer, seed: number, maxPiece = 64, maxDelayMs = 2) {
  const random = seededRandom(seed);
  const steps = randomPieces(body, random, maxPiece).map((bytes) => ({ delayMs: Math.floor(random() * (maxDelayMs + 1)), bytes }));
  return scripted(steps);
}

/** A running server; `requests` holds each request's headers and body, in arrival order. */
export interface TestServer {
  url: string;
  requests: Array<{ url: string; headers: IncomingMessage['headers']; body: string }>;
  close(): Promise<void>;
}

/** Called once the request body has been read; `body` is it as text. */
type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>;

/** Starts a server on 127.0.0.1, port 0, answering every request with `handler`. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: TestServer['requests'] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      requests.push({ url: req.url ?? '', headers: req.headers, body });
      void handler(req, res, body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}
