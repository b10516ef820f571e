/**
 * Non-streamed JSON POSTs to one server over one keep-alive undici Client, for the
 * quality evaluation's short requests (`max_tokens: 1`). A connection error or a
 * timeout throws a QualityError; any HTTP status is returned to the caller, who
 * decides what it means. The API key goes out only as a header and is scrubbed
 * from every message.
 */
import { Client } from 'undici';
import { httpErrorMessage, resolveTarget, type ResolvedTarget, type Target } from '../client/index.js';
import { QualityError } from './quality-error.js';

/** One answered request: status, parsed body (undefined when not JSON) and a plain message for non-2xx. */
export interface JsonAnswer {
  status: number;
  body: unknown;
  /** The server's error message (or an excerpt) when the status is not 2xx; '' otherwise. */
  error: string;
}

/** POSTs JSON bodies to one server; `close()` when done. */
export class JsonPoster {
  /** `baseline` or `candidate`, for messages. */
  readonly side: string;
  readonly target: ResolvedTarget;
  private readonly client: Client;

  /**
   * @param timeoutMs limit of each request (connect, headers and body), ms.
   * @throws TypeError when the target's URL is not http(s).
   */
  constructor(
    side: string,
    target: Target,
    private readonly timeoutMs: number,
  ) {
    this.side = side;
    this.target = resolveTarget(target);
    this.client = new Client(this.target.origin, { connectTimeout: timeoutMs, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  }

  /** `side URL` for messages, without the key. */
  where(path: string): string {
    return `${this.side} ${this.target.displayUrl}${path}`;
  }

  /** POSTs `body` to `path` (e.g. `/v1/completions`). @throws QualityError('unreachable') on a connection error or timeout. */
  async post(path: string, body: unknown): Promise<JsonAnswer> {
    const t = this.target;
    try {
      const res = await this.client.request({
        path: `${t.prefix}${path}`,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...t.authHeaders },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const text = await res.body.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      return { status: res.statusCode, body: parsed, error: ok ? '' : t.redact(httpErrorMessage(res.statusCode, '', text)) };
    } catch (err) {
      const e = err as Error & { code?: string };
      const timedOut = e.name === 'TimeoutError' || (e.code ?? '').includes('TIMEOUT');
      const why = timedOut ? `did not answer within ${this.timeoutMs} ms` : `could not be reached (${e.code ?? e.name})`;
      throw new QualityError('unreachable', t.redact(`${this.where(path)} ${why}. Check that the server is running and the URL is right.`));
    }
  }

  async close(): Promise<void> {
    await this.client.destroy();
  }
}
