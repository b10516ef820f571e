/**
 * Ollama's native API: `POST /api/chat` (and `/api/generate` with `raw: true`
 * for completions), streamed as NDJSON whose last line has `done: true` with
 * `eval_count` / `prompt_eval_count` and durations in nanoseconds (not used:
 * timing is ours). Sampling and the cap go in `options` (`num_predict`);
 * `think: false` turns thinking off (gpt-oss takes only a level); reasoning
 * arrives in `message.thinking`. Chosen with `--engine ollama-native`.
 */
import type { RequestSpec } from '../types.js';
import { dataWarnings, mergeExtra, promptText } from './compose.js';
import { noteWarnings } from './define.js';
import { OLLAMA_NOTES, ollama } from './ollama.js';
import { thinkingChoice, type ThinkingStyle } from './thinking.js';
import type { Dialect, LengthControl } from './types.js';

const STYLE: ThinkingStyle = { kind: 'ollama', key: 'think' };
const LENGTH: LengthControl = { kind: 'cannot', reason: 'Ollama only caps the length (options.num_predict)' };
/** Ollama's own defaults are top_k 40, top_p 0.9, repeat_penalty 1.1: all sent as neutral values. */
const SAMPLING = { top_p: 1, top_k: 0, min_p: 0, repeat_penalty: 1 };

function buildBody(spec: RequestSpec): string {
  const options: Record<string, unknown> = { num_predict: spec.maxTokens, ...SAMPLING };
  if (spec.temperature !== undefined) options.temperature = spec.temperature;
  if (spec.topP !== undefined) options.top_p = spec.topP;
  if (spec.seed !== undefined) options.seed = spec.seed;
  const body: Record<string, unknown> = { model: spec.model };
  if (spec.endpoint === 'chat') {
    const thinking = thinkingChoice(STYLE, spec.model, spec.thinking);
    const user: Record<string, unknown> = { role: 'user', content: promptText(spec, thinking.promptSuffix) };
    // Ollama's messages carry images as bare base64 (docs/api.md "Chat request (with images)").
    if (spec.images !== undefined && spec.images.length > 0) user.images = spec.images.map((url) => url.slice(url.indexOf(',') + 1));
    body.messages = [...(spec.history ?? []), user];
    Object.assign(body, thinking.body);
    // Ollama has no tool_choice: the model decides (docs/api.md "Chat request (with tools)").
    if (spec.tools !== undefined) body.tools = spec.tools.tools;
    // Structured outputs: the schema goes in `format` (docs/api.md).
    if (spec.structured !== undefined && !spec.structured.control) body.format = spec.structured.spec.schema;
  } else {
    // completions (the responses endpoint is refused for this dialect before anything is sent)
    body.prompt = spec.prompt;
    body.raw = true;
  }
  body.options = options;
  mergeExtra(body, spec.extraBody, 'any');
  mergeExtra(body, spec.passThrough, 'any');
  body.stream = true;
  return JSON.stringify(body);
}

export const ollamaNative: Dialect = {
  ...ollama,
  kind: 'ollama-native',
  label: 'Ollama (native API)',
  api: {
    framing: 'ndjson',
    paths: { chat: '/api/chat', completions: '/api/generate', responses: null, messages: null },
    accept: 'application/x-ndjson',
    requestIdHeaders: [],
  },
  pooling: { embeddings: { path: '/api/embed', shape: 'ollama' }, rerank: null, more: [] },
  length: LENGTH,
  sampling: SAMPLING,
  stream: {
    chunk: 'ollama-native',
    reasoningFields: ['thinking'],
    inlineThink: true,
    cumulativeTokenPaths: [],
    reasoningTokenPaths: [],
  },
  usage: { placement: 'final-ndjson-line', perChunk: 'none', cachedTokens: 'never' },
  errors: { shape: 'ollama', statusNotes: ollama.errors.statusNotes },
  // Detection reports the engine (ollama); the native API is chosen explicitly.
  identify: () => null,
  buildBody,
  warnings: (s) => [...dataWarnings('Ollama', LENGTH, STYLE, s), ...noteWarnings('Ollama', OLLAMA_NOTES)],
};
