/**
 * The client of OpenAI's speech-to-text route (`/v1/audio/transcriptions`):
 * one multipart/form-data upload per request (the WAV clip, the model,
 * `response_format: json`), the answer read whole up to
 * `poolingResponseBytes` and timed from the hand-over to its last byte, then
 * its `text` counted in words. Every failure is a record, as a pooling
 * request's is.
 */
import { randomBytes } from 'node:crypto';
import { Pool } from 'undici';
import { LIMITS, type PoolingOutcome, TRANSCRIPTION_PATH, type TranscriptionRecord } from '../core/index.js';
import { readBounded } from './bounded-body.js';
import type { Clock } from './clock.js';
import { httpErrorMessage, truncate } from './error-text.js';
import { errorCode } from './failure.js';
import { overflow } from './response-limits.js';
import { resolveTarget } from './target.js';
import type { Target } from './types.js';

/** One clip to transcribe: its WAV bytes and the seconds they hold. */
export interface TranscriptionClip {
  wav: Buffer;
  seconds: number;
}

export interface TranscriptionClient {
  send(model: string, clip: TranscriptionClip, meta: { seq: number; concurrency: number; warmup: boolean }, signal?: AbortSignal): Promise<TranscriptionRecord>;
  close(): Promise<void>;
}

/** The multipart/form-data body of one upload, and its content type. */
export function transcriptionBody(model: string, wav: Buffer, boundary = `goodput-${randomBytes(8).toString('hex')}`): { body: Buffer; contentType: string } {
  const field = (name: string, value: string) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = `${field('model', model)}${field('response_format', 'json')}--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="clip.wav"\r\ncontent-type: audio/wav\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head, 'utf8'), wav, Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1')]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** The words of a JSON answer's `text`, or why the answer breaks the route's contract. */
export function wordsOfAnswer(text: string): { ok: true; words: number } | { ok: false; message: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, message: 'the answer is not JSON' };
  }
  const said = (data as { text?: unknown } | null)?.text;
  if (typeof said !== 'string') return { ok: false, message: 'the answer has no text' };
  return { ok: true, words: said.split(/\s+/).filter((w) => w !== '').length };
}

function failure(err: unknown, timeoutMs: number, aborted: boolean): PoolingOutcome {
  if (aborted) return { kind: 'aborted' };
  const code = errorCode(err);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'TimeoutError' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return { kind: 'timeout', message: `no complete answer within ${timeoutMs} ms` };
  return { kind: 'connection-error', code, message: truncate(`${code}: ${err instanceof Error ? err.message : String(err)}`) };
}

/** A pooled client for the transcription route on `target`; warm-up requests say so in `x-goodput-warmup`. */
export function createTranscriptionClient(target: Target, opts: { connections: number; clock: Clock; timeoutMs: number }): TranscriptionClient {
  const t = resolveTarget(target);
  const pool = new Pool(t.origin, {
    connections: opts.connections,
    pipelining: 1,
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.timeoutMs,
    connectTimeout: Math.min(10_000, opts.timeoutMs),
  });
  return {
    async send(model, clip, meta, signal) {
      const { body, contentType } = transcriptionBody(model, clip.wav);
      const headers = { 'content-type': contentType, accept: 'application/json', ...(meta.warmup ? { 'x-goodput-warmup': '1' } : {}), ...t.authHeaders };
      const limit = AbortSignal.timeout(opts.timeoutMs);
      const both = signal ? AbortSignal.any([signal, limit]) : limit;
      const sentNs = opts.clock();
      const record = (outcome: PoolingOutcome, words: number | null = null, endNs = opts.clock()): TranscriptionRecord => ({
        ...meta,
        sentNs,
        endNs,
        audioS: clip.seconds,
        words,
        outcome,
      });
      try {
        const res = await pool.request({ path: t.prefix + TRANSCRIPTION_PATH, method: 'POST', headers, body, signal: both });
        if (res.statusCode < 200 || res.statusCode > 299) {
          const text = await readBounded(res.body, LIMITS.errorBodyBytes.max);
          return record({
            kind: 'http-error',
            status: res.statusCode,
            message: text.ok ? httpErrorMessage(res.statusCode, '', text.text) : `HTTP ${res.statusCode}`,
          });
        }
        const text = await readBounded(res.body, LIMITS.poolingResponseBytes.max);
        const endNs = opts.clock();
        if (!text.ok) return record({ kind: 'response-too-large', message: overflow('poolingResponseBytes', 'the answer').message }, null, endNs);
        const answer = wordsOfAnswer(text.text);
        if (!answer.ok) return record({ kind: 'bad-answer', message: truncate(answer.message) }, null, endNs);
        return record({ kind: 'ok' }, answer.words, endNs);
      } catch (err) {
        return record(failure(err, opts.timeoutMs, signal?.aborted === true));
      }
    },
    close: () => pool.close(),
  };
}
