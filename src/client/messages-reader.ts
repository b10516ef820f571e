/**
 * The events of a streamed answer of Anthropic's Messages API
 * (`POST /v1/messages`), read with the chat endpoint's timing rules: a
 * `content_block_delta` carrying `text_delta` is answer text, `thinking_delta`
 * reasoning (extended thinking), `input_json_delta` a tool call's arguments
 * (its name arrives in the `tool_use` block's `content_block_start`), so the
 * first token is the first delta that carries any of them, as on chat.
 * `message_start` carries the prompt's usage, `message_delta` the cumulative
 * output count and the stop reason, `message_stop` ends the stream (no
 * `[DONE]`); `error` is an in-stream error; `ping`, `content_block_stop`,
 * `signature_delta` and event types added later are read and carry nothing.
 * Anthropic's usage counts thinking inside `output_tokens` and reports no
 * count of its own: a thinking count is read where a server sends one, and
 * the thinking deltas are counted as reasoning chunks either way.
 */
import { RECORD_BOUNDS } from '../core/index.js';
import { messageOfError, truncate } from './error-text.js';
import { asObj, num, type ChunkReader, type ChunkSink, type Obj } from './chunk-reader.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Anthropic's stop reasons in the chat words the records use. */
const STOP_REASONS: Readonly<Record<string, string>> = { end_turn: 'stop', stop_sequence: 'stop', max_tokens: 'length', tool_use: 'tool_calls' };

/** Where a server that counts thinking apart (none of Anthropic's documented fields) puts the count. */
function thinkingCount(u: Obj): number | null {
  return num(u.thinking_tokens) ?? num(asObj(u.output_tokens_details)?.reasoning_tokens) ?? num(asObj(u.output_tokens_details)?.thinking_tokens);
}

/**
 * Reads Messages API usage into the recorder: the prompt is what was read fresh plus what the cache wrote and served.
 * `output` is false on `message_start`, whose output count is a placeholder (1 or 2) before anything is generated.
 */
function readUsage(u: Obj, rec: ChunkSink, prompt: { tokens: number | null }, output: boolean): void {
  const input = num(u.input_tokens);
  const cacheRead = num(u.cache_read_input_tokens);
  if (input !== null) prompt.tokens = input + (cacheRead ?? 0) + (num(u.cache_creation_input_tokens) ?? 0);
  const thinking = thinkingCount(u);
  rec.usage(output ? num(u.output_tokens) : null, prompt.tokens, {
    ...(cacheRead === null ? {} : { prompt_tokens_details: { cached_tokens: cacheRead } }),
    ...(thinking === null ? {} : { completion_tokens_details: { reasoning_tokens: thinking } }),
  });
}

/** A Messages API stream reader; one per request. */
export function messagesReader(): ChunkReader {
  const prompt: { tokens: number | null } = { tokens: null };
  return {
    read(event, rec) {
      switch (str(event.type)) {
        case 'message_start': {
          const usage = asObj(asObj(event.message)?.usage);
          if (usage !== null) readUsage(usage, rec, prompt, false);
          return;
        }
        case 'content_block_start': {
          const block = asObj(event.content_block);
          if (block?.type !== 'tool_use') return;
          return rec.text('', false, null, rec.toolDelta(num(event.index), str(block.name) || null, ''));
        }
        case 'content_block_delta': {
          const delta = asObj(event.delta);
          const kind = str(delta?.type);
          if (kind === 'text_delta') return rec.text(str(delta?.text), false, null);
          if (kind === 'thinking_delta') return rec.text('', str(delta?.thinking) !== '', null);
          if (kind === 'input_json_delta') return rec.text('', false, null, rec.toolDelta(num(event.index), null, str(delta?.partial_json)));
          return;
        }
        case 'message_delta': {
          const reason = str(asObj(event.delta)?.stop_reason);
          if (reason !== '') rec.finishReason = (STOP_REASONS[reason] ?? reason).slice(0, RECORD_BOUNDS.finishReasonChars);
          const usage = asObj(event.usage);
          if (usage !== null) readUsage(usage, rec, prompt, true);
          return;
        }
        case 'message_stop':
          return rec.done();
        case 'error': {
          // `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`: the type says which.
          const kind = str(asObj(event.error)?.type);
          return rec.fail(truncate(`server error in stream: ${kind === '' ? '' : `${kind}: `}${messageOfError(event.error) ?? 'unknown error'}`));
        }
        default:
          // Errors in the chat shape (`{"error": …}`) are read too: some gateways send them on any route.
          if (event.error !== undefined) rec.fail(truncate(`server error in stream: ${messageOfError(event.error) ?? 'unknown error'}`));
      }
    },
  };
}
