/**
 * Request guards. The token (required when serve binds anything but
 * loopback) is checked on every request: `Authorization: Bearer <token>`,
 * else `?token=`, else the HttpOnly cookie the page gets after being opened
 * once as `/?token=…`. Browsers send a host's cookies to every port of it, so
 * the cookie is named after this server's port (`goodput_token_7878`): a
 * second serve on another port never reads the first one's as its own, and an
 * explicit `?token=` always wins over a stale cookie. Another server on the
 * same host still receives it; docs/security-and-endings.md says so.
 * The Host guard stops DNS rebinding; the Origin guard stops other sites from
 * posting to the API.
 */
import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { isLoopback } from '../client/index.js';
import { ApiError } from './api-error.js';

/** The token cookie's name for the port the request was sent to (from Host; 80 when it names none). */
export function tokenCookieName(hostHeader: string | undefined): string {
  const port = /:(\d{1,5})$/.exec(hostHeader ?? '')?.[1] ?? '80';
  return `goodput_token_${port}`;
}

/** True for 127.0.0.0/8, ::1 and localhost: one definition, in client/ (re-exported for the API's serve.ts). */
export { isLoopback };

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const isWrite = (method: string) => method !== 'GET' && method !== 'HEAD';

/**
 * `token` (given with --token) is needed on every request. Without one, reads stay
 * open on loopback but writes still need `writeToken`, the key serve made at start:
 * any process on the host can reach a loopback port, and a write is a run stored in
 * this user's store. The page gets it as a cookie when opened as serve printed it
 * (`/?token=…`); CLI commands of the same user read it from the store's lock file.
 */
export function tokenGuard(token: string | null, writeToken: string | null = token): MiddlewareHandler {
  return async (c, next) => {
    const needed = token ?? (isWrite(c.req.method) ? writeToken : null);
    const known = token ?? writeToken;
    if (known === null) return next();
    const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    const query = c.req.query('token');
    const cookie = tokenCookieName(c.req.header('host'));
    // The most explicit wins: a header, then the URL, then what the browser kept.
    const given = bearer ?? query ?? getCookie(c, cookie);
    if (needed !== null && (given === undefined || !same(given, needed))) {
      throw new ApiError(
        'unauthorized',
        token !== null
          ? 'this goodput serve needs its token: send "Authorization: Bearer <token>", or open the page once as /?token=<token>'
          : 'writes to this goodput serve need its key: open the page as goodput serve printed it (/?token=<key>), or send "Authorization: Bearer <key>" (goodput commands of the same user read it from the store\'s lock file)',
      );
    }
    if (query !== undefined && bearer === undefined && same(query, known)) setCookie(c, cookie, known, { httpOnly: true, sameSite: 'Strict', path: '/' });
    return next();
  };
}

/** Refuses a Host header that is not this server's (a rebinding attempt) when bound to loopback. */
export function hostGuard(boundHost: string): MiddlewareHandler {
  return async (c, next) => {
    if (isLoopback(boundHost)) {
      const host = (c.req.header('host') ?? '').replace(/:\d+$/, '');
      if (host !== '' && !isLoopback(host)) throw new ApiError('forbidden', `Host "${host}" is not this server; open it as http://127.0.0.1`);
    }
    return next();
  };
}

/** Refuses a state-changing request sent from another origin. */
export function originGuard(): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && origin !== undefined) {
      let host = '';
      try {
        host = new URL(origin).host;
      } catch {
        /* not a URL: refused below */
      }
      if (host !== c.req.header('host')) throw new ApiError('forbidden', `requests from ${origin} are not accepted`);
    }
    return next();
  };
}
