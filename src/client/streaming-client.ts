/**
 * The streaming client: one undici Pool of keep-alive sockets (no pipelining)
 * per target, one {@link StreamHandler} per request. `send` never rejects.
 */
import { Pool } from 'undici';
import type { RequestRecord } from '../core/index.js';
import { monotonicNs, type Clock } from './clock.js';
import { generic } from './dialects/generic.js';
import type { Dialect } from './dialects/types.js';
import { StreamHandler, type HandlerContext } from './stream-handler.js';
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
  const pool = new Pool(resolved.origin, {
    connections: Math.max(1, Math.floor(opts.connections)),
    pipelining: 1,
    connectTimeout: timeouts.connectMs,
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.idleMs,
  });
  const headers = {
    'content-type': 'application/json',
    accept: dialect.api.accept,
    ...resolved.authHeaders,
  };
  const paths = {
    chat: `${resolved.prefix}${dialect.api.paths.chat}`,
    completions: `${resolved.prefix}${dialect.api.paths.completions}`,
  };

  function send(spec: RequestSpec, meta: RequestMeta, signal?: AbortSignal): Promise<RequestRecord> {
    return new Promise<RequestRecord>((resolve) => {
      const handler = new StreamHandler(ctx, meta, spec.maxTokens, resolve);
      let body: string;
      try {
        body = dialect.buildBody(spec);
      } catch (err) {
        const error = Object.assign(new Error(`request body could not be built: ${(err as Error).message}`), { code: 'ERR_REQUEST_BODY' });
        return handler.start(() => { throw error; }, signal);
      }
      const path = paths[spec.endpoint];
      handler.start(() => {
        pool.dispatch({ path, method: 'POST', headers, body, headersTimeout: timeouts.headersMs, bodyTimeout: timeouts.idleMs }, handler);
      }, signal);
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
    await pool.destroy();
  }

  return { send, openConnections, close };
}
