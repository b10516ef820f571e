/**
 * The streaming client: one pool of keep-alive sockets (no pipelining) per
 * target over the measured send path (h1-pool.ts: each request written in one
 * write the moment a socket is free, its head computed once per client but for
 * its length, id and traceparent), one {@link StreamHandler} per request. `send` never rejects.
 * A request that fails on a reused keep-alive socket before any response byte
 * (the server closed it while idle) is sent once more on a fresh connection of
 * its own, and its record says so (`clientRetry`): counted, never silent.
 */
import { randomBytes } from 'node:crypto';
import { DEFAULT_RETRY, LIMITS, type RequestRecord, type RetryPolicy, boundedRetry, limitMessage } from '../core/index.js';
import { monotonicNs, type Clock } from './clock.js';
import { generic } from './dialects/generic.js';
import type { Dialect } from './dialects/types.js';
import { H1Pool, type H1PoolOptions, headerLines, requestHead } from './h1-pool.js';
import { type Sleep, sleepMs, withProviderRetries } from './provider-retry.js';
import { StreamHandler, type HandlerContext, withAnswerOf } from './stream-handler.js';
import { quietQueue } from './quiet-queue.js';
import { answerChecker } from './structured-answer.js';
import { toolExpectation } from './tool-calls.js';
import { traceIdSource, traceparentLine } from './trace-context.js';
import { azurePath, resolveTarget } from './target.js';
import { DEFAULT_TIMEOUTS, type RequestMeta, type RequestSpec, type Target, type Timeouts } from './types.js';

/** The longest a `whenQuiet` item waits for a quiet moment, ms. */
const AHEAD_WAIT_MS = 2000;

/**
 * A request built ahead of its send: its meta with the request id and traceparent it will carry, and its bytes
 * (or the error that refuses it before any byte leaves), so the send pays only the write.
 */
export interface PreparedRequest {
  readonly spec: RequestSpec;
  readonly meta: RequestMeta;
  /** The request's bytes, encoded once as it was built. */
  readonly wire: Buffer | Error;
  readonly bytes: number;
  readonly builtNs: number;
}

/** Sends streamed completions and records each one. */
export interface StreamingClient {
  /** Builds `spec` for a later send (its request id and traceparent drawn now); `meta.targetSendNs` is the send's. */
  prepare(spec: RequestSpec, meta: RequestMeta): PreparedRequest;
  /**
   * Sends one request (built now, or by `prepare`) and resolves with its record when the stream ends
   * (`[DONE]`, close, error, timeout or abort). Never rejects: every failure is
   * a record with an outcome. An aborted `signal` yields outcome `aborted`.
   * `onEnded`, when given, hears a stream that ended well (`[DONE]`) the moment
   * its end is read, before its record is built (the record follows once the
   * sockets with bytes waiting are read): a closed loop sends the request that
   * replaces it from there.
   */
  send(request: RequestSpec | PreparedRequest, meta: RequestMeta, signal?: AbortSignal, onEnded?: (endNs: number) => void): Promise<RequestRecord>;
  /**
   * Opens up to `n` keep-alive sockets before a level (connected, TLS done), so no
   * measured request pays a handshake. Resolves with how many connected; failures
   * are left to the measured requests to report.
   */
  openConnections(n: number): Promise<number>;
  /**
   * Runs `work` in a quiet moment: once the reads waiting now (a burst of ends and their replacements) are done,
   * as the records of ended streams are built. A closed loop builds its next round's requests there.
   */
  whenQuiet?(work: () => void): void;
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
  /** Retries of answers 429, 529 or 503 with Retry-After; default {@link DEFAULT_RETRY} (3 retries, 60 s of waiting in all). */
  retry?: RetryPolicy;
  /** How a retry waits (tests pass one that does not); default a timer. */
  sleep?: Sleep;
  /** Wall-clock ms, read only to turn a header's date into a wait; default Date.now. */
  wallMs?: () => number;
  /** Send a W3C `traceparent` header with every request (its ids kept on the record); default true. */
  traceparent?: boolean;
}

/**
 * Creates a client for `target`.
 * @throws TypeError when `target.baseUrl` is not an http(s) URL, or the API key holds a character a header cannot carry.
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
    trace: process.env.GOODPUT_SEND_TRACE === '1',
    wallMs: opts.wallMs ?? Date.now,
    later: quietQueue(),
  };
  // Work for a later round (requests built ahead) waits out a whole burst, however long: the records' 100 ms is too short at 1,024 streams.
  const ahead = quietQueue(AHEAD_WAIT_MS);
  const retryPolicy = boundedRetry(opts.retry ?? DEFAULT_RETRY);
  const sleep = opts.sleep ?? sleepMs;
  const socketOptions: Omit<H1PoolOptions, 'connections'> = { connectMs: timeouts.connectMs, headersMs: timeouts.headersMs, idleMs: timeouts.idleMs };
  const pool = new H1Pool(resolved.origin, { ...socketOptions, connections: Math.max(1, Math.floor(opts.connections)) });
  /** One-socket pools of retries in flight, closed with the client. */
  const retries = new Set<H1Pool>();
  // Every header but the length and the request's id, once per client.
  const fixedLines = headerLines({ 'content-type': 'application/json', accept: dialect.api.accept, ...resolved.authHeaders });
  const idHeaders = ['x-request-id', ...dialect.api.requestIdHeaders.map((h) => h.toLowerCase()).filter((h) => h !== 'x-request-id')];
  // Unique across clients, threads and machines: a random prefix per client, then a counter.
  const idPrefix = `gp-${randomBytes(6).toString('hex')}-`;
  let sent = 0;
  // A traceparent the user set with --header is theirs to send, on every request: ours would be a second one.
  const userTrace = Object.keys(resolved.authHeaders).some((h) => h.toLowerCase() === 'traceparent');
  const nextTrace = opts.traceparent === false || userTrace ? null : traceIdSource();
  const routed = (path: string | null): string | null => (path === null ? null : `${resolved.prefix}${path}`);
  const azure = target.azure;
  // An Azure deployment is its own route (and serves only chat and completions here): its name and api-version in the path.
  const paths = {
    chat: azure === undefined ? `${resolved.prefix}${dialect.api.paths.chat}` : azurePath(resolved.prefix, { azure }, 'chat'),
    completions: azure === undefined ? `${resolved.prefix}${dialect.api.paths.completions}` : azurePath(resolved.prefix, { azure }, 'completions'),
    responses: azure === undefined ? routed(dialect.api.paths.responses) : null,
    messages: azure === undefined ? routed(dialect.api.paths.messages) : null,
  };
  const apiNames = { responses: 'Responses API', messages: "Anthropic's Messages API" } as const;

  function prepare(spec: RequestSpec, given: RequestMeta): PreparedRequest {
    const meta: RequestMeta = {
      ...given,
      ...(given.requestId === undefined ? { requestId: `${idPrefix}${sent++}` } : {}),
      ...(nextTrace === null ? {} : { trace: nextTrace() }),
    };
    const path = paths[spec.endpoint];
    try {
      if (path === null)
        throw new Error(`${azure === undefined ? dialect.label : 'an Azure deployment'} has no ${apiNames[spec.endpoint as keyof typeof apiNames]}`);
      const body = dialect.buildBody(spec);
      // A session resends the server's own answers: a body past the limit is refused here, never sent,
      // and recorded as our limit (its own code), not as the server failing.
      const bytes = Buffer.byteLength(body);
      if (bytes > LIMITS.requestBodyBytes.max) {
        const message = `our request-body limit: ${limitMessage('requestBodyBytes', bytes, 'the body')}; never sent`;
        return { spec, meta, wire: Object.assign(new Error(message), { code: 'ERR_REQUEST_BODY_LIMIT' }), bytes, builtNs: 0 };
      }
      const id = meta.requestId as string;
      if (!/^[\x21-\x7e]{1,256}$/.test(id)) throw new Error('the request id must be 1 to 256 visible ASCII characters');
      let lines = fixedLines;
      for (const h of idHeaders) lines += `${h}: ${id}\r\n`;
      if (meta.trace !== undefined) lines += traceparentLine(meta.trace);
      const wire = Buffer.from(requestHead('POST', path, pool.hostHeader, lines, bytes) + body);
      return { spec, meta, wire, bytes, builtNs: ctx.trace ? ctx.clock() : 0 };
    } catch (err) {
      const error = Object.assign(new Error(`request body could not be built: ${(err as Error).message}`), { code: 'ERR_REQUEST_BODY' });
      return { spec, meta, wire: error, bytes: 0, builtNs: 0 };
    }
  }

  function send(request: RequestSpec | PreparedRequest, given: RequestMeta, signal?: AbortSignal, onEnded?: (endNs: number) => void): Promise<RequestRecord> {
    const built = 'wire' in request ? request : prepare(request, given);
    // Built ahead: the send says what the request is (its place, warm-up or not, when it was meant to leave); the
    // build only which ids it carries.
    const { requestId, trace } = built.meta;
    const p =
      built === request
        ? { ...built, meta: { ...given, ...(requestId === undefined ? {} : { requestId }), ...(trace === undefined ? {} : { trace }) } }
        : built;
    // Every attempt carries the same request id and traceparent: one request to the user, to the server's log and its traces.
    return withProviderRetries(() => sendOnce(p, signal, onEnded), retryPolicy, sleep, signal);
  }

  function sendOnce(p: PreparedRequest, signal?: AbortSignal, onEnded?: (endNs: number) => void): Promise<RequestRecord> {
    const { spec, meta, wire, bytes, builtNs } = p;
    return new Promise<RequestRecord>((resolve) => {
      if (wire instanceof Error)
        return new StreamHandler(ctx, meta, spec.maxTokens, resolve).start(() => {
          throw wire;
        }, signal);
      const request = { method: 'POST' as const, wire };
      const attempt = (dispatcher: H1Pool, done: (r: RequestRecord) => void, retry: (() => void) | null) => {
        const handler = new StreamHandler(ctx, meta, spec.maxTokens, done, retry);
        if (ctx.trace) handler.builtNs = builtNs;
        if (onEnded !== undefined) handler.onEnded = onEnded;
        if (spec.keepAnswer) handler.keepAnswer();
        if (spec.cancel !== undefined) handler.cancelAt(spec.cancel);
        if (spec.endpoint === 'responses') handler.readResponsesEvents();
        if (spec.endpoint === 'messages') handler.readMessagesEvents();
        // Session turns: what each turn resends is part of what a session compares. Images or audio: the body's
        // size is what shows a receipt's reader that the media were sent.
        if (meta.session !== undefined || (spec.images?.length ?? 0) > 0 || spec.audio !== undefined) handler.sentBytes(bytes);
        if (spec.tools !== undefined && spec.endpoint !== 'completions') handler.expectTools(toolExpectation(spec.tools));
        if (spec.structured !== undefined && spec.endpoint !== 'completions')
          handler.expectAnswerSchema(spec.structured.control ? null : answerChecker(spec.structured.spec));
        handler.start(() => {
          dispatcher.dispatch(request, handler);
        }, signal);
      };
      const retryOnFreshSocket = () => {
        const fresh = new H1Pool(resolved.origin, { ...socketOptions, connections: 1 });
        retries.add(fresh);
        attempt(
          fresh,
          (r) => {
            retries.delete(fresh);
            fresh.close();
            resolve(withAnswerOf(r, { ...r, clientRetry: true }));
          },
          null,
        );
      };
      attempt(pool, resolve, retryOnFreshSocket);
    });
  }

  function openConnections(n: number): Promise<number> {
    return pool.warm(Math.max(0, Math.floor(n)));
  }

  async function close(): Promise<void> {
    closing = true;
    pool.close();
    for (const r of retries) r.close();
    await Promise.resolve();
  }

  return { prepare, send, openConnections, whenQuiet: (work) => ahead.push(work), close };
}
