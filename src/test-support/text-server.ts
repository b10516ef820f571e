/**
 * Test support: a node:http server on 127.0.0.1 (port 0) that answers each
 * request from a function of its path — a fake metrics endpoint or DCGM
 * exporter. It records every request's method and path, so tests can check that
 * a scrape only ever GETs what it should.
 */
import { startServer } from './scripted-server.js';

export interface TextAnswer {
  status?: number;
  body: string;
  contentType?: string;
}

export interface TextServer {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** Every request seen, as "METHOD /path". */
  requests: string[];
  close(): Promise<void>;
}

/** Starts a server answering `answer(path)`; null means 404. */
export async function startTextServer(answer: (path: string) => TextAnswer | null): Promise<TextServer> {
  const requests: string[] = [];
  const server = await startServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(`${req.method} ${path}`);
    const a = answer(path);
    const body = a?.body ?? 'not found';
    res.writeHead(a ? (a.status ?? 200) : 404, { 'content-type': a?.contentType ?? 'text/plain; version=0.0.4', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  return { url: server.url, requests, close: server.close };
}
