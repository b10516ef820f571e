/**
 * Reads logprobs out of non-streamed responses, one zod schema per shape:
 * - list shape: `choices[0].logprobs.content[0].top_logprobs[{token, logprob}]`
 *   (OpenAI chat, vLLM/SGLang chat, llama.cpp chat and completions);
 * - map shape: `choices[0].logprobs.top_logprobs[0]` = `{token: logprob}`
 *   (OpenAI-style completions: vLLM, SGLang);
 * - echo: `choices[0].logprobs.tokens` + `token_logprobs`, prompt first.
 * Each parser returns the values or a sentence naming the field at fault.
 */
import { z } from 'zod';
import type { ScoredText, TokenLogprob } from '../core/index.js';

const entry = z.looseObject({ token: z.string(), logprob: z.number() });
const listShape = z.looseObject({ content: z.array(z.looseObject({ top_logprobs: z.array(entry) })).min(1) });
const mapShape = z.looseObject({ top_logprobs: z.array(z.record(z.string(), z.number()).nullable()).min(1) });
const echoShape = z.looseObject({ tokens: z.array(z.string()), token_logprobs: z.array(z.number().nullable()) });
const usageShape = z.looseObject({ usage: z.looseObject({ completion_tokens: z.number().int().min(0) }) });

const LOGPROBS = 'choices[0].logprobs';

function problem(error: z.ZodError, prefix: string): string {
  const issue = error.issues[0];
  const path = (issue?.path ?? []).map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
  return `${prefix}${path}: ${issue?.message ?? 'invalid'}`;
}

/** `choices[0].logprobs` of a body, or null when absent or null. */
export function logprobsOf(body: unknown): Record<string, unknown> | null {
  const choices = typeof body === 'object' && body !== null ? (body as { choices?: unknown }).choices : undefined;
  const first = Array.isArray(choices) ? (choices[0] as unknown) : undefined;
  const lp = typeof first === 'object' && first !== null ? (first as { logprobs?: unknown }).logprobs : undefined;
  return typeof lp === 'object' && lp !== null && !Array.isArray(lp) ? (lp as Record<string, unknown>) : null;
}

/** The first generated token's top logprobs, in either shape; a string says what is missing. */
export function parseFirstTokenTop(body: unknown): TokenLogprob[] | string {
  const lp = logprobsOf(body);
  if (lp === null) return `the answer has no ${LOGPROBS}`;
  if (Array.isArray(lp.content)) {
    const r = listShape.safeParse(lp);
    if (!r.success) return problem(r.error, LOGPROBS);
    return (r.data.content[0]?.top_logprobs ?? []).map((e) => ({ token: e.token, logprob: e.logprob }));
  }
  if (Array.isArray(lp.top_logprobs)) {
    const r = mapShape.safeParse(lp);
    if (!r.success) return problem(r.error, LOGPROBS);
    return Object.entries(r.data.top_logprobs[0] ?? {}).map(([token, logprob]) => ({ token, logprob }));
  }
  return `${LOGPROBS} has neither content[0].top_logprobs nor top_logprobs[0]`;
}

/**
 * The prompt part of an echo answer: the tokens and logprobs before the
 * generated ones (`usage.completion_tokens`, else `generated`), leading null
 * logprobs (the first token, a BOS) dropped. A string says why there is none.
 */
export function parseEchoLogprobs(body: unknown, generated: number): ScoredText | string {
  const lp = logprobsOf(body);
  if (lp === null) return `the answer has no ${LOGPROBS}`;
  if (!Array.isArray(lp.token_logprobs)) return `${LOGPROBS} has no token_logprobs (this engine does not return prompt logprobs)`;
  const r = echoShape.safeParse(lp);
  if (!r.success) return problem(r.error, LOGPROBS);
  const { tokens, token_logprobs: logprobs } = r.data;
  if (tokens.length !== logprobs.length) return `${LOGPROBS} has ${tokens.length} tokens but ${logprobs.length} token_logprobs`;
  const usage = usageShape.safeParse(body);
  const promptCount = logprobs.length - (usage.success ? usage.data.usage.completion_tokens : generated);
  let start = 0;
  while (start < promptCount && logprobs[start] === null) start++;
  if (promptCount - start < 1) return `${LOGPROBS} covers only the generated tokens: the server ignored echo`;
  const scored = logprobs.slice(start, promptCount);
  const gap = scored.indexOf(null);
  if (gap >= 0) return `${LOGPROBS}.token_logprobs[${start + gap}] is null inside the prompt`;
  return { tokens: tokens.slice(start, promptCount), logprobs: scored as number[] };
}
