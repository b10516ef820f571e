/**
 * Small node:http helpers: read a bounded JSON body, answer JSON, and answer an
 * OpenAI-style error `{"error":{"message","type","param","code"}}` (vLLM's nested
 * shape with an integer code), or in the shape of the engine a dialect plays,
 * bound to the response by the router.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorBody } from './dialects/types.js';

/** Largest request body accepted, bytes. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** OpenAI error `type` for each status the simulator answers with. */
const ERROR_TYPES: Record<number, string> = {
  400: 'BadRequestError',
  404: 'NotFoundError',
  405: 'MethodNotAllowedError',
  413: 'BadRequestError',
  429: 'RateLimitError',
  500: 'InternalServerError',
  503: 'ServiceUnavailableError',
};

/** The raw body, or null when it exceeds MAX_BODY_BYTES (the rest is read and dropped). */
export function readRawBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The raw body as text, or null when it exceeds MAX_BODY_BYTES. */
export async function readBody(req: IncomingMessage): Promise<string | null> {
  return (await readRawBody(req))?.toString('utf8') ?? null;
}

/** Answers `status` with a JSON text body. */
export function sendJsonText(res: ServerResponse, status: number, json: string, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json), ...headers });
  res.end(json);
}

/** Answers `status` with a value serialised as JSON. */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  sendJsonText(res, status, JSON.stringify(value));
}

/** The JSON text of an OpenAI-style error. */
export function errorJson(status: number, message: string, param: string | null = null, type?: string): string {
  return JSON.stringify({ error: { message, type: type ?? ERROR_TYPES[status] ?? 'Error', param, code: status } });
}

/** Error bodies per response: the router binds the played engine's shape; unbound, vLLM's. */
const errorShapes = new WeakMap<ServerResponse, ErrorBody>();

/** Every error answered on `res` uses `shape`. */
export function bindErrorShape(res: ServerResponse, shape: ErrorBody): void {
  errorShapes.set(res, shape);
}

/** Answers with an error body in the bound engine's shape (vLLM's nested one by default). */
export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  param: string | null = null,
  type?: string,
  headers: Record<string, string> = {},
): void {
  const shape = errorShapes.get(res);
  const body = shape === undefined ? errorJson(status, message, param, type) : shape(status, message, param, type ?? ERROR_TYPES[status] ?? 'Error');
  sendJsonText(res, status, body, headers);
}
