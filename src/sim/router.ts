/**
 * Routes one HTTP request: generation endpoints (the dialect's native ones too) to
 * the generation handler (with the body's arrival time), or a router simulator's
 * pools (disagg-router.ts), the dialect's identity
 * routes, each other kind's routes (one table: a JSON body, or an upload the
 * route reads itself), then the info routes; 404 for unknown paths, 405 for a wrong method, 400
 * for a body that is not JSON, 413 for one too large. Every answer carries the
 * dialect's headers and error-body shape.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  GENERATION_ENDPOINTS,
  MESSAGES_ENDPOINT,
  RESPONSES_ENDPOINT,
  handleGeneration,
  nativeEndpoint,
  type Endpoint,
  type SimRuntime,
} from './generation-handler.js';
import { azureRoute } from './azure-route.js';
import { proxyGeneration } from './disagg-router.js';
import { bindErrorShape, readBody, sendError } from './http-util.js';
import { hookRoute, type HookContext } from './hook-routes.js';
import { INFO_ROUTES, type InfoContext } from './info-routes.js';
import { POOLING_ROUTES, type PoolingContext } from './pooling-route.js';
import { TRANSCRIPTION_ROUTES } from './transcription-route.js';

const GENERATION_ROUTES: Readonly<Record<string, Endpoint>> = {
  'POST /v1/chat/completions': GENERATION_ENDPOINTS.chat,
  'POST /v1/completions': GENERATION_ENDPOINTS.completion,
  'POST /v1/responses': RESPONSES_ENDPOINT,
  'POST /v1/messages': MESSAGES_ENDPOINT,
};
type KindContext = SimRuntime & InfoContext & PoolingContext & HookContext;
/** A kind's route: it answers a JSON body (parsed here), or reads its own bytes (an upload, no JSON). */
type KindRoute =
  | { body: 'json'; serve: (rt: KindContext, res: ServerResponse, body: unknown, arrivalMs: number) => void }
  | { body: 'own'; serve: (rt: KindContext, req: IncomingMessage, res: ServerResponse) => Promise<void> };
const routesOf = <R extends KindRoute>(body: R['body'], routes: Readonly<Record<string, R['serve']>>): Record<string, KindRoute> =>
  Object.fromEntries(Object.entries(routes).map(([key, serve]) => [key, { body, serve } as KindRoute]));

/** The routes of each kind besides text generation, by "METHOD /path": a new kind registers its routes here. */
const KIND_ROUTES: Readonly<Record<string, KindRoute>> = {
  ...routesOf('json', POOLING_ROUTES),
  ...routesOf('own', TRANSCRIPTION_ROUTES),
};
const KNOWN_PATHS = new Set([...Object.keys(GENERATION_ROUTES), ...Object.keys(INFO_ROUTES), ...Object.keys(KIND_ROUTES)].map((k) => k.split(' ')[1]));

/** Serves one request; rejects only on an internal error (the caller answers 500). */
export async function route(rt: KindContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const receivedMs = rt.now();
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const key = `${req.method ?? 'GET'} ${path}`;
  const dialect = rt.dialect;
  for (const [name, value] of Object.entries(dialect.headers)) res.setHeader(name, value);
  const native = dialect.nativeRoutes[key];
  // The Messages API answers in Anthropic's error shape whatever engine the simulator plays.
  bindErrorShape(res, native?.errorBody ?? (key === 'POST /v1/messages' ? MESSAGES_ENDPOINT.native?.errorBody : undefined) ?? dialect.errorBody);
  const azure = azureRoute(rt.profile.model, req.method ?? 'GET', req.url ?? '/');
  if (azure?.ok === false) {
    req.resume();
    return sendError(res, azure.status, azure.message, azure.param);
  }
  const generation =
    GENERATION_ROUTES[key] ?? (azure?.ok === true ? GENERATION_ENDPOINTS[azure.endpoint] : native === undefined ? undefined : nativeEndpoint(native));
  const identity = dialect.routes[key];
  const info = INFO_ROUTES[key];
  const kind = KIND_ROUTES[key];
  if (kind?.body === 'own') return kind.serve(rt, req, res);
  // The engine's admin routes the server hooks call (a cache reset, the profiler): no body is read.
  const hook = hookRoute(dialect.kind, req.method ?? 'GET', req.url ?? '/');
  if (hook !== undefined) {
    req.resume();
    return hook(rt, res);
  }
  if (generation === undefined && info === undefined && identity === undefined && kind === undefined) {
    req.resume();
    const known = KNOWN_PATHS.has(path) || [...Object.keys(dialect.routes), ...Object.keys(dialect.nativeRoutes)].some((k) => k.endsWith(` ${path}`));
    if (known) return sendError(res, 405, `Method ${req.method ?? ''} not allowed on ${path}.`);
    return sendError(res, 404, `Not found: ${path}`);
  }
  if (identity !== undefined) {
    req.resume();
    const r = identity(rt.profile, rt.version);
    res.writeHead(r.status, { 'content-type': r.contentType, 'content-length': Buffer.byteLength(r.body) });
    return void res.end(r.body);
  }
  let body: unknown;
  let arrivalMs = rt.now();
  if (req.method === 'POST') {
    const text = await readBody(req);
    arrivalMs = rt.now();
    if (text === null) return sendError(res, 413, 'Request body too large.');
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      if (generation !== undefined) rt.stats.rejected++;
      return sendError(res, 400, 'body: not valid JSON', 'body');
    }
  } else {
    req.resume();
  }
  // A router simulator computes nothing itself: its pools do (disagg-router.ts).
  if (generation !== undefined && rt.profile.disagg?.role === 'router') return proxyGeneration(rt, req, res, req.url ?? path, body, arrivalMs);
  if (generation !== undefined) return handleGeneration(rt, generation, req, res, body, arrivalMs, receivedMs);
  if (kind !== undefined) return kind.serve(rt, res, body, arrivalMs);
  info?.(rt, res, body);
}
