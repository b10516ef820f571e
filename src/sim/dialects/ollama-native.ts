/**
 * Ollama's native generation API: `POST /api/chat` and `POST /api/generate`,
 * NDJSON lines (`message.content`/`message.thinking`, or `response`/`thinking`),
 * a last line with `done: true`, `done_reason`, the counts and durations in
 * nanoseconds; `stream` defaults to true; `options.num_predict` caps; `think:
 * false` turns thinking off; errors are `{"error":"…"}`.
 */
import type { ResponseFormat, ResponseIdentity } from '../response-format.js';
import { ollamaNativeError } from './error-shapes.js';
import { usageCounts } from './openai-style.js';
import type { NativeRoute } from './types.js';

const q = JSON.stringify;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A native message's `images` (bare base64) → the OpenAI content parts the simulator reads, after its text. */
function withImageParts(m: unknown): unknown {
  if (!isRecord(m) || !Array.isArray(m.images) || m.images.length === 0) return m;
  const { images, ...rest } = m;
  const text = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : [];
  const parts = (images as unknown[]).map((b64) => ({ type: 'image_url', image_url: { url: typeof b64 === 'string' ? `data:image/png;base64,${b64}` : b64 } }));
  return { ...rest, content: [...text, ...parts] };
}

/** A native body → the OpenAI-shaped body the simulator reads. */
function translate(raw: Record<string, unknown>, endpoint: 'chat' | 'completion'): Record<string, unknown> {
  const options = isRecord(raw.options) ? raw.options : {};
  const stream = raw.stream !== false;
  const out: Record<string, unknown> = { model: raw.model, stream };
  if (stream) out.stream_options = { include_usage: true };
  if (endpoint === 'chat') out.messages = Array.isArray(raw.messages) ? raw.messages.map(withImageParts) : raw.messages;
  else out.prompt = typeof raw.prompt === 'string' ? raw.prompt : '';
  if (typeof options.num_predict === 'number' && options.num_predict > 0) out.max_tokens = options.num_predict;
  if (raw.think === false) out.reasoning_effort = 'none';
  // Structured outputs: a schema in `format` is what `/v1` reads as response_format json_schema.
  if (isRecord(raw.format)) out.response_format = { type: 'json_schema', json_schema: { name: 'format', schema: raw.format } };
  return out;
}

/** The NDJSON format of one native response. */
function nativeFormat(kind: 'chat' | 'completion', idn: ResponseIdentity): ResponseFormat {
  const startMs = performance.now();
  let finishReason = 'stop';
  const head = () => `{"model":${q(idn.model)},"created_at":"${new Date().toISOString()}"`;
  const thinking = (r: string): string => (r === '' ? '' : `,"thinking":${q(r)}`);
  const text = (r: string, a: string): string =>
    kind === 'completion' ? `"response":${q(a)}${thinking(r)}` : `"message":{"role":"assistant","content":${q(a)}${thinking(r)}}`;
  const line = (r: string, a: string): string => `${head()},${text(r, a)},"done":false}\n`;
  /** The `done: true` object (streamed: empty text; not streamed: the whole text). */
  const final = (usage: string, r = '', a = ''): string => {
    const u = usageCounts(usage);
    const ns = Math.round((performance.now() - startMs) * 1e6);
    return (
      `${head()},${text(r, a)},"done":true,"done_reason":"${finishReason}","total_duration":${ns},"load_duration":0,` +
      `"prompt_eval_count":${u.promptTokens},"prompt_eval_duration":0,"eval_count":${u.completionTokens},"eval_duration":${ns}}`
    );
  };
  return {
    kind,
    wire: { contentType: 'application/x-ndjson', terminator: '', streamError: (m) => `${ollamaNativeError(500, m, null, '')}\n` },
    opening: () => '',
    chunk(reasoning, answer, finish) {
      if (finish !== null) finishReason = finish;
      // A step that makes thinking and content is sent as two lines.
      if (reasoning !== '' && answer !== '') return line(reasoning, '') + line('', answer);
      return line(reasoning, answer);
    },
    usageChunk: (usage) => `${final(usage)}\n`,
    body(reasoning, answer, finish, usage) {
      finishReason = finish;
      return final(usage, reasoning, answer);
    },
  };
}

const route = (endpoint: 'chat' | 'completion'): NativeRoute => ({
  endpoint,
  translate: (raw) => translate(raw, endpoint),
  format: (idn) => nativeFormat(endpoint, idn),
  errorBody: ollamaNativeError,
});

/** Ollama's native generation routes. */
export const OLLAMA_NATIVE_ROUTES: Readonly<Record<string, NativeRoute>> = {
  'POST /api/chat': route('chat'),
  'POST /api/generate': route('completion'),
};
