/**
 * The simulator's speech-to-text route, OpenAI's `/v1/audio/transcriptions`:
 * a multipart/form-data upload of a WAV clip (the synthetic clips goodput
 * makes, or any PCM WAV) with its `model` and `response_format` (json, the
 * default). One transcriber serves requests in arrival order, each for
 * TRANSCRIBER.baseMs plus the clip's seconds × TRANSCRIBER.msPerAudioSecond,
 * so latency grows with the requests ahead of one as the pooling encoder's
 * does; the text holds TRANSCRIBER.wordsPerSecond words per second of audio
 * (at least one), drawn from the clip's bytes. The profile's fault shares
 * apply as they do to generation (never to a warm-up request).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LIMITS, hashString53 } from '../core/index.js';
import { type FaultPicker, HTTP_FAULTS, isHttpFault } from './faults.js';
import { readRawBody, sendError, sendJsonText } from './http-util.js';
import type { SimProfile } from './profile-schema.js';

/** The transcriber's performance model: what a test or a doc can check latency against. */
export const TRANSCRIBER = { baseMs: 20, msPerAudioSecond: 8, wordsPerSecond: 2.5 } as const;

export interface TranscriptionContext {
  profile: SimProfile;
  now(): number;
  faultPicker: FaultPicker;
}

/** When each server's transcriber is next free, in its clock's ms; kept beside its runtime. */
const freeAt = new WeakMap<object, number>();

const WORDS = ['the', 'signal', 'carries', 'a', 'steady', 'tone', 'over', 'quiet', 'noise', 'and', 'then', 'rises', 'once', 'more', 'before', 'it', 'fades'];

/** The parts of a multipart/form-data body by field name, or why it is not one. */
export function formParts(contentType: string | undefined, body: Buffer): Map<string, Buffer> | string {
  const boundary = /^multipart\/form-data;.*boundary="?([^";]+)"?/i.exec(contentType ?? '')?.[1];
  if (boundary === undefined) return 'the body must be multipart/form-data with a boundary';
  const parts = new Map<string, Buffer>();
  const mark = Buffer.from(`--${boundary}`, 'latin1');
  let at = body.indexOf(mark);
  while (at >= 0) {
    const start = at + mark.length;
    if (body.toString('latin1', start, start + 2) === '--') break;
    const next = body.indexOf(mark, start);
    if (next < 0) return 'the body ends before its closing boundary';
    const headEnd = body.indexOf('\r\n\r\n', start, 'latin1');
    if (headEnd < 0 || headEnd > next) return 'a part has no blank line after its headers';
    const name = /name="([^"]*)"/i.exec(body.toString('utf8', start, headEnd))?.[1];
    if (name !== undefined) parts.set(name, body.subarray(headEnd + 4, next - 2));
    at = next;
  }
  return parts;
}

/** Seconds of a PCM WAV file (the data actually sent, at the header's byte rate), or why it is not one. */
export function wavSeconds(wav: Buffer): number | string {
  if (wav.length < 44 || wav.toString('latin1', 0, 4) !== 'RIFF' || wav.toString('latin1', 8, 16) !== 'WAVEfmt ' || wav.toString('latin1', 36, 40) !== 'data')
    return 'file: is not a WAV file (RIFF, WAVE, fmt and data headers)';
  const byteRate = wav.readUInt32LE(28);
  const seconds = byteRate > 0 ? Math.min(wav.readUInt32LE(40), wav.length - 44) / byteRate : Infinity;
  if (!(seconds > 0) || seconds > LIMITS.audioSeconds.max) return `file: lasts ${seconds} seconds: it must be above 0 and at most ${LIMITS.audioSeconds.max}`;
  return seconds;
}

/** The transcript of a clip: its word count follows its length, its words its bytes. */
export function transcriptOf(wav: Buffer, seconds: number): string {
  const n = Math.max(1, Math.round(seconds * TRANSCRIBER.wordsPerSecond));
  const seed = hashString53(wav.toString('latin1', 44, Math.min(wav.length, 44 + 4096)));
  return Array.from({ length: n }, (_, i) => WORDS[(seed + i * 7) % WORDS.length]).join(' ');
}

/** A fault drawn for a non-warm request, acted out; true when it answered (or dropped) the request. */
function actFault(ctx: TranscriptionContext, req: IncomingMessage, res: ServerResponse): boolean {
  const warm = req.headers['x-goodput-warmup'];
  const fault = warm === '1' || warm === 'true' ? null : ctx.faultPicker.next();
  if (fault === null) return false;
  if (isHttpFault(fault)) {
    const f = HTTP_FAULTS[fault];
    sendError(res, f.status, f.message, null, f.type);
  } else if (fault === 'malformedSse') sendJsonText(res, 200, '{"text": "trunc');
  else if (fault === 'midStreamError') sendError(res, 500, 'Simulated transcription error (injected fault).');
  // dropStream and stall: the connection ends with no answer (a stall would otherwise only end at the client's limit).
  else res.destroy();
  return true;
}

/** Answers one transcription request once the transcriber has served it. */
export async function serveTranscription(ctx: TranscriptionContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readRawBody(req);
  const arrivalMs = ctx.now();
  if (body === null) return sendError(res, 413, 'Request body too large.');
  const parts = formParts(req.headers['content-type'], body);
  if (typeof parts === 'string') return sendError(res, 400, parts, 'body');
  const model = parts.get('model')?.toString('utf8');
  if (model === undefined) return sendError(res, 400, 'model: required', 'model');
  if (model !== ctx.profile.model) return sendError(res, 404, `The model \`${model}\` does not exist.`, 'model');
  const format = parts.get('response_format')?.toString('utf8') ?? 'json';
  if (format !== 'json') return sendError(res, 400, `response_format: ${format} is not served (json only)`, 'response_format');
  const file = parts.get('file');
  if (file === undefined) return sendError(res, 400, 'file: required', 'file');
  const seconds = wavSeconds(file);
  if (typeof seconds === 'string') return sendError(res, 400, seconds, 'file');
  if (actFault(ctx, req, res)) return;
  const start = Math.max(arrivalMs, freeAt.get(ctx) ?? 0);
  const done = start + TRANSCRIBER.baseMs + seconds * TRANSCRIBER.msPerAudioSecond;
  freeAt.set(ctx, done);
  const json = JSON.stringify({ text: transcriptOf(file, seconds) });
  const wait = done - ctx.now();
  const send = () => sendJsonText(res, 200, json);
  if (wait <= 0) send();
  else setTimeout(send, wait);
}

/** The route by "METHOD /path". */
export const TRANSCRIPTION_ROUTES: Readonly<Record<string, typeof serveTranscription>> = {
  'POST /v1/audio/transcriptions': serveTranscription,
};
