/**
 * Bounds on what a request may carry before any route reads it: a body past
 * its limit is a 413 naming the limit (checked on Content-Length, and counted
 * as it streams when there is none), and a NUL byte in the path or query is a
 * 400 (PostgreSQL cannot store one, and no name or id contains one).
 * Ingest (a sweep in another process saving each level with its raw records)
 * has its own, larger bound.
 */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { LIMITS, type LimitName } from '../core/index.js';
import { ApiError } from '../runs/index.js';

const INGEST_PREFIX = '/api/ingest/';

function limitFor(path: string): LimitName {
  return path.startsWith(INGEST_PREFIX) ? 'apiIngestBodyBytes' : 'apiBodyBytes';
}

/** 413 for an API body past its limit (apiBodyBytes; apiIngestBodyBytes under /api/ingest/). */
export function bodyLimitGuard(): MiddlewareHandler {
  const guards = new Map<LimitName, MiddlewareHandler>();
  for (const name of ['apiBodyBytes', 'apiIngestBodyBytes'] as const) {
    const l = LIMITS[name];
    guards.set(
      name,
      bodyLimit({
        maxSize: l.max,
        onError: () => {
          throw new ApiError('too-large', `body: larger than the limit of ${l.max} ${l.what}`, 'body');
        },
      }),
    );
  }
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    return (guards.get(limitFor(c.req.path)) as MiddlewareHandler)(c, next);
  };
}

/** 400 for a NUL byte anywhere in the decoded path or query. */
export function nulGuard(): MiddlewareHandler {
  return async (c, next) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(new URL(c.req.url).pathname + new URL(c.req.url).search);
    } catch {
      throw new ApiError('bad-request', 'path: not valid percent-encoding', 'path');
    }
    if (decoded.includes('\u0000')) throw new ApiError('bad-request', 'path: must not contain a NUL byte', 'path');
    return next();
  };
}
