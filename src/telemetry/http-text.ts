/**
 * One bounded GET for telemetry: a metrics endpoint, a DCGM exporter. GET only
 * (a scrape must never change the server's state), a total time limit, and a
 * body size limit so a wrong URL cannot flood us. Never rejects: failures come
 * back as a sentence.
 */
import { request } from 'undici';
import { LIMITS } from '../core/index.js';

export type HttpText = { ok: true; status: number; contentType: string; text: string; ms: number } | { ok: false; error: string };

export interface GetTextOptions {
  /** Whole request limit, ms. Default 2000. */
  timeoutMs?: number;
  /** Body limit, bytes. Default: the limits table's probe response bound (which names `/metrics`). */
  maxBytes?: number;
  headers?: Record<string, string>;
}

/** A failed request in a few words: no answer in time, or the system's code. */
export function httpFailure(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; code?: string; message?: string };
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT') {
    return `no answer within ${timeoutMs} ms`;
  }
  const cause = (err as { cause?: { code?: string } }).cause?.code;
  return e.code ?? cause ?? e.message ?? String(err);
}

/** GETs `url` and returns its text, or why not. */
export async function getText(url: string, opts: GetTextOptions = {}): Promise<HttpText> {
  const timeoutMs = opts.timeoutMs ?? 2000;
  const maxBytes = opts.maxBytes ?? LIMITS.probeResponseBytes.max;
  const started = performance.now();
  try {
    const res = await request(url, {
      method: 'GET',
      headers: { accept: 'text/plain, */*', ...opts.headers },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) {
        res.body.destroy();
        return { ok: false, error: `the answer is larger than ${maxBytes} bytes` };
      }
      chunks.push(chunk as Buffer);
    }
    const type = res.headers['content-type'];
    return {
      ok: true,
      status: res.statusCode,
      contentType: Array.isArray(type) ? type.join(',') : (type ?? ''),
      text: Buffer.concat(chunks).toString('utf8'),
      ms: performance.now() - started,
    };
  } catch (err) {
    return { ok: false, error: httpFailure(err, timeoutMs) };
  }
}
