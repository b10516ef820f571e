/**
 * zod schemas of the request bodies the simulator accepts (chat, completions,
 * tokenize). Unknown extra keys are accepted and ignored, as vLLM does; known keys
 * are checked, and errors name the field.
 */
import { z } from 'zod';
import { LIMITS } from '../core/index.js';
import { tokenize } from './tokenizer.js';

const positiveTokens = z.number().int().positive().nullish();

const contentPart = z.looseObject({ type: z.string(), text: z.string().optional() });
const message = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(contentPart), z.null()]).optional(),
});

const streamOptions = z.looseObject({
  include_usage: z.boolean().nullish(),
  continuous_usage_stats: z.boolean().nullish(),
});

/** Keys shared by both generation endpoints. */
const generationBase = {
  model: z.string(),
  stream: z.boolean().nullish(),
  stream_options: streamOptions.nullish(),
  /** Output cap in tokens; `max_completion_tokens` wins when both are given. */
  max_tokens: positiveTokens,
  max_completion_tokens: positiveTokens,
  min_tokens: z.number().int().min(0).nullish(),
  ignore_eos: z.boolean().nullish(),
  cache_salt: z.string().nullish(),
};

const tool = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({ name: z.string().min(1).max(64), parameters: z.record(z.string(), z.unknown()).optional() }),
});
const toolChoice = z.union([
  z.enum(['auto', 'none', 'required']),
  z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: z.string() }) }),
]);

/** Body of `POST /v1/chat/completions`. */
export const chatRequestSchema = z.looseObject({
  ...generationBase,
  messages: z.array(message).min(1),
  tools: z.array(tool).max(LIMITS.tools.max).nullish(),
  tool_choice: toolChoice.nullish(),
  chat_template_kwargs: z.record(z.string(), z.unknown()).nullish(),
  reasoning_effort: z.string().nullish(),
});
export type ChatRequest = z.infer<typeof chatRequestSchema>;

const promptSchema = z.union([z.string(), z.array(z.string()).min(1), z.array(z.number().int()).min(1)]);

/** Body of `POST /v1/completions`. */
export const completionRequestSchema = z.looseObject({ ...generationBase, prompt: promptSchema });
export type CompletionRequest = z.infer<typeof completionRequestSchema>;

/** Body of `POST /tokenize`: a prompt or chat messages. */
export const tokenizeRequestSchema = z
  .looseObject({ model: z.string().nullish(), prompt: promptSchema.optional(), messages: z.array(message).min(1).optional() })
  .refine((b) => b.prompt !== undefined || b.messages !== undefined, {
    message: 'either prompt or messages is required',
    path: ['prompt'],
  });

/** Chat messages as validated above. */
export type ChatMessage = ChatRequest['messages'][number];

/** The prompt words of chat messages: the words of all message contents, no template tokens. */
export function messagesText(messages: readonly ChatMessage[]): string {
  const parts: string[] = [];
  for (const m of messages) {
    if (typeof m.content === 'string') parts.push(m.content);
    else if (Array.isArray(m.content)) for (const p of m.content) if (typeof p.text === 'string') parts.push(p.text);
  }
  return parts.join(' ');
}

/**
 * The prompt tokens of a completions request: the words of the text, or the ids
 * themselves (as strings) when the prompt was given as token ids.
 */
export function promptWords(prompt: CompletionRequest['prompt']): string[] {
  if (typeof prompt === 'string') return tokenize(prompt);
  return prompt.flatMap((p) => (typeof p === 'number' ? [String(p)] : tokenize(p)));
}

/** True when the request turns thinking off (any of vLLM's, SGLang's or llama.cpp's switches). */
export function thinkingOff(body: ChatRequest): boolean {
  const kwargs = body.chat_template_kwargs ?? {};
  return kwargs['enable_thinking'] === false || kwargs['thinking'] === false || body.reasoning_effort === 'none';
}
