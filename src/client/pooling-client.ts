/**
 * The client of the non-streaming endpoints: one POST per request (embeddings
 * or rerank, in the dialect's route and shape), the answer read whole up to
 * `poolingResponseBytes`, timed from the hand-over to the last byte (before
 * parsing), then checked (pooling-answer.ts). Every failure is a record.
 * Each request carries a W3C traceparent as a text request does (its ids on
 * the record, the same on every retry) unless turned off or given by the user.
 */
import { DEFAULT_RETRY, LIMITS, type PoolingEndpoint, type PoolingOutcome, type PoolingRecord, type RetryPolicy, boundedRetry } from '../core/index.js';
import type { Clock } from './clock.js';
import type { PoolingRoutes, PoolingShape } from './dialects/types.js';
import { truncate } from './error-text.js';
import { readPoolingAnswer } from './pooling-answer.js';
import { type Retryable, type Sleep, retrying, sleepMs } from './provider-retry.js';
import { resolveTarget } from './target.js';
import { type TraceIds, traceIdSource, traceparentValue } from './trace-context.js';
import type { Target } from './types.js';
import { postWhole, wholeAnswerPool } from './whole-answer.js';

/** What one request sends: the inputs to embed, or a query and the documents to rank. */
export type PoolingPayload = { endpoint: 'embeddings'; inputs: readonly string[] } | { endpoint: 'rerank'; query: string; documents: readonly string[] };

/** Where and how: the route and answer shape an engine's dialect gives for an endpoint. */
export interface PoolingRoute {
  path: string;
  shape: PoolingShape;
}

/** Every route the dialect serves for `endpoint`, its default first. */
export function poolingRoutesFor(routes: PoolingRoutes, endpoint: PoolingEndpoint): PoolingRoute[] {
  const first = endpoint === 'rerank' ? routes.rerank : routes.embeddings;
  return [
    ...(first === null ? [] : [{ path: first.path, shape: first.shape }]),
    ...routes.more.filter((r) => r.endpoint === endpoint).map((r) => ({ path: r.path, shape: r.shape })),
  ];
}

/** The dialect's route for `endpoint` (the one at `path` when given), or null when the engine serves none there. */
export function poolingRoute(routes: PoolingRoutes, endpoint: PoolingEndpoint, path?: string): PoolingRoute | null {
  const all = poolingRoutesFor(routes, endpoint);
  return (path === undefined ? all[0] : all.find((r) => r.path === path)) ?? null;
}

/**
 * The request body in the route's shape. Rerank asks for every document's score:
 * Cohere/Jina `{query, documents, top_n: all}`, TEI `{query, texts}` (raw scores
 * off, texts not echoed), vLLM's score `{text_1: query, text_2: documents}`.
 */
export function poolingBody(model: string, payload: PoolingPayload, shape: PoolingRoute['shape']): string {
  if (payload.endpoint === 'rerank') {
    if (shape === 'tei-rerank') return JSON.stringify({ query: payload.query, texts: payload.documents, raw_scores: false, return_text: false });
    if (shape === 'score') return JSON.stringify({ model, text_1: payload.query, text_2: payload.documents });
    return JSON.stringify({ model, query: payload.query, documents: payload.documents, top_n: payload.documents.length, return_documents: false });
  }
  if (shape === 'tei-embed') return JSON.stringify({ inputs: payload.inputs });
  return JSON.stringify(shape === 'ollama' ? { model, input: payload.inputs } : { model, input: payload.inputs, encoding_format: 'float' });
}

export interface PoolingClientOptions {
  /** Sockets kept open: the largest level's concurrency. */
  connections: number;
  clock: Clock;
  /** Whole-request limit, ms. */
  timeoutMs: number;
  /**
   * The longest an answer may stay silent once its headers came (no byte
   * arriving), ms: a stalled answer fails then, not at timeoutMs. Default
   * DEFAULT_POOLING_IDLE_MS; never longer than timeoutMs.
   */
  idleMs?: number;
  /** Retries of an answer 429, 529 or 503 with Retry-After (the text client's policy); default DEFAULT_RETRY. */
  retry?: RetryPolicy;
  /** How a retry waits (tests advance a fake clock); default a timer. */
  sleep?: Sleep;
  /** Wall clock for a Retry-After given as a date, ms; default Date.now. */
  wallMs?: () => number;
  /** Send a W3C traceparent with every request, its ids kept on the record; default true. */
  traceparent?: boolean;
}

/** An answer silent this long after its headers fails: 60 s, as a text stream's. */
export const DEFAULT_POOLING_IDLE_MS = 60_000;

export interface PoolingClient {
  send(model: string, payload: PoolingPayload, meta: { seq: number; concurrency: number; warmup: boolean }, signal?: AbortSignal): Promise<PoolingRecord>;
  /**
   * Opens a socket and readies the HTTP parser with one cheap GET (`/v1/models`, its answer dropped unread past
   * `probeResponseBytes`), for a client that sends no warm-up request before the measured ones: a fresh thread's
   * first answer otherwise pays the parser's set-up inside the level. Never fails; answers nothing.
   */
  warm(): Promise<void>;
  close(): Promise<void>;
}

/** A token count from a response header, when it is a plain whole number. */
function headerTokens(v: string | string[] | undefined): number | null {
  const n = typeof v === 'string' && /^\d{1,15}$/.test(v.trim()) ? Number(v.trim()) : NaN;
  return Number.isSafeInteger(n) ? n : null;
}

/** What a refused answer's Retry-After asked, beside its record (never stored: the record keeps the waits). */
const RETRY_AFTER = new WeakMap<PoolingRecord, number>();

/** How the shared retry loop reads a whole answer's record. */
const WHOLE: Retryable<PoolingRecord> = {
  status: (r) => (r.outcome.kind === 'http-error' ? r.outcome.status : null),
  retryAfterMs: (r) => RETRY_AFTER.get(r) ?? null,
  span: (r) => ({ sendNs: r.sentNs, endNs: r.endNs }),
  withWhy: (r, why) => (r.outcome.kind === 'http-error' ? { ...r, outcome: { ...r.outcome, message: `${r.outcome.message} (${why})` } } : r),
};

/** A pooled client for `route` on `target`. */
export function createPoolingClient(target: Target, route: PoolingRoute, opts: PoolingClientOptions): PoolingClient {
  const t = resolveTarget(target);
  const limits = { timeoutMs: opts.timeoutMs, idleMs: Math.min(opts.idleMs ?? DEFAULT_POOLING_IDLE_MS, opts.timeoutMs) };
  const pool = wholeAnswerPool(t.origin, opts.connections, limits);
  const headers = { 'content-type': 'application/json', accept: 'application/json', ...t.authHeaders };
  const policy = boundedRetry(opts.retry ?? DEFAULT_RETRY);
  const sleep = opts.sleep ?? sleepMs;
  const wallMs = opts.wallMs ?? Date.now;
  // A traceparent the user set with --header is theirs to send, on every request: ours would be a second one.
  const userTrace = Object.keys(t.authHeaders).some((h) => h.toLowerCase() === 'traceparent');
  const nextTrace = opts.traceparent === false || userTrace ? null : traceIdSource();

  /** One attempt: the POST, its answer read and checked. */
  async function once(
    model: string,
    payload: PoolingPayload,
    meta: { seq: number; concurrency: number; warmup: boolean },
    ids: TraceIds | null,
    signal?: AbortSignal,
  ): Promise<PoolingRecord> {
    const items = payload.endpoint === 'rerank' ? payload.documents.length : payload.inputs.length;
    const body = poolingBody(model, payload, route.shape);
    const sent = ids === null ? headers : { ...headers, traceparent: traceparentValue(ids) };
    const sentNs = opts.clock();
    const got = await postWhole(pool, { path: t.prefix + route.path, headers: sent, body }, limits, opts.clock, signal, wallMs);
    const record = (outcome: PoolingOutcome, extra: { inputTokens?: number | null; dimension?: number | null } = {}): PoolingRecord => ({
      ...meta,
      sentNs,
      endNs: got.endNs,
      items,
      inputTokens: extra.inputTokens ?? null,
      dimension: extra.dimension ?? null,
      outcome,
      ...(ids === null ? {} : ids),
    });
    if (!got.ok) {
      const failed = record(got.outcome);
      if (got.retryAfterMs != null) RETRY_AFTER.set(failed, got.retryAfterMs);
      return failed;
    }
    const answer = readPoolingAnswer(got.text, route.shape, items);
    if (!answer.ok) return record({ kind: 'bad-answer', message: truncate(answer.message) });
    // TEI's own routes carry no usage in the body: its count is the x-compute-tokens header.
    return record({ kind: 'ok' }, { ...answer, inputTokens: answer.inputTokens ?? headerTokens(got.headers['x-compute-tokens']) });
  }

  return {
    async send(model, payload, meta, signal) {
      // Every attempt carries the same traceparent: one request to the user and to the server's traces.
      const ids = nextTrace?.() ?? null;
      const { first, last, attempts } = await retrying(() => once(model, payload, meta, ids, signal), WHOLE, policy, sleep, signal);
      // One request to the user: its latency counts from the first attempt's send, every earlier attempt kept.
      return attempts.length === 0 ? last : { ...last, sentNs: first.sentNs, attempts };
    },
    async warm() {
      try {
        const res = await pool.request({
          path: `${t.prefix}/v1/models`,
          method: 'GET',
          headers: { accept: 'application/json', ...t.authHeaders },
          signal: AbortSignal.timeout(Math.min(5_000, opts.timeoutMs)),
        });
        await res.body.dump({ limit: LIMITS.probeResponseBytes.max });
      } catch {
        // A warm-up that fails costs the first measured request its set-up, nothing else.
      }
    },
    close: () => pool.close(),
  };
}
