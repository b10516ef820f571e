/**
 * What an engine does with a `/v1` generation body, as data: keys it refuses
 * when unknown (pydantic `extra="forbid"`, OpenAI), a pair it refuses together
 * (TGI's serde alias), keys it silently ignores, keys it names differently, a
 * body switch that skips the prefix cache, a switch that turns on per-chunk
 * progress, and a prompt soft switch for thinking. `normalizeBody` applies it.
 */
import type { Normalized } from './types.js';

export interface RequestRules {
  /** Accepted top-level keys per endpoint when unknown ones are refused; null: unknown keys are ignored. */
  allowed: { chat: ReadonlySet<string>; completion: ReadonlySet<string>; streamOptions: ReadonlySet<string> } | null;
  /** The refusal of an unknown key. */
  unknownKey?: (key: string) => { status: number; message: string };
  /** These two together are refused. */
  exclusive?: { keys: readonly [string, string]; status: number; message: string };
  /** Top-level keys the engine ignores. */
  ignored: readonly string[];
  /** `stream_options` keys the engine ignores. */
  ignoredStreamOptions: readonly string[];
  /** Engine key → the simulator's key (LMDeploy `min_new_tokens` → `min_tokens`). */
  renamed: Readonly<Record<string, string>>;
  /** A key whose `false` skips the prefix cache for the request (llama.cpp `cache_prompt`). */
  cacheOff?: string;
  /** A key whose `true` turns on per-chunk progress (llama.cpp `timings_per_token`). */
  progressKey?: string;
  /** `include_usage` defaults to true when `stream_options` is sent (TRT-LLM). */
  includeUsageByDefault?: boolean;
  /** Text at the end of the last user message that turns thinking off (TGI + Qwen3 `/no_think`). */
  softThinkingOff?: string;
}

/** Ignores nothing, refuses nothing. */
export const PERMISSIVE: RequestRules = { allowed: null, ignored: [], ignoredStreamOptions: [], renamed: {} };

let coldCounter = 0;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function lastUserText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  const last = messages.filter((m) => isRecord(m) && m.role === 'user').at(-1);
  return isRecord(last) && typeof last.content === 'string' ? last.content : '';
}

/** Applies `rules` to a copy of `raw`. */
export function normalizeBody(raw: Record<string, unknown>, endpoint: 'chat' | 'completion', rules: RequestRules): Normalized {
  if (rules.allowed !== null) {
    const allowed = rules.allowed[endpoint];
    const so = isRecord(raw.stream_options) ? Object.keys(raw.stream_options) : [];
    const bad = Object.keys(raw).find((k) => !allowed.has(k)) ?? so.find((k) => !rules.allowed?.streamOptions.has(k));
    if (bad !== undefined) {
      const refusal = rules.unknownKey?.(bad) ?? { status: 400, message: `${bad}: unknown key` };
      return { ok: false, ...refusal, param: bad };
    }
  }
  const ex = rules.exclusive;
  if (ex !== undefined && ex.keys.every((k) => raw[k] != null)) return { ok: false, status: ex.status, message: ex.message, param: ex.keys[1] };
  const body: Record<string, unknown> = { ...raw };
  for (const key of rules.ignored) delete body[key];
  for (const [from, to] of Object.entries(rules.renamed)) {
    if (from in body) body[to] = body[from];
    delete body[from];
  }
  const so: Record<string, unknown> | null = isRecord(body.stream_options) ? { ...body.stream_options } : null;
  if (so !== null) {
    for (const key of rules.ignoredStreamOptions) delete so[key];
    if (rules.includeUsageByDefault && so.include_usage == null) so.include_usage = true;
    if (rules.progressKey !== undefined && body[rules.progressKey] === true) so.continuous_usage_stats = true;
    body.stream_options = so;
  }
  if (rules.cacheOff !== undefined && body[rules.cacheOff] === false) body.cache_salt = `cold-${++coldCounter}`;
  if (rules.softThinkingOff !== undefined && lastUserText(body).trimEnd().endsWith(rules.softThinkingOff)) body.reasoning_effort = 'none';
  return { ok: true, body };
}
