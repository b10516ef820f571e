/**
 * `POST /v1/messages`, Anthropic's Messages API: the body is translated to
 * the chat body the rest of the simulator reads (`system` and `messages` →
 * messages, text content blocks joined, `max_tokens` → the cap, extended
 * thinking on only with `thinking: {type: "enabled"}`, usage always
 * reported), so a request runs on the chat endpoint's schedule. The answer
 * streams as the Messages API's events, in the documented order:
 * `message_start`, `ping`, then per content block `content_block_start`,
 * `content_block_delta` (`thinking_delta`, then a `signature_delta` before
 * the thinking block stops; `text_delta`; a tool call's `input_json_delta`)
 * and `content_block_stop`, then `message_delta` (stop reason, cumulative
 * usage) and `message_stop`; no `[DONE]`. A mid-stream failure is an `error`
 * event; error bodies are Anthropic's `{"type":"error","error":{type,message}}`.
 */
import type { ErrorBody, NativeRoute } from './dialects/types.js';
import { usageCounts } from './dialects/openai-style.js';
import type { ResponseFormat, ResponseIdentity } from './response-format.js';

type Obj = Record<string, unknown>;
const q = JSON.stringify;

/** Anthropic's error types by status (its errors page). */
const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export const anthropicError: ErrorBody = (status, message) => q({ type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message } });

/** A message's content: a string, or content blocks whose text blocks are joined (other blocks carry no text here). */
function contentText(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  return content.map((b: unknown) => (typeof b === 'object' && b !== null && (b as Obj).type === 'text' ? String((b as Obj).text ?? '') : '')).join('');
}

function translate(raw: Obj): Obj {
  const stream = raw.stream === true;
  const system = typeof raw.system === 'string' ? [{ role: 'system', content: raw.system }] : [];
  const given = Array.isArray(raw.messages) ? raw.messages : raw.messages;
  const messages = Array.isArray(given)
    ? [...system, ...given.map((m: unknown) => (typeof m === 'object' && m !== null ? { ...(m as Obj), content: contentText((m as Obj).content) } : m))]
    : given;
  const out: Obj = { model: raw.model, stream, messages };
  if (stream) out.stream_options = { include_usage: true };
  if (raw.max_tokens != null) out.max_tokens = raw.max_tokens;
  if (raw.temperature != null) out.temperature = raw.temperature;
  // Extended thinking is off unless asked for, as on Anthropic's API.
  if ((raw.thinking as Obj | undefined)?.type !== 'enabled') out.chat_template_kwargs = { enable_thinking: false };
  return out;
}

/** Stop reasons in the Messages API's words. */
const STOP: Readonly<Record<string, string>> = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use' };

/** Messages usage from the chat usage JSON the generation run hands a format: the prompt split into fresh and cache-read tokens. */
function messagesUsage(json: string): string {
  const u = usageCounts(json);
  return q({
    input_tokens: u.promptTokens - u.cachedTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: u.cachedTokens,
    output_tokens: u.completionTokens,
  });
}

/** One answer's Messages API events (or its whole JSON when not streamed). */
function messagesFormat(idn: ResponseIdentity): ResponseFormat {
  let index = -1;
  let open: 'thinking' | 'text' | 'tool' | null = null;
  let finish = 'stop';
  const event = (type: string, fields: string): string => `event: ${type}\ndata: {"type":"${type}"${fields}}\n\n`;
  const stop = (): string => {
    if (open === null) return '';
    // A thinking block ends with its signature (the API's integrity check of the thinking text).
    const signature =
      open === 'thinking' ? event('content_block_delta', `,"index":${index},"delta":{"type":"signature_delta","signature":"sim-${idn.id}"}`) : '';
    open = null;
    return signature + event('content_block_stop', `,"index":${index}`);
  };
  const start = (kind: 'thinking' | 'text', block: string): string => {
    if (open === kind) return '';
    const closed = stop();
    open = kind;
    index += 1;
    return closed + event('content_block_start', `,"index":${index},"content_block":${block}`);
  };
  const delta = (json: string): string => event('content_block_delta', `,"index":${index},"delta":${json}`);
  return {
    kind: 'chat',
    wire: {
      contentType: 'text/event-stream; charset=utf-8',
      terminator: '',
      streamError: (message) => event('error', `,"error":{"type":"api_error","message":${q(message)}}`),
    },
    opening: () =>
      event(
        'message_start',
        `,"message":{"id":${q(idn.id)},"type":"message","role":"assistant","content":[],"model":${q(idn.model)},"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":${idn.promptTokens ?? 0},"output_tokens":1}}`,
      ) + event('ping', ''),
    chunk(reasoning, answer, f) {
      if (f !== null) finish = f;
      let out = '';
      if (reasoning !== '') out += start('thinking', '{"type":"thinking","thinking":""}') + delta(`{"type":"thinking_delta","thinking":${q(reasoning)}}`);
      if (answer !== '') out += start('text', '{"type":"text","text":""}') + delta(`{"type":"text_delta","text":${q(answer)}}`);
      return out;
    },
    toolChunk(call, args, f) {
      if (f !== null) finish = f;
      let out = '';
      if (call !== null) {
        out += stop();
        open = 'tool';
        index += 1;
        out += event('content_block_start', `,"index":${index},"content_block":{"type":"tool_use","id":${q(call.id)},"name":${q(call.name)},"input":{}}`);
      }
      return out + (args === '' ? '' : delta(`{"type":"input_json_delta","partial_json":${q(args)}}`));
    },
    usageChunk(usage) {
      return (
        stop() +
        event('message_delta', `,"delta":{"stop_reason":"${STOP[finish] ?? 'end_turn'}","stop_sequence":null},"usage":${messagesUsage(usage)}`) +
        event('message_stop', '')
      );
    },
    body(reasoning, answer, f, usage) {
      const blocks = [...(reasoning === '' ? [] : [{ type: 'thinking', thinking: reasoning, signature: `sim-${idn.id}` }]), { type: 'text', text: answer }];
      return `{"id":${q(idn.id)},"type":"message","role":"assistant","content":${q(blocks)},"model":${q(idn.model)},"stop_reason":"${STOP[f] ?? 'end_turn'}","stop_sequence":null,"usage":${messagesUsage(usage)}}`;
    },
  };
}

/** The Messages API route, read as a chat request. */
export const MESSAGES_ROUTE: NativeRoute = {
  endpoint: 'chat',
  translate,
  format: (idn) => messagesFormat(idn),
  errorBody: anthropicError,
};
