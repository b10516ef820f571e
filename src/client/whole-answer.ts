/**
 * The request/response core of the kinds whose answer comes whole (embeddings,
 * rerank, transcriptions): a pool bounded by the request's time limits, one
 * POST timed from the hand-over, a non-2xx answer's message, the body read up
 * to `poolingResponseBytes` and timed at its last byte (before any parsing),
 * and every failure as the outcome a record carries. Each kind's client builds
 * only its body and checks only its answer.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Pool } from 'undici';
import { LIMITS, type PoolingOutcome, parseRetryAfterMs } from '../core/index.js';
import { readBounded } from './bounded-body.js';
import type { Clock } from './clock.js';
import { httpErrorMessage, truncate } from './error-text.js';
import { errorCode } from './failure.js';
import { overflow } from './response-limits.js';

/**
 * A request's time limits, ms: the whole request, and how long an answer may stay silent once its headers came
 * (null: only the whole limit bounds the body).
 */
export interface WholeAnswerLimits {
  timeoutMs: number;
  idleMs: number | null;
}

/**
 * The answer's text and headers, or the outcome of a failed request; `endNs` when it ended either way. A refused
 * answer's `retryAfterMs` is what its Retry-After asked (null: nothing readable), for the retry policy to judge.
 */
export type WholeAnswer =
  { ok: true; text: string; headers: IncomingHttpHeaders; endNs: number } | { ok: false; outcome: PoolingOutcome; endNs: number; retryAfterMs?: number | null };

/**
 * A pool of `connections` sockets to `origin`. Headers come when the answer is computed (a large batch may take long):
 * only the whole limit bounds them. Once they came, bytes follow at once unless the server stalled, which the idle limit sees.
 */
export function wholeAnswerPool(origin: string, connections: number, limits: WholeAnswerLimits): Pool {
  return new Pool(origin, {
    connections,
    pipelining: 1,
    headersTimeout: limits.timeoutMs,
    bodyTimeout: limits.idleMs ?? limits.timeoutMs,
    connectTimeout: Math.min(10_000, limits.timeoutMs),
  });
}

function failure(err: unknown, limits: WholeAnswerLimits, aborted: boolean): PoolingOutcome {
  if (aborted) return { kind: 'aborted' };
  const code = errorCode(err);
  if (code === 'UND_ERR_BODY_TIMEOUT' && limits.idleMs !== null)
    return { kind: 'timeout', message: `the answer went silent: no bytes for ${limits.idleMs} ms after its headers` };
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'TimeoutError' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return { kind: 'timeout', message: `no complete answer within ${limits.timeoutMs} ms` };
  return { kind: 'connection-error', code, message: truncate(`${code}: ${err instanceof Error ? err.message : String(err)}`) };
}

/** One POST of `body` to `path`, its answer read whole; `signal` (a stop) and the whole limit both end it. */
export async function postWhole(
  pool: Pool,
  req: { path: string; headers: Record<string, string>; body: string | Buffer },
  limits: WholeAnswerLimits,
  clock: Clock,
  signal?: AbortSignal,
  wallMs: () => number = Date.now,
): Promise<WholeAnswer> {
  const limit = AbortSignal.timeout(limits.timeoutMs);
  const both = signal ? AbortSignal.any([signal, limit]) : limit;
  try {
    const res = await pool.request({ ...req, method: 'POST', signal: both });
    if (res.statusCode < 200 || res.statusCode > 299) {
      const text = await readBounded(res.body, LIMITS.errorBodyBytes.max);
      const message = text.ok ? httpErrorMessage(res.statusCode, '', text.text) : `HTTP ${res.statusCode}`;
      return {
        ok: false,
        outcome: { kind: 'http-error', status: res.statusCode, message },
        endNs: clock(),
        retryAfterMs: parseRetryAfterMs(res.headers, wallMs()),
      };
    }
    const text = await readBounded(res.body, LIMITS.poolingResponseBytes.max);
    const endNs = clock();
    if (!text.ok) return { ok: false, outcome: { kind: 'response-too-large', message: overflow('poolingResponseBytes', 'the answer').message }, endNs };
    return { ok: true, text: text.text, headers: res.headers, endNs };
  } catch (err) {
    return { ok: false, outcome: failure(err, limits, signal?.aborted === true), endNs: clock() };
  }
}
