/**
 * The request body of every OpenAI-style dialect, driven by a dialect's rules
 * (data): which key(s) cap the output, how the length is forced, the thinking
 * style, the sampling values sent explicitly, stream options, fixed keys and
 * whether `cache_salt` is honoured. Built once per request.
 */
import type { ResponseSchemaSpec, ToolsSpec } from '../../core/index.js';
import type { RequestSpec, TextEndpoint } from '../types.js';
import { isRecord, lengthKeys, mergeExtra, promptText } from './compose.js';
import { messagesBody } from './messages-body.js';
import { thinkingChoice, type ThinkingStyle } from './thinking.js';
import type { LengthControl, ResponsesMode } from './types.js';

/** One OpenAI-style dialect's body rules. */
export interface OpenAiBodyRules {
  /** Keys that carry the output cap, per endpoint (all are sent). */
  readonly maxTokensKeys: Readonly<Record<TextEndpoint, readonly string[]>>;
  readonly length: LengthControl;
  readonly thinking: ThinkingStyle;
  /** Sent with every request, besides temperature and seed. */
  readonly sampling: Readonly<Record<string, number>>;
  /** `stream_options`: `include_usage`, plus `continuous_usage_stats` where it gives exact per-chunk counts. */
  readonly streamOptions: Readonly<Record<string, unknown>>;
  /** Keys always sent (e.g. llama.cpp `timings_per_token`, `cache_prompt: false`). */
  readonly fixed: Readonly<Record<string, unknown>>;
  /**
   * How a request that carries a cache salt (a cold run) keeps the prefix cache cold, per endpoint:
   * `cache_salt` (vLLM, SGLang, TRT-LLM chat), `cache_prompt: false` (llama.cpp), or nothing (the prompt's own salt).
   */
  readonly coldCache: Readonly<Record<TextEndpoint, 'cache_salt' | 'cache_prompt' | null>>;
  /** Top-level keys accepted per endpoint by engines that reject unknown keys; 'any' otherwise. */
  readonly acceptedKeys: Readonly<Record<TextEndpoint, ReadonlySet<string>>> | 'any';
  /**
   * How a named tool_choice is sent: the OpenAI object `{type: "function", function: {name}}`
   * (default), or `"required"` where the engine takes only strings (llama.cpp).
   */
  readonly namedToolChoice?: 'object' | 'required';
  /**
   * How a JSON schema for the answer is sent: OpenAI's `response_format: {type: json_schema, json_schema: {name, schema, strict}}`
   * (default), or TGI's grammar `response_format: {type: json, value: schema}`.
   */
  readonly answerSchema?: 'json-schema' | 'tgi-grammar';
  /** False for models that reject sampling parameters (OpenAI reasoning models): temperature and `sampling` are left out. */
  readonly samplingAllowed?: (model: string) => boolean;
}

/** `tools` and `tool_choice` as the OpenAI API takes them; a named choice as `named` says. */
export function toolKeys(tools: ToolsSpec, named: 'object' | 'required'): Record<string, unknown> {
  const c = tools.choice;
  const choice = typeof c === 'string' ? c : named === 'object' ? { type: 'function', function: { name: c.name } } : 'required';
  return { tools: tools.tools, tool_choice: choice };
}

/** The response_format that asks for answers matching `s.schema`, in the engine's form. */
export function responseFormat(s: ResponseSchemaSpec, form: 'json-schema' | 'tgi-grammar'): Record<string, unknown> {
  return form === 'tgi-grammar' ? { type: 'json', value: s.schema } : { type: 'json_schema', json_schema: { name: s.name, schema: s.schema, strict: true } };
}

/** A chat user message's content: its text alone, or an OpenAI content array with the images and the audio after the text. */
function userContent(text: string, images: readonly string[] | undefined, audio: string | undefined): string | Array<Record<string, unknown>> {
  if ((images === undefined || images.length === 0) && audio === undefined) return text;
  return [
    { type: 'text', text },
    ...(images ?? []).map((url) => ({ type: 'image_url', image_url: { url } })),
    ...(audio === undefined ? [] : [{ type: 'input_audio', input_audio: { data: audio, format: 'wav' } }]),
  ];
}

/** A Responses user message's content: its text alone, or input parts (input_text, input_image with a URL string, input_audio) in the same order. */
function responsesContent(text: string, images: readonly string[] | undefined, audio: string | undefined): string | Array<Record<string, unknown>> {
  if ((images === undefined || images.length === 0) && audio === undefined) return text;
  return [
    { type: 'input_text', text },
    ...(images ?? []).map((url) => ({ type: 'input_image', image_url: url, detail: 'auto' })),
    ...(audio === undefined ? [] : [{ type: 'input_audio', input_audio: { data: audio, format: 'wav' } }]),
  ];
}

/** The JSON body of `spec` under `rules` (`responses`: how the engine serves the Responses API). `stream` is always true. */
export function openAiBody(spec: RequestSpec, rules: OpenAiBodyRules, responses: ResponsesMode = 'stored'): string {
  if (spec.endpoint === 'responses') return responsesBody(spec, rules, responses);
  if (spec.endpoint === 'messages') return messagesBody(spec);
  const endpoint = spec.endpoint;
  const chat = endpoint === 'chat';
  const thinking = chat ? thinkingChoice(rules.thinking, spec.model, spec.thinking) : null;
  const body: Record<string, unknown> = { model: spec.model };
  const prompt = promptText(spec, thinking?.promptSuffix ?? '');
  if (chat) body.messages = [...(spec.history ?? []), { role: 'user', content: userContent(prompt, spec.images, spec.audio) }];
  else body.prompt = prompt;
  if (chat && spec.tools !== undefined) Object.assign(body, toolKeys(spec.tools, rules.namedToolChoice ?? 'object'));
  if (chat && spec.structured !== undefined && !spec.structured.control)
    body.response_format = responseFormat(spec.structured.spec, rules.answerSchema ?? 'json-schema');
  for (const key of rules.maxTokensKeys[endpoint]) body[key] = spec.maxTokens;
  Object.assign(body, engineKeys(spec, rules, endpoint, thinking?.body ?? null));
  const extra = spec.extraBody;
  mergeExtra(body, extra, rules.acceptedKeys === 'any' ? 'any' : rules.acceptedKeys[endpoint]);
  mergeExtra(body, spec.passThrough, 'any');
  body.stream = true;
  body.stream_options = { ...rules.streamOptions, ...(isRecord(extra?.stream_options) ? extra.stream_options : {}) };
  if (!chat) delete body.chat_template_kwargs;
  return JSON.stringify(body);
}

/**
 * The engine's own keys of a chat or completions body: the forced length, seed, the sampling values sent
 * explicitly, thinking, the cold-cache key and the fixed keys.
 */
function engineKeys(spec: RequestSpec, rules: OpenAiBodyRules, endpoint: TextEndpoint, thinking: Record<string, unknown> | null): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (spec.forceLength) Object.assign(body, lengthKeys(rules.length, spec.maxTokens));
  const sampling = rules.samplingAllowed?.(spec.model) ?? true;
  if (spec.temperature !== undefined && sampling) body.temperature = spec.temperature;
  if (spec.seed !== undefined) body.seed = spec.seed;
  if (sampling) Object.assign(body, rules.sampling);
  if (sampling && spec.topP !== undefined) body.top_p = spec.topP;
  if (thinking !== null) Object.assign(body, thinking);
  const cold = rules.coldCache[endpoint];
  if (spec.cacheSalt !== undefined && cold !== null) body[cold] = cold === 'cache_salt' ? spec.cacheSalt : false;
  Object.assign(body, rules.fixed);
  return body;
}

/**
 * The body of a Responses API request (`POST /v1/responses`): `input` as messages, `max_output_tokens`,
 * tools and a JSON schema in the API's own shapes, the sampling values the dialect sends. An engine that
 * stores answers gets `store: true` and, on a later turn, only the new message after `previous_response_id`;
 * the OpenAI API has no way to force the length. An engine that turns the request into a chat request
 * (`via-chat`) gets the session's history and the chat body's engine keys (forced length, sampling, cold cache).
 */
export function responsesBody(spec: RequestSpec, rules: OpenAiBodyRules, mode: ResponsesMode = 'stored'): string {
  const stored = mode === 'stored';
  const thinking = stored ? null : thinkingChoice(rules.thinking, spec.model, spec.thinking);
  // Earlier turns as typed message items: llama-server takes an assistant item only with `type: "message"` (OpenAI takes either).
  const history = (stored && spec.previousResponseId !== undefined ? [] : (spec.history ?? [])).map((m) => ({ type: 'message', ...m }));
  const body: Record<string, unknown> = {
    model: spec.model,
    input: [...history, { role: 'user', content: responsesContent(promptText(spec, thinking?.promptSuffix ?? ''), spec.images, spec.audio) }],
    max_output_tokens: spec.maxTokens,
  };
  if (stored) body.store = true;
  if (stored && spec.previousResponseId !== undefined) body.previous_response_id = spec.previousResponseId;
  // The Responses API's own shapes: function tools are flat, the schema goes in text.format.
  if (spec.tools !== undefined) {
    const c = spec.tools.choice;
    body.tools = spec.tools.tools.map((t) => ({ type: 'function', ...t.function }));
    body.tool_choice = typeof c === 'string' ? c : { type: 'function', name: c.name };
  }
  const st = spec.structured;
  if (st !== undefined && !st.control) body.text = { format: { type: 'json_schema', name: st.spec.name, schema: st.spec.schema, strict: true } };
  if (stored) {
    const sampling = rules.samplingAllowed?.(spec.model) ?? true;
    if (sampling && spec.temperature !== undefined) body.temperature = spec.temperature;
    if (sampling) body.top_p = spec.topP ?? rules.sampling.top_p ?? 1;
  } else Object.assign(body, engineKeys(spec, rules, 'chat', thinking?.body ?? null));
  mergeExtra(body, spec.extraBody, 'any');
  mergeExtra(body, spec.passThrough, 'any');
  body.stream = true;
  return JSON.stringify(body);
}
