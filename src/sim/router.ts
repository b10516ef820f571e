/**
 * Routes one HTTP request: generation endpoints to the generation handler (with the
 * body's arrival time), the rest to the info routes; 404 for unknown paths, 405 for
 * a wrong method, 400 for a body that is not JSON, 413 for one too large.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GENERATION_ENDPOINTS, handleGeneration, type Endpoint, type SimRuntime } from './generation-handler.js';
import { readBody, sendError } from './http-util.js';
import { INFO_ROUTES, type InfoContext } from './info-routes.js';

const GENERATION_ROUTES: Readonly<Record<string, Endpoint>> = {
  'POST /v1/chat/completions': GENERATION_ENDPOINTS.chat,
  'POST /v1/completions': GENERATION_ENDPOINTS.completion,
};
const KNOWN_PATHS = new Set([...Object.keys(GENERATION_ROUTES), ...Object.keys(INFO_ROUTES)].map((k) => k.split(' ')[1]));

/** Serves one request; rejects only on an internal error (the caller answers 500). */
export async function route(rt: SimRuntime & InfoContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const key = `${req.method ?? 'GET'} ${path}`;
  const generation = GENERATION_ROUTES[key];
  const info = INFO_ROUTES[key];
  if (generation === undefined && info === undefined) {
    req.resume();
    if (KNOWN_PATHS.has(path)) return sendError(res, 405, `Method ${req.method ?? ''} not allowed on ${path}.`);
    return sendError(res, 404, `Not found: ${path}`);
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
  if (generation !== undefined) return handleGeneration(rt, generation, req, res, body, arrivalMs);
  info?.(rt, res, body);
}
