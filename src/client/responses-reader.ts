/**
 * The events of a streamed Responses API answer (`POST /v1/responses`), read
 * with the same timing rules as chat: `response.output_text.delta` is answer
 * text, `response.reasoning_text.delta` / `response.reasoning_summary_text.delta`
 * reasoning, a `function_call` output item and its
 * `response.function_call_arguments.delta` a tool call; `response.completed`
 * (or `response.incomplete`) carries the usage and ends the stream (no
 * `[DONE]`); `response.failed` and `error` are in-stream errors. The response id
 * is kept so a session's next turn can continue it.
 */
import { messageOfError, truncate } from './error-text.js';
import { asObj, num, type ChunkReader, type ChunkSink, type Obj } from './chunk-reader.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Responses usage (`input_tokens`, `output_tokens`, `…_details`) in the chat shape the recorder reads. */
function chatUsage(u: Obj): Obj {
  return {
    prompt_tokens: u.input_tokens,
    completion_tokens: u.output_tokens,
    prompt_tokens_details: asObj(u.input_tokens_details) ?? undefined,
    completion_tokens_details: asObj(u.output_tokens_details) ?? undefined,
  };
}

/** Reads Responses API events into the recorder; `onId` receives the response's id. */
export function responsesReader(onId: (id: string) => void): ChunkReader {
  let calls = false;
  const finish = (response: Obj | null, rec: ChunkSink, status: string): void => {
    const usage = asObj(response?.usage);
    if (usage !== null) {
      const u = chatUsage(usage);
      rec.usage(num(u.completion_tokens), num(u.prompt_tokens), u);
    }
    const reason = str(asObj(response?.incomplete_details)?.reason);
    rec.finishReason = status === 'completed' ? (calls ? 'tool_calls' : 'stop') : reason === 'max_output_tokens' ? 'length' : reason || status;
    rec.done();
  };
  return {
    read(event, rec) {
      const type = str(event.type);
      const response = asObj(event.response);
      const id = str(response?.id);
      if (id !== '') onId(id.slice(0, 256));
      switch (type) {
        case 'response.output_text.delta':
          return rec.text(str(event.delta), false, null);
        case 'response.reasoning_text.delta':
        case 'response.reasoning_summary_text.delta':
          return rec.text('', str(event.delta) !== '', null);
        case 'response.output_item.added': {
          const item = asObj(event.item);
          if (item?.type !== 'function_call') return;
          calls = true;
          return rec.text('', false, null, rec.toolDelta(num(event.output_index), str(item.name) || null, str(item.arguments)));
        }
        case 'response.function_call_arguments.delta':
          return rec.text('', false, null, rec.toolDelta(num(event.output_index), null, str(event.delta)));
        case 'response.completed':
          return finish(response, rec, 'completed');
        case 'response.incomplete':
          return finish(response, rec, 'incomplete');
        case 'response.failed':
        case 'error': {
          const error = asObj(response?.error) ?? event;
          return rec.fail(truncate(`server error in stream: ${messageOfError(error) ?? str(error.message) ?? 'unknown error'}`));
        }
        default:
          // Errors in the chat shape (`{"error": …}`) are read too: some gateways send them on any route.
          if (event.error !== undefined) rec.fail(truncate(`server error in stream: ${messageOfError(event.error) ?? 'unknown error'}`));
      }
    },
  };
}
