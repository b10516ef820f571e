/**
 * Decides, at arrival, everything about one generation request that does not depend
 * on timing: prompt size, output cap, how many tokens it will emit (natural stop,
 * `min_tokens`, `ignore_eos`, reasoning first), its finish reason and its stream
 * options. Requests the model could never serve are rejected here, naming the field.
 */
import type { SimProfile } from './profile-schema.js';
import type { ChatRequest } from './request-schema.js';
import { uniformInt } from './random.js';
import type { ToolCallPlan } from './tool-call-plan.js';

/** The keys of a generation body this module reads (chat and completions share them). */
export type GenerationKeys = Pick<
  ChatRequest,
  'stream' | 'stream_options' | 'max_tokens' | 'max_completion_tokens' | 'min_tokens' | 'ignore_eos' | 'cache_salt'
>;

/** Everything decided about a request at arrival. Counts in tokens. */
export interface GenerationPlan {
  promptWords: string[];
  promptTokens: number;
  /** Output cap: `max_completion_tokens`, else `max_tokens`, else the rest of the context. */
  capTokens: number;
  /** Tokens the request will emit, reasoning included (≥ 1). */
  outputTokens: number;
  /** Leading output tokens that are reasoning. */
  reasoningTokens: number;
  finishReason: 'stop' | 'length' | 'tool_calls';
  /** The tool call streamed after any reasoning, or null for a text answer. */
  tool: ToolCallPlan | null;
  /** A JSON answer to the request's schema, one piece per token, or null for words. */
  json: string[] | null;
  stream: boolean;
  includeUsage: boolean;
  /** Cumulative usage on every chunk (only together with include_usage, as in vLLM). */
  continuousUsage: boolean;
  cacheSalt: string | null;
}

/** A plan, or a 400 naming the field at fault (`message` does not repeat the field). */
export type PlanResult = { ok: true; plan: GenerationPlan } | { ok: false; param: string; message: string };

/** Inputs of `planGeneration`. */
export interface PlanInput {
  body: GenerationKeys;
  promptWords: string[];
  /** Name of the prompt field, for errors: "messages" or "prompt". */
  promptField: string;
  /** Reasoning tokens to emit before the answer (0 when thinking is off or not a chat). */
  reasoningTokens: number;
  /** Per-server request counter; with the seed it fixes the natural length. */
  requestIndex: number;
  /** The tool call to stream instead of a text answer: its argument pieces set the length (ignore_eos does not apply). */
  tool?: ToolCallPlan | null;
  /** The JSON answer's pieces when the request asked for a schema: they set the length (ignore_eos does not apply). */
  json?: string[] | null;
}

/** Plans one request against the profile's model (see GenerationPlan). */
export function planGeneration(profile: SimProfile, input: PlanInput): PlanResult {
  const { body, promptWords } = input;
  const promptTokens = promptWords.length;
  const limit = Math.min(profile.maxModelLen, profile.kvCacheTokens);
  const tooLong = (param: string, requested: number): PlanResult => ({
    ok: false,
    param,
    message: `This model's maximum context length is ${limit} tokens. However, you requested ${requested} tokens (${promptTokens} in the ${input.promptField}, ${requested - promptTokens} in the completion).`,
  });
  if (body.stream !== true && body.stream_options != null) {
    return { ok: false, param: 'stream_options', message: 'can only be set when stream is true.' };
  }
  if (promptTokens >= limit) return tooLong(input.promptField, promptTokens + 1);
  const capKey = body.max_completion_tokens != null ? 'max_completion_tokens' : 'max_tokens';
  const capTokens = body.max_completion_tokens ?? body.max_tokens ?? limit - promptTokens;
  if (promptTokens + capTokens > limit) return tooLong(capKey, promptTokens + capTokens);
  const minTokens = body.min_tokens ?? 0;
  if (minTokens > capTokens) {
    return { ok: false, param: 'min_tokens', message: `${minTokens} is more than ${capKey} (${capTokens}).` };
  }
  const { min, max } = profile.naturalOutputTokens;
  const tool = input.tool ?? null;
  const json = tool === null ? (input.json ?? null) : null;
  const fixed = tool?.pieces.length ?? json?.length ?? null;
  const wanted =
    fixed !== null
      ? input.reasoningTokens + fixed
      : body.ignore_eos === true
        ? capTokens
        : Math.max(minTokens, input.reasoningTokens + uniformInt(min, max, profile.seed, input.requestIndex, 0x5709));
  const outputTokens = Math.min(wanted, capTokens);
  const includeUsage = body.stream === true && body.stream_options?.include_usage === true;
  return {
    ok: true,
    plan: {
      promptWords,
      promptTokens,
      capTokens,
      outputTokens,
      reasoningTokens: Math.min(input.reasoningTokens, outputTokens),
      // A tool call that fits ends with tool_calls; one the cap cuts ends with length, its arguments unfinished.
      finishReason:
        tool !== null
          ? wanted > capTokens
            ? 'length'
            : 'tool_calls'
          : json !== null
            ? wanted > capTokens
              ? 'length'
              : 'stop'
            : wanted >= capTokens
              ? 'length'
              : 'stop',
      tool,
      json,
      stream: body.stream === true,
      includeUsage,
      continuousUsage: includeUsage && body.stream_options?.continuous_usage_stats === true,
      cacheSalt: body.cache_salt ?? null,
    },
  };
}
