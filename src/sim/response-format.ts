/**
 * Pre-built response text for the two generation endpoints, in vLLM's shapes. Each
 * endpoint is a `kind`-tagged format that owns its JSON: chat (`chat.completion.chunk`,
 * a role-only opening chunk, `delta`) and completions (`text_completion`, `text`).
 * Chunks are built by string concatenation around a per-request prefix, so the hot
 * path makes one short string per SSE event.
 */
import { deltaJson, messageJson, type StreamShape } from './stream-shape.js';

/** Token counts of one request, for `usage`. */
export interface UsageCounts {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
}

/** Full usage object: totals plus prompt and completion details. */
export function usageJson(u: UsageCounts): string {
  return `{"prompt_tokens":${u.promptTokens},"total_tokens":${u.promptTokens + u.completionTokens},"completion_tokens":${u.completionTokens},"prompt_tokens_details":{"cached_tokens":${u.cachedTokens}},"completion_tokens_details":{"reasoning_tokens":${u.reasoningTokens}}}`;
}

/** Cumulative usage carried by every chunk under `continuous_usage_stats`. */
export function continuousUsageJson(promptTokens: number, completionTokens: number): string {
  return `{"prompt_tokens":${promptTokens},"total_tokens":${promptTokens + completionTokens},"completion_tokens":${completionTokens}}`;
}

/** One endpoint's response text. `usage` arguments are JSON text or null. */
export interface ResponseFormat {
  readonly kind: 'chat' | 'completion';
  /** Events written just before the first token chunk (chat: the role-only chunk). */
  opening(usage: string | null): string;
  /** One SSE event with this step's text; `finish` only on the last one; `logprobs` is JSON text (default null). */
  chunk(reasoning: string, answer: string, finish: string | null, usage: string | null, logprobs?: string | null): string;
  /** The usage-only event (`"choices":[]`). */
  usageChunk(usage: string): string;
  /** The whole non-streamed JSON body; `logprobs` is JSON text (default null). */
  body(reasoning: string, answer: string, finish: string, usage: string, logprobs?: string | null): string;
  /** Content type, terminator and error event when they are not vLLM's SSE ones (an engine dialect). */
  readonly wire?: Wire;
  /**
   * Chat: one event with a tool-call delta — the call's id and name with its first argument text
   * (`call` given), or more argument text. Absent: the format streams no tool calls.
   */
  toolChunk?(call: ToolCallHead | null, args: string, finish: string | null, usage: string | null): string;
  /** Chat, not streamed: the whole body with the call in `message.tool_calls`. */
  toolBody?(call: ToolCallHead, args: string, finish: string, usage: string): string;
}

/** Who a streamed tool call is. */
export interface ToolCallHead {
  id: string;
  name: string;
}

/** The `tool_calls` list of a streamed delta (OpenAI's shape): id, type and name on the first piece only. */
export function toolDeltaJson(call: ToolCallHead | null, args: string): string {
  const q = JSON.stringify;
  return call === null
    ? `"tool_calls":[{"index":0,"function":{"arguments":${q(args)}}}]`
    : `"tool_calls":[{"index":0,"id":${q(call.id)},"type":"function","function":{"name":${q(call.name)},"arguments":${q(args)}}}]`;
}

/** A non-streamed assistant message holding one tool call. */
export function toolMessageJson(call: ToolCallHead, args: string): string {
  const q = JSON.stringify;
  return `{"role":"assistant","content":null,"tool_calls":[{"id":${q(call.id)},"type":"function","function":{"name":${q(call.name)},"arguments":${q(args)}}}]}`;
}

/** Wire details of a response format that is not vLLM-shaped SSE (see dialects/). */
export interface Wire {
  contentType: string;
  /** Written after the last event: `data: [DONE]\n\n`, or nothing for NDJSON. */
  terminator: string;
  /** The mid-stream error event, terminator included where the engine sends one. */
  streamError(message: string): string;
}

/** Identity shared by every event of one response. */
export interface ResponseIdentity {
  id: string;
  /** Unix seconds. */
  created: number;
  model: string;
  /** The prompt's tokens as planned (before the prefix cache is asked): what a format that states them up front (the Messages API's message_start) says. */
  promptTokens?: number;
}

function header(idn: ResponseIdentity, object: string): string {
  return `{"id":"${idn.id}","object":"${object}","created":${idn.created},"model":${JSON.stringify(idn.model)}`;
}

const withUsage = (usage: string | null): string => (usage === null ? '' : `,"usage":${usage}`);
const finishJson = (finish: string | null): string => (finish === null ? 'null' : `"${finish}"`);

/** `/v1/chat/completions` in vLLM's shape; reasoning goes where `shape` says. */
export function chatFormat(idn: ResponseIdentity, shape: StreamShape): ResponseFormat {
  const head = `data: ${header(idn, 'chat.completion.chunk')},"choices":`;
  return {
    kind: 'chat',
    opening: (usage) => `${head}[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]${withUsage(usage)}}\n\n`,
    chunk: (reasoning, answer, finish, usage, logprobs) =>
      `${head}[{"index":0,"delta":${deltaJson(shape, reasoning, answer)},"logprobs":${logprobs ?? 'null'},"finish_reason":${finishJson(finish)}}]${withUsage(usage)}}\n\n`,
    usageChunk: (usage) => `${head}[],"usage":${usage}}\n\n`,
    body: (reasoning, answer, finish, usage, logprobs) =>
      `${header(idn, 'chat.completion')},"choices":[{"index":0,"message":${messageJson(shape, reasoning, answer)},"logprobs":${logprobs ?? 'null'},"finish_reason":"${finish}"}],"usage":${usage}}`,
    toolChunk: (call, args, finish, usage) =>
      `${head}[{"index":0,"delta":{${toolDeltaJson(call, args)}},"logprobs":null,"finish_reason":${finishJson(finish)}}]${withUsage(usage)}}\n\n`,
    toolBody: (call, args, finish, usage) =>
      `${header(idn, 'chat.completion')},"choices":[{"index":0,"message":${toolMessageJson(call, args)},"logprobs":null,"finish_reason":"${finish}"}],"usage":${usage}}`,
  };
}

/** `/v1/completions` in vLLM's shape: no role chunk, reasoning is plain text. */
export function completionFormat(idn: ResponseIdentity): ResponseFormat {
  const head = `data: ${header(idn, 'text_completion')},"choices":`;
  return {
    kind: 'completion',
    opening: () => '',
    chunk: (reasoning, answer, finish, usage, logprobs) =>
      `${head}[{"index":0,"text":${JSON.stringify(reasoning + answer)},"logprobs":${logprobs ?? 'null'},"finish_reason":${finishJson(finish)}}]${withUsage(usage)}}\n\n`,
    usageChunk: (usage) => `${head}[],"usage":${usage}}\n\n`,
    body: (reasoning, answer, finish, usage, logprobs) =>
      `${header(idn, 'text_completion')},"choices":[{"index":0,"text":${JSON.stringify(reasoning + answer)},"logprobs":${logprobs ?? 'null'},"finish_reason":"${finish}"}],"usage":${usage}}`,
  };
}
