/**
 * The live metrics endpoint (`--serve-metrics`): GET /metrics answers the run's
 * own exposition while the run runs. Bounded: a few connections at once
 * (metricsConnections), short header and request deadlines, no request body
 * read, nothing but /metrics served. The address is the user's: loopback
 * unless they name another. Closed (every connection with it) when the run ends.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { LIMITS } from '../core/index.js';

/** The endpoint while it is open. */
export interface MetricsServer {
  /** Where it answers, e.g. http://127.0.0.1:9464/metrics (the port the system chose when 0 was asked). */
  url: string;
  close(): Promise<void>;
}

const DEADLINE_MS = 5000;

/** Listens on `host:port` and answers GET /metrics with `exposition()`; rejects with the system's reason when it cannot listen. */
export function serveMetrics(host: string, port: number, exposition: () => string): Promise<MetricsServer> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD' }).end();
    const body = exposition();
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  server.maxConnections = LIMITS.metricsConnections.max;
  server.headersTimeout = DEADLINE_MS;
  server.requestTimeout = DEADLINE_MS;
  server.keepAliveTimeout = DEADLINE_MS;
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(new Error(`cannot listen on ${host}:${port}: ${err.code ?? err.message}`)));
    server.listen(port, host, () => {
      const addr = server.address();
      const actual = typeof addr === 'object' && addr !== null ? addr.port : port;
      const shown = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${actual}/metrics`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
