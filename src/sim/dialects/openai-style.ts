/**
 * The ways engines differ inside an OpenAI-shaped stream, as data: where
 * reasoning goes, the role-chunk rule, where the finish reason goes, one event
 * per token or per step, keep-alive preambles, TRT-LLM's stray space, extra
 * fields, `usage: null` on every chunk, the usage JSON, and per-chunk progress
 * (cumulative usage, or llama.cpp's `timings`). Plus small text helpers.
 */
import type { UsageCounts, Wire } from '../response-format.js';

export interface OpenAiStyle {
  /** Reasoning text: a delta field, inline `<think>…</think>` in content, or not returned at all (only counted). */
  reasoning: { kind: 'field'; field: string; splitMixed: boolean } | { kind: 'inline' } | { kind: 'hidden' };
  /** Role: a role-only chunk first (content `""`, `null` or absent), on the first content chunk, or on every chunk. */
  role: { kind: 'opening'; content: '""' | 'null' | null } | { kind: 'first-chunk' } | { kind: 'every-chunk' };
  /** Finish reason on the last token chunk, or in a chunk of its own with this delta (chat) / empty text (completions). */
  finish: { kind: 'on-last' } | { kind: 'own-chunk'; delta: string };
  /** One event per token even when a step makes several (TGI), instead of one per step. */
  eventPerToken: boolean;
  /** Written before the first event (TGI's keep-alive comment). */
  preamble: string;
  /** Completions start with an empty-text chunk (TRT-LLM). */
  completionOpening: boolean;
  /** After each event's JSON, before the blank line (TRT-LLM: one space). */
  eventSuffix: string;
  /** Extra top-level fields of every chunk, JSON text starting with a comma. */
  extraFields: string;
  /** `"usage":null` on chunks that carry no usage (LMDeploy, OpenAI). */
  nullUsage: boolean;
  /** The usage JSON of the final usage-only chunk and of non-streamed bodies. */
  usage(u: UsageCounts): string;
  /** `id` of the usage-only chunk (TGI: ""), or null for the response id. */
  usageChunkId: string | null;
  /** How cumulative per-chunk progress is shown when requested: OpenAI usage, or llama.cpp `timings`. */
  progress: 'usage' | 'timings';
  wire: Wire;
}

/**
 * The stream habits most engines share: one event per step, nothing before the first event or after each one, no
 * extra top-level fields, no `"usage":null`, the usage chunk under the response's id, progress as usage. A dialect
 * spreads these and states only where its engine differs.
 */
export const PLAIN_STREAM = {
  eventPerToken: false,
  preamble: '',
  completionOpening: false,
  eventSuffix: '',
  extraFields: '',
  nullUsage: false,
  usageChunkId: null,
  progress: 'usage',
} as const satisfies Partial<OpenAiStyle>;

/** Counts of a vLLM-shaped usage JSON (what the generation run hands a format). */
export function usageCounts(json: string): UsageCounts {
  const u = JSON.parse(json) as {
    prompt_tokens: number;
    completion_tokens: number;
    prompt_tokens_details?: { cached_tokens?: number };
    completion_tokens_details?: { reasoning_tokens?: number };
  };
  return {
    promptTokens: u.prompt_tokens,
    completionTokens: u.completion_tokens,
    cachedTokens: u.prompt_tokens_details?.cached_tokens ?? 0,
    reasoningTokens: u.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

const COMPLETION = /"completion_tokens":(\d+)/;
const PROMPT = /"prompt_tokens":(\d+)/;

/** Per-chunk progress text (`,"usage":…` or `,"timings":…`) from cumulative usage JSON, or '' for none. */
export function progressJson(style: OpenAiStyle, usage: string | null): string {
  if (usage === null) return style.nullUsage ? ',"usage":null' : '';
  if (style.progress === 'usage') return `,"usage":${usage}`;
  const n = COMPLETION.exec(usage)?.[1] ?? '0';
  const p = PROMPT.exec(usage)?.[1] ?? '0';
  return `,"timings":{"prompt_n":${p},"predicted_n":${n}}`;
}

/** The tokens of a text the simulator emitted (each token is " word"). */
export function splitTokens(text: string): string[] {
  return text === '' ? [] : text.split(/(?= )/);
}

/** Usage with cached and reasoning details (vLLM, OpenAI). */
export const detailedUsage = (u: UsageCounts): string =>
  `{"prompt_tokens":${u.promptTokens},"total_tokens":${u.promptTokens + u.completionTokens},"completion_tokens":${u.completionTokens},"prompt_tokens_details":{"cached_tokens":${u.cachedTokens}},"completion_tokens_details":{"reasoning_tokens":${u.reasoningTokens}}}`;

/** Usage with cached tokens only (llama.cpp, TRT-LLM, LMDeploy without a parser). */
export const cachedUsage = (u: UsageCounts): string =>
  `{"prompt_tokens":${u.promptTokens},"total_tokens":${u.promptTokens + u.completionTokens},"completion_tokens":${u.completionTokens},"prompt_tokens_details":{"cached_tokens":${u.cachedTokens}}}`;

/** Prompt, completion and total only (TGI, Ollama). */
export const plainUsage = (u: UsageCounts): string =>
  `{"prompt_tokens":${u.promptTokens},"completion_tokens":${u.completionTokens},"total_tokens":${u.promptTokens + u.completionTokens}}`;
