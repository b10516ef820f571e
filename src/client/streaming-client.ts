/**
 * The streaming client: one undici Pool of keep-alive sockets (no pipelining)
 * per target, one {@link StreamHandler} per request. `send` never rejects.
 * A request that fails on a reused keep-alive socket before any response byte
 * (the server closed it while idle) is sent once more on a fresh connection of
 * its own, and its record says so (`clientRetry`): counted, never silent.
 */
import { randomBytes } from 'node:crypto';
import { Client, Pool, type Dispatcher } from 'undici';
import { LIMITS, type RequestRecord, limitMessage } from '../core/index.js';
import { monotonicNs, type Clock } from './clock.js';
import { generic } from './dialects/generic.js';
import type { Dialect } from './dialects/types.js';
import { watchSocketReuse } from './socket-reuse.js';
import { StreamHandler, type HandlerContext, withAnswerOf } from './stream-handler.js';
import { answerChecker } from './structured-answer.js';
import { toolExpectation } from './tool-calls.js';
import { resolveTarget } from './target.js';
import { DEFAULT_TIMEOUTS, type RequestMeta, type RequestSpec, type Target, type Timeouts } from './types.js';

/** Sends streamed completions and records each one. */
export interface StreamingClient {
  /**
   * Sends one request and resolves with its record when the stream ends
   * (`[DONE]`, close, error, timeout or abort). Never rejects: every failure is
   * a record with an outcome. An aborted `signal` yields outcome `aborted`.
   */
  send(spec: RequestSpec, meta: RequestMeta, signal?: AbortSignal): Promise<RequestRecord>;
  /**
   * Opens up to `n` keep-alive sockets before a level by sending `n` concurrent
   * `GET /v1/models`, so no measured request pays a TCP handshake. Resolves with
   * how many answered; failures are left to the measured requests to report.
   */
  openConnections(n: number): Promise<number>;
  /** Closes every socket at once; requests still in flight resolve as `aborted`. */
  close(): Promise<void>;
}

/** Options of {@link createStreamingClient}. */
export interface StreamingClientOptions {
  /** Sockets to the target; use at least the highest concurrency. */
  connections: number;
  /** Defaults to {@link monotonicNs}. */
  clock?: Clock;
  /** Per-phase limits in ms; see {@link DEFAULT_TIMEOUTS}. */
  timeouts?: Partial<Timeouts>;
  /** The engine's dialect: body, paths, framing and stream fields. Default: the generic OpenAI-compatible one. */
  dialect?: Dialect;
}

/**
 * Creates a client for `target`.
 * @throws TypeError when `target.baseUrl` is not an http(s) URL.
 */
export function createStreamingClient(target: Target, opts: StreamingClientOptions): StreamingClient {
  const resolved = resolveTarget(target);
  const timeouts: Timeouts = { ...DEFAULT_TIMEOUTS, ...opts.timeouts };
  let closing = false;
  const dialect = opts.dialect ?? generic;
  const ctx: HandlerContext = {
    clock: opts.clock ?? monotonicNs,
    timeouts,
    redact: resolved.redact,
    closing: () => closing,
    dialect,
  };
  const socketOptions = { pipelining: 1, connectTimeout: timeouts.connectMs, headersTimeout: timeouts.headersMs, bodyTimeout: timeouts.idleMs };
  const pool = new Pool(resolved.origin, { ...socketOptions, connections: Math.max(1, Math.floor(opts.connections)) });
  /** One-socket clients of retries in flight, closed with the client. */
  const retries = new Set<Client>();
  watchSocketReuse();
  const headers = {
    'content-type': 'application/json',
    accept: dialect.api.accept,
    ...resolved.authHeaders,
  };
  const idHeaders = ['x-request-id', ...dialect.api.requestIdHeaders.map((h) => h.toLowerCase()).filter((h) => h !== 'x-request-id')];
  // Unique across clients, threads and machines: a random prefix per client, then a counter.
  const idPrefix = `gp-${randomBytes(6).toString('hex')}-`;
  let sent = 0;
  const paths = {
    chat: `${resolved.prefix}${dialect.api.paths.chat}`,
    completions: `${resolved.prefix}${dialect.api.paths.completions}`,
    responses: dialect.api.paths.responses === null ? null : `${resolved.prefix}${dialect.api.paths.responses}`,
  };

  function send(spec: RequestSpec, given: RequestMeta, signal?: AbortSignal): Promise<RequestRecord> {
    const meta = given.requestId === undefined ? { ...given, requestId: `${idPrefix}${sent++}` } : given;
    const requestHeaders: Record<string, string> = { ...headers };
    for (const h of idHeaders) requestHeaders[h] = meta.requestId as string;
    return new Promise<RequestRecord>((resolve) => {
      let body: string;
      let bytes = 0;
      const path = paths[spec.endpoint];
      try {
        if (path === null) throw new Error(`${dialect.label} has no Responses API`);
        body = dialect.buildBody(spec);
        // A session resends the server's own answers: a body past the limit is refused here, never sent.
        bytes = Buffer.byteLength(body);
        if (bytes > LIMITS.requestBodyBytes.max) throw new Error(limitMessage('requestBodyBytes', bytes, 'the body'));
      } catch (err) {
        const error = Object.assign(new Error(`request body could not be built: ${(err as Error).message}`), { code: 'ERR_REQUEST_BODY' });
        return new StreamHandler(ctx, meta, spec.maxTokens, resolve).start(() => { throw error; }, signal);
      }
      const request = { path, method: 'POST', headers: requestHeaders, body, headersTimeout: timeouts.headersMs, bodyTimeout: timeouts.idleMs };
      const attempt = (dispatcher: Dispatcher, done: (r: RequestRecord) => void, retry: (() => void) | null) => {
        const handler = new StreamHandler(ctx, meta, spec.maxTokens, done, retry);
        if (spec.keepAnswer) handler.keepAnswer();
        if (spec.endpoint === 'responses') handler.readResponsesEvents();
        // Session turns: what each turn resends is part of what a session compares.
        if (meta.session !== undefined) handler.sentBytes(bytes);
        if (spec.tools !== undefined && spec.endpoint !== 'completions') handler.expectTools(toolExpectation(spec.tools));
        if (spec.structured !== undefined && spec.endpoint !== 'completions') handler.expectAnswerSchema(spec.structured.control ? null : answerChecker(spec.structured.spec));
        handler.start(() => { dispatcher.dispatch(request, handler); }, signal);
      };
      const retryOnFreshSocket = () => {
        const fresh = new Client(resolved.origin, socketOptions);
        retries.add(fresh);
        attempt(fresh, (r) => {
          retries.delete(fresh);
          void fresh.destroy();
          resolve(withAnswerOf(r, { ...r, clientRetry: true }));
        }, null);
      };
      attempt(pool, resolve, retryOnFreshSocket);
    });
  }

  async function openConnections(n: number): Promise<number> {
    const path = `${resolved.prefix}/v1/models`;
    const one = async () => {
      try {
        const res = await pool.request({ path, method: 'GET', headers: resolved.authHeaders, headersTimeout: timeouts.headersMs });
        await res.body.dump();
        return res.statusCode < 400 ? 1 : 0;
      } catch {
        return 0;
      }
    };
    const answered = await Promise.all(Array.from({ length: Math.max(0, Math.floor(n)) }, one));
    return answered.reduce<number>((a, b) => a + b, 0);
  }

  async function close(): Promise<void> {
    closing = true;
    await Promise.all([pool.destroy(), ...[...retries].map((c) => c.destroy())]);
  }

  return { send, openConnections, close };
}
