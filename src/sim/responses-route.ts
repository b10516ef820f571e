/**
 * `POST /v1/responses`, the OpenAI Responses API: the body is translated to the
 * chat body the rest of the simulator reads (`input` → messages,
 * `max_output_tokens` → the cap, usage always reported), answers stream as
 * Responses events (`response.created`, `response.output_text.delta`,
 * `response.reasoning_text.delta`, `response.completed` with usage, no
 * `[DONE]`), and every answer is stored under its id so a later request with
 * `previous_response_id` continues the conversation server-side: its prompt is
 * the stored context plus the new input (and the prefix cache sees it so).
 */
import { nestedNullCode } from './dialects/error-shapes.js';
import type { NativeRoute } from './dialects/types.js';
import { usageCounts } from './dialects/openai-style.js';
import type { ResponseFormat, ResponseIdentity } from './response-format.js';

type Obj = Record<string, unknown>;
const q = JSON.stringify;

/** Conversations kept for `previous_response_id`: at most this many answers and words in all (the oldest go first). */
export const MAX_STORED_RESPONSES = 10_000;
export const MAX_STORED_WORDS = 4_000_000;

/** Stored conversations (prompt words plus answer words) by response id, bounded in count and words. */
export class ResponseStore {
  private readonly byId = new Map<string, readonly string[]>();
  private words = 0;

  get(id: string): readonly string[] | undefined {
    return this.byId.get(id);
  }

  set(id: string, words: readonly string[]): void {
    this.byId.set(id, words);
    this.words += words.length;
    while (this.byId.size > MAX_STORED_RESPONSES || (this.words > MAX_STORED_WORDS && this.byId.size > 1)) {
      const [oldest, dropped] = this.byId.entries().next().value as [string, readonly string[]];
      this.byId.delete(oldest);
      this.words -= dropped.length;
    }
  }
}

/**
 * One Responses input part as the chat part the simulator reads: input_image (its image_url a URL
 * string) → image_url, input_audio unchanged (the same shape in both APIs), anything else → text.
 */
function chatPart(p: Obj): Obj {
  if (p.type === 'input_image') return { type: 'image_url', image_url: typeof p.image_url === 'string' ? { url: p.image_url } : {} };
  if (p.type === 'input_audio') return p;
  return { ...p, type: 'text' };
}

/** Responses `input` (a string, or a list of messages) as chat messages. */
function messagesOf(input: unknown): unknown {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input)) return input;
  return input.map((m: unknown) => {
    if (typeof m !== 'object' || m === null) return m;
    const msg = m as Obj;
    const content = Array.isArray(msg.content) ? msg.content.map((p: unknown) => (typeof p === 'object' && p !== null ? chatPart(p as Obj) : p)) : msg.content;
    return { role: msg.role ?? 'user', content };
  });
}

function translate(raw: Obj): Obj {
  const stream = raw.stream === true;
  const out: Obj = { model: raw.model, stream, messages: messagesOf(raw.input) };
  if (stream) out.stream_options = { include_usage: true };
  if (raw.max_output_tokens != null) out.max_tokens = raw.max_output_tokens;
  if (typeof raw.previous_response_id === 'string') out.previous_response_id = raw.previous_response_id;
  // Flat function tools → chat's nested ones; a named choice likewise; text.format → response_format.
  if (Array.isArray(raw.tools)) out.tools = raw.tools.map((t: unknown) => (typeof t === 'object' && t !== null ? { type: 'function', function: t } : t));
  const choice = raw.tool_choice;
  if (typeof choice === 'string') out.tool_choice = choice;
  else if (typeof choice === 'object' && choice !== null) out.tool_choice = { type: 'function', function: { name: (choice as Obj).name } };
  const format = (raw.text as Obj | undefined)?.format as Obj | undefined;
  if (format?.type === 'json_schema') out.response_format = { type: 'json_schema', json_schema: { name: format.name, schema: format.schema } };
  const effort = (raw.reasoning as Obj | undefined)?.effort;
  if (effort === 'none') out.reasoning_effort = 'none';
  return out;
}

/** Responses usage from the chat usage JSON the generation run hands a format. */
function responsesUsage(json: string): string {
  const u = usageCounts(json);
  return q({
    input_tokens: u.promptTokens,
    input_tokens_details: { cached_tokens: u.cachedTokens },
    output_tokens: u.completionTokens,
    output_tokens_details: { reasoning_tokens: u.reasoningTokens },
    total_tokens: u.promptTokens + u.completionTokens,
  });
}

/** One response's Responses events (or its whole JSON when not streamed). */
function responsesFormat(idn: ResponseIdentity): ResponseFormat {
  let seq = 0;
  let finish: string | null = null;
  const itemId = `msg_${idn.id}`;
  const event = (type: string, fields: string): string => `event: ${type}\ndata: {"type":"${type}","sequence_number":${seq++},${fields}}\n\n`;
  const response = (status: string, extra = ''): string =>
    `"response":{"id":${q(idn.id)},"object":"response","created_at":${idn.created},"status":"${status}","model":${q(idn.model)}${extra}}`;
  const delta = (type: string, text: string): string => event(type, `"item_id":"${itemId}","output_index":0,"content_index":0,"delta":${q(text)}`);
  const ending = (usage: string): { status: string; extra: string } => {
    const cut = finish === 'length';
    return {
      status: cut ? 'incomplete' : 'completed',
      extra: `,"incomplete_details":${cut ? '{"reason":"max_output_tokens"}' : 'null'},"usage":${responsesUsage(usage)}`,
    };
  };
  return {
    kind: 'chat',
    wire: {
      contentType: 'text/event-stream; charset=utf-8',
      terminator: '',
      streamError: (message) => event('error', `"code":"server_error","message":${q(message)},"param":null`),
    },
    opening: () =>
      event('response.created', response('in_progress', ',"output":[]')) +
      event('response.output_item.added', `"output_index":0,"item":{"id":"${itemId}","type":"message","role":"assistant","status":"in_progress","content":[]}`),
    chunk(reasoning, answer, f) {
      if (f !== null) finish = f;
      return (reasoning === '' ? '' : delta('response.reasoning_text.delta', reasoning)) + (answer === '' ? '' : delta('response.output_text.delta', answer));
    },
    toolChunk(call, args, f) {
      if (f !== null) finish = f;
      const opened =
        call === null
          ? ''
          : event(
              'response.output_item.added',
              `"output_index":1,"item":{"id":"fc_${idn.id}","type":"function_call","status":"in_progress","arguments":"","call_id":${q(call.id)},"name":${q(call.name)}}`,
            );
      return opened + (args === '' ? '' : event('response.function_call_arguments.delta', `"item_id":"fc_${idn.id}","output_index":1,"delta":${q(args)}`));
    },
    usageChunk(usage) {
      const e = ending(usage);
      return event(e.status === 'completed' ? 'response.completed' : 'response.incomplete', response(e.status, e.extra));
    },
    body(reasoning, answer, f, usage) {
      finish = f;
      const e = ending(usage);
      const output = `[{"id":"${itemId}","type":"message","role":"assistant","status":"completed","content":[{"type":"output_text","text":${q(answer)},"annotations":[]}]}]`;
      return `{"id":${q(idn.id)},"object":"response","created_at":${idn.created},"status":"${e.status}","model":${q(idn.model)},"output":${output}${e.extra}}`;
    },
  };
}

/** The Responses API route, read as a chat request. */
export const RESPONSES_ROUTE: NativeRoute = {
  endpoint: 'chat',
  translate,
  format: (idn) => responsesFormat(idn),
  errorBody: nestedNullCode,
};
