/**
 * The client of the non-streaming endpoints: one POST per request (embeddings
 * or rerank, in the dialect's route and shape), the answer read whole up to
 * `poolingResponseBytes`, timed from the hand-over to the last byte (before
 * parsing), then checked (pooling-answer.ts). Every failure is a record.
 */
import { Pool } from 'undici';
import { LIMITS, type PoolingEndpoint, type PoolingOutcome, type PoolingRecord } from '../core/index.js';
import { readBounded } from './bounded-body.js';
import type { Clock } from './clock.js';
import type { PoolingRoutes } from './dialects/types.js';
import { httpErrorMessage, truncate } from './error-text.js';
import { errorCode } from './failure.js';
import { overflow } from './response-limits.js';
import { readPoolingAnswer } from './pooling-answer.js';
import { resolveTarget } from './target.js';
import type { Target } from './types.js';

/** What one request sends: the inputs to embed, or a query and the documents to rank. */
export type PoolingPayload =
  | { endpoint: 'embeddings'; inputs: readonly string[] }
  | { endpoint: 'rerank'; query: string; documents: readonly string[] };

/** Where and how: the route and answer shape an engine's dialect gives for an endpoint. */
export interface PoolingRoute { path: string; shape: 'openai' | 'ollama' | 'rerank' }

/** The dialect's route for `endpoint`, or null when the engine serves none. */
export function poolingRoute(routes: PoolingRoutes, endpoint: PoolingEndpoint): PoolingRoute | null {
  if (endpoint === 'rerank') return routes.rerank === null ? null : { path: routes.rerank, shape: 'rerank' };
  return routes.embeddings === null ? null : { path: routes.embeddings.path, shape: routes.embeddings.shape };
}

/** The request body: OpenAI's and Ollama's embeddings take `input`; rerank asks for every document's score. */
export function poolingBody(model: string, payload: PoolingPayload, shape: PoolingRoute['shape']): string {
  if (payload.endpoint === 'rerank') {
    return JSON.stringify({ model, query: payload.query, documents: payload.documents, top_n: payload.documents.length, return_documents: false });
  }
  return JSON.stringify(shape === 'ollama' ? { model, input: payload.inputs } : { model, input: payload.inputs, encoding_format: 'float' });
}

export interface PoolingClientOptions {
  /** Sockets kept open: the largest level's concurrency. */
  connections: number;
  clock: Clock;
  /** Whole-request limit, ms. */
  timeoutMs: number;
}

export interface PoolingClient {
  send(model: string, payload: PoolingPayload, meta: { seq: number; concurrency: number; warmup: boolean }, signal?: AbortSignal): Promise<PoolingRecord>;
  close(): Promise<void>;
}

function failure(err: unknown, timeoutMs: number, aborted: boolean): PoolingOutcome {
  if (aborted) return { kind: 'aborted' };
  const code = errorCode(err);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'TimeoutError' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { kind: 'timeout', message: `no complete answer within ${timeoutMs} ms` };
  }
  return { kind: 'connection-error', code, message: truncate(`${code}: ${err instanceof Error ? err.message : String(err)}`) };
}

/** A pooled client for `route` on `target`. */
export function createPoolingClient(target: Target, route: PoolingRoute, opts: PoolingClientOptions): PoolingClient {
  const t = resolveTarget(target);
  const pool = new Pool(t.origin, { connections: opts.connections, pipelining: 1, headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs, connectTimeout: Math.min(10_000, opts.timeoutMs) });
  const headers = { 'content-type': 'application/json', accept: 'application/json', ...t.authHeaders };
  return {
    async send(model, payload, meta, signal) {
      const items = payload.endpoint === 'rerank' ? payload.documents.length : payload.inputs.length;
      const body = poolingBody(model, payload, route.shape);
      const limit = AbortSignal.timeout(opts.timeoutMs);
      const both = signal ? AbortSignal.any([signal, limit]) : limit;
      const sentNs = opts.clock();
      const record = (outcome: PoolingOutcome, extra: { inputTokens?: number | null; dimension?: number | null } = {}): PoolingRecord => ({
        ...meta, sentNs, endNs: opts.clock(), items, inputTokens: extra.inputTokens ?? null, dimension: extra.dimension ?? null, outcome,
      });
      try {
        const res = await pool.request({ path: t.prefix + route.path, method: 'POST', headers, body, signal: both });
        if (res.statusCode < 200 || res.statusCode > 299) {
          const text = await readBounded(res.body, LIMITS.errorBodyBytes.max);
          return record({ kind: 'http-error', status: res.statusCode, message: text.ok ? httpErrorMessage(res.statusCode, '', text.text) : `HTTP ${res.statusCode}` });
        }
        const text = await readBounded(res.body, LIMITS.poolingResponseBytes.max);
        const endNs = opts.clock();
        if (!text.ok) return { ...record({ kind: 'response-too-large', message: overflow('poolingResponseBytes', 'the answer').message }), endNs };
        const answer = readPoolingAnswer(text.text, route.shape, items);
        if (!answer.ok) return { ...record({ kind: 'bad-answer', message: truncate(answer.message) }), endNs };
        return { ...record({ kind: 'ok' }, answer), endNs };
      } catch (err) {
        return record(failure(err, opts.timeoutMs, signal?.aborted === true));
      }
    },
    close: () => pool.close(),
  };
}
