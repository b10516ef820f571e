/**
 * `startSimulator`: the OpenAI-compatible simulated server on node:http. Wires the
 * profile into one scheduler, one batch engine, a prefix cache, metrics and stats,
 * routes requests, and can die like a crashed process (`dieAfterRequests`).
 */
import { ResponseStore } from './responses-route.js';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { z } from 'zod';
import { BatchEngine } from './batch-engine.js';
import { DraftModel } from './draft-model.js';
import { RoleMetrics } from './disagg-role.js';
import { SIM_DIALECTS } from './dialects/registry.js';
import { FaultPicker } from './faults.js';
import type { SimRuntime } from './generation-handler.js';
import { sendError } from './http-util.js';
import type { InfoContext } from './info-routes.js';
import type { PoolingContext, PoolingEncoder } from './pooling-route.js';
import { PrefixCache } from './prefix-cache.js';
import { simProfileSchema } from './profile-schema.js';
import { route } from './router.js';
import { Scheduler } from './scheduler.js';
import { SimMetrics } from './sim-metrics.js';
import { StatsCollector, type SimStats } from './sim-stats.js';
import { RequestLog } from './request-log.js';
import { RateLimiter } from './rate-limiter.js';
import { describeZodError } from './zod-issues.js';

/** A profile as given: every field optional, nested objects too. */
export type SimProfileInput = z.input<typeof simProfileSchema>;

/** Options of `startSimulator`: a (partial) profile plus where to listen. */
export type SimServerOptions = SimProfileInput & {
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Writes one JSON line per generation request to this file (see request-log.ts). */
  requestLog?: string;
};

/** A running simulator. */
export interface SimServer {
  /** Base URL, `http://HOST:PORT` (no trailing slash, no `/v1`). */
  url: string;
  port: number;
  /** Stops listening and drops every connection and request in flight. */
  close(): Promise<void>;
  /** Counters and the intended mean TTFT/TPOT (ms), for tests. */
  stats(): SimStats;
  /** Settles when the server has stopped: "closed" by `close()`, or "died" (`dieAfterRequests`). */
  stopped: Promise<'closed' | 'died'>;
}

async function packageVersion(): Promise<string> {
  try {
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { name?: string; version?: string };
    return pkg.name === 'goodput' && typeof pkg.version === 'string' ? pkg.version : '0.1.0';
  } catch {
    return '0.1.0';
  }
}

/**
 * Starts a simulator. Profile fields not given take their defaults.
 * @throws Error "invalid simulator profile: <field>: <problem>" on a bad profile.
 */
export async function startSimulator(options: SimServerOptions = {}): Promise<SimServer> {
  const { host = '127.0.0.1', port = 0, requestLog: logPath, ...input } = options;
  const parsed = simProfileSchema.safeParse(input);
  if (!parsed.success) throw new Error(`invalid simulator profile: ${describeZodError(parsed.error)}`);
  const profile = parsed.data;
  const requestLog = logPath === undefined ? null : new RequestLog(logPath);
  if (requestLog)
    await requestLog.ready().catch((err: Error) => {
      throw new Error(`cannot write the request log ${logPath}: ${err.message}`);
    });
  const scheduler = new Scheduler();
  const cache = profile.prefixCaching ? new PrefixCache() : null;
  const draft = profile.specDecode === undefined ? null : new DraftModel(profile.specDecode.positions, profile.specDecode.accept, profile.seed);
  const engine = new BatchEngine(profile, scheduler, cache, draft);
  const metrics = new SimMetrics(profile.model, draft, profile.disagg === undefined ? null : new RoleMetrics(profile.disagg));
  const stats = new StatsCollector();
  const sockets = new Set<Socket>();
  const encoder: PoolingEncoder = { freeAtMs: 0, requests: 0, inputTokens: 0 };
  const server = createServer({ keepAlive: true, noDelay: true });
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
  let stopped = false;
  let reason: 'closed' | 'died' = 'closed';
  const halt = (): void => {
    stopped = true;
    scheduler.stop();
    engine.halt();
    for (const s of sockets) s.destroy();
  };
  // The request log is complete once the server has stopped, whichever way.
  const closed = new Promise<void>((resolve) => server.once('close', () => resolve())).then(() => requestLog?.close());
  const snapshot = (): SimStats =>
    stats.snapshot({
      running: engine.runningCount,
      waiting: engine.waitingCount,
      kvReservedTokens: engine.kvReservedTokens,
      pooling: { requests: encoder.requests, inputTokens: encoder.inputTokens },
    });
  const rt: SimRuntime & InfoContext & PoolingContext = {
    snapshot,
    encoder,
    profile,
    engine,
    metrics,
    stats,
    cache,
    requestLog,
    now: scheduler.now,
    faultPicker: new FaultPicker(profile.faults, profile.seed),
    answers: { toolCalls: 0, json: 0 },
    rateLimiter: profile.rateLimit.rpm === null && profile.rateLimit.tpm === null ? null : new RateLimiter(profile.rateLimit, scheduler.now),
    responses: new ResponseStore(),
    dialect: SIM_DIALECTS[profile.dialect],
    version: await packageVersion(),
    die: () => {
      if (stopped) return;
      stats.dead = true;
      reason = 'died';
      server.close();
      halt();
    },
  };

  server.on('connection', (socket: Socket) => {
    if (stopped) return void socket.destroy();
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    route(rt, req, res).catch((err: unknown) => {
      if (!res.headersSent) sendError(res, 500, `simulator error: ${(err as Error).message}`);
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port, backlog: 4096 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${actualPort}`,
    port: actualPort,
    stats: snapshot,
    stopped: closed.then(() => reason),
    close: async () => {
      if (server.listening) server.close();
      halt();
      await closed;
    },
  };
}
