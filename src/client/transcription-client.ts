/**
 * The client of OpenAI's speech-to-text route (`/v1/audio/transcriptions`):
 * one multipart/form-data upload per request (the WAV clip, the model,
 * `response_format: json`), the answer read whole up to
 * `poolingResponseBytes` and timed from the hand-over to its last byte, then
 * its `text` counted in words. Every failure is a record, as a pooling
 * request's is.
 */
import { randomBytes } from 'node:crypto';
import { type PoolingOutcome, TRANSCRIPTION_PATH, type TranscriptionRecord } from '../core/index.js';
import type { Clock } from './clock.js';
import { truncate } from './error-text.js';
import { resolveTarget } from './target.js';
import type { Target } from './types.js';
import { postWhole, wholeAnswerPool } from './whole-answer.js';

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

/** A pooled client for the transcription route on `target`; warm-up requests say so in `x-goodput-warmup`. */
export function createTranscriptionClient(target: Target, opts: { connections: number; clock: Clock; timeoutMs: number }): TranscriptionClient {
  const t = resolveTarget(target);
  // No idle limit of its own: the whole request's bounds the answer's body too.
  const limits = { timeoutMs: opts.timeoutMs, idleMs: null };
  const pool = wholeAnswerPool(t.origin, opts.connections, limits);
  return {
    async send(model, clip, meta, signal) {
      const { body, contentType } = transcriptionBody(model, clip.wav);
      const headers = { 'content-type': contentType, accept: 'application/json', ...(meta.warmup ? { 'x-goodput-warmup': '1' } : {}), ...t.authHeaders };
      const sentNs = opts.clock();
      const got = await postWhole(pool, { path: t.prefix + TRANSCRIPTION_PATH, headers, body }, limits, opts.clock, signal);
      const record = (outcome: PoolingOutcome, words: number | null = null): TranscriptionRecord => ({
        ...meta,
        sentNs,
        endNs: got.endNs,
        audioS: clip.seconds,
        words,
        outcome,
      });
      if (!got.ok) return record(got.outcome);
      const answer = wordsOfAnswer(got.text);
      return answer.ok ? record({ kind: 'ok' }, answer.words) : record({ kind: 'bad-answer', message: truncate(answer.message) });
    },
    close: () => pool.close(),
  };
}
