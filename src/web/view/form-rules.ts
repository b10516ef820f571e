/**
 * The Start form's rules, checked in the page before anything is sent (the
 * API checks them again): concurrency levels, prompt and output tokens, requests per level, money,
 * retries and their longest wait, a rate limit's text, an extra request body and optional numbers
 * (when a request is given up).
 * Messages name the field as its label reads.
 */
import type { AgentTraceBody, FormCheck } from '../../core/index.js';

/** At most this many levels (core's MAX_LEVELS; not imported, so the page's bundle stays free of core and zod). */
export const FORM_MAX_LEVELS = 64;
/** The largest level (core's MAX_CONCURRENCY). */
export const FORM_MAX_CONCURRENCY = 4096;
/** The longest output (core's MAX_OUTPUT_TOKENS). */
export const FORM_MAX_OUTPUT_TOKENS = 32_768;
/** Below this, per-request overhead dominates (core's SHORT_OUTPUT_TOKENS). */
export const SHORT_OUTPUT_TOKENS = 128;
/** Inputs in one embeddings request, documents in one rerank query, tokens of an input (core's limits rows embeddingBatch, rerankDocuments, promptTokens). */
export const FORM_MAX_EMBEDDING_BATCH = 2048;
export const FORM_MAX_RERANK_DOCUMENTS = 1024;
export const FORM_MAX_ITEM_TOKENS = 262_144;
/** Measured requests per level (core's limits row requestsPerLevel). */
export const FORM_MAX_REQUESTS_PER_LEVEL = 20_000;
/** Bytes of an agent trace picked in the form (core's limits row agentTraceTextBytes). */
export const FORM_MAX_AGENT_TRACE_BYTES = 384 * 1024;

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

/** "1, 2, 4, 8" (commas or spaces) → [1, 2, 4, 8]. */
export function parseLevelsText(text: string): Checked<number[]> {
  const items = text.split(/[\s,]+/).filter((s) => s !== '');
  if (items.length === 0) return { ok: false, message: 'Give at least one concurrency level, e.g. 1, 2, 4, 8.' };
  for (const s of items) {
    if (!/^\d+$/.test(s) || Number(s) < 1) return { ok: false, message: `“${s}” is not a positive integer. Levels look like 1, 2, 4, 8.` };
    if (Number(s) > FORM_MAX_CONCURRENCY) return { ok: false, message: `${s} is above the largest level, ${FORM_MAX_CONCURRENCY}.` };
  }
  if (items.length > FORM_MAX_LEVELS) return { ok: false, message: `${items.length} levels is more than ${FORM_MAX_LEVELS}.` };
  return { ok: true, value: items.map(Number) };
}

/** A positive whole number of output tokens. */
export function parseOutputTokens(text: string): Checked<number> {
  const t = text.trim();
  if (!/^\d+$/.test(t) || Number(t) < 1) return { ok: false, message: 'Output tokens must be a positive whole number, e.g. 256.' };
  if (Number(t) > FORM_MAX_OUTPUT_TOKENS) return { ok: false, message: `Output tokens must be at most ${FORM_MAX_OUTPUT_TOKENS}.` };
  return { ok: true, value: Number(t) };
}

/** The warning shown before Start (and stored on the run) for a short output, or null. */
export function shortOutputWarning(tokens: number): string | null {
  return tokens < SHORT_OUTPUT_TOKENS
    ? `${tokens} output tokens is below ${SHORT_OUTPUT_TOKENS}: per-request overhead dominates and real differences can vanish into it. The run will carry this warning.`
    : null;
}

/** An optional amount of money: blank → null. */
export function parseMoney(label: string, text: string, opts: { positive: boolean }): Checked<number | null> {
  const t = text.trim();
  if (t === '') return { ok: true, value: null };
  const x = Number(t.replace(/^\$/, ''));
  if (!Number.isFinite(x)) return { ok: false, message: `${label} must be a number, e.g. 6.50.` };
  if (opts.positive ? x <= 0 : x < 0) return { ok: false, message: `${label} must be ${opts.positive ? 'greater than 0' : '0 or more'}.` };
  return { ok: true, value: x };
}

/** A positive whole number of at most `max`, named by its label: inputs per request, tokens per input. */
export function parseCount(label: string, text: string, max: number, example: number): Checked<number> {
  const t = text.trim();
  if (!/^\d+$/.test(t) || Number(t) < 1) return { ok: false, message: `${label} must be a positive whole number, e.g. ${example}.` };
  if (Number(t) > max) return { ok: false, message: `${label} must be at most ${max}.` };
  return { ok: true, value: Number(t) };
}

/** Measured requests per level: blank or "auto" → 'auto' (max(8, 4 × concurrency)), else a positive whole number within the limit. */
export function parseRequestsPerLevel(text: string): Checked<number | 'auto'> {
  const t = text.trim().toLowerCase();
  if (t === '' || t === 'auto') return { ok: true, value: 'auto' };
  if (!/^\d+$/.test(t) || Number(t) < 1) return { ok: false, message: 'Requests per level must be a positive whole number, e.g. 64, or blank for auto.' };
  if (Number(t) > FORM_MAX_REQUESTS_PER_LEVEL) return { ok: false, message: `Requests per level must be at most ${FORM_MAX_REQUESTS_PER_LEVEL}.` };
  return { ok: true, value: Number(t) };
}

/** How one field of the form is read: its check, the name its messages use, its bound and example (the option's limit and default). */
export interface FieldRule {
  check: FormCheck;
  name: string;
  max: number;
  example: number;
  positive: boolean;
  /** A whole number only (the option's `integer`). */
  integer?: boolean;
}

export type FieldValue = number | number[] | 'auto' | boolean | AgentTraceBody | string | Record<string, unknown> | null;

/** Retries: a whole number from 0 to `max`, or "off" (0). */
export function parseRetries(label: string, text: string, max: number, example: number): Checked<number> {
  const t = text.trim().toLowerCase();
  if (t === 'off') return { ok: true, value: 0 };
  if (!/^\d+$/.test(t)) return { ok: false, message: `${label} must be a whole number from 0 to ${max}, e.g. ${example}, or off.` };
  if (Number(t) > max) return { ok: false, message: `${label} must be at most ${max}.` };
  return { ok: true, value: Number(t) };
}

/** Seconds: 0 or more, at most `max`. */
export function parseSeconds(label: string, text: string, max: number, example: number): Checked<number> {
  const t = text.trim();
  const x = Number(t);
  if (t === '' || !Number.isFinite(x) || x < 0) return { ok: false, message: `${label} must be a number of seconds, 0 or more, e.g. ${example}.` };
  if (x > max) return { ok: false, message: `${label} must be at most ${max} s.` };
  return { ok: true, value: x };
}

/** An optional number: blank → null (none, or the option's default); else whole where the rule says, above 0 (or 0 or more), at most `max`. */
export function parseOptionalNumber(rule: FieldRule, text: string): Checked<number | null> {
  const t = text.trim();
  if (t === '') return { ok: true, value: null };
  const x = Number(t);
  const kind = rule.integer ? 'whole number' : 'number';
  const least = rule.positive ? 'above 0' : '0 or more';
  if (!Number.isFinite(x) || (rule.integer && !Number.isInteger(x)) || (rule.positive ? x <= 0 : x < 0))
    return { ok: false, message: `${rule.name} must be a ${kind} ${least}, or blank for none.` };
  if (x > rule.max) return { ok: false, message: `${rule.name} must be at most ${rule.max}.` };
  return { ok: true, value: x };
}

/** Optional JSON object: blank → null; anything but an object is refused here (the API checks its keys and size). */
export function parseJsonObject(label: string, text: string): Checked<Record<string, unknown> | null> {
  const t = text.trim();
  if (t === '') return { ok: true, value: null };
  let o: unknown;
  try {
    o = JSON.parse(t);
  } catch {
    return { ok: false, message: `${label} is not JSON: write an object, e.g. {"priority":1}.` };
  }
  if (o === null || typeof o !== 'object' || Array.isArray(o)) return { ok: false, message: `${label} must be a JSON object, e.g. {"priority":1}.` };
  return { ok: true, value: o as Record<string, unknown> };
}

/**
 * A picked agent trace: within the start body's bound, and every line a JSON object. The server reads the
 * rest (the graph, the lengths) and names the line it refuses, shown beside the field.
 */
export function checkAgentTrace(trace: AgentTraceBody): Checked<AgentTraceBody> {
  const bytes = new TextEncoder().encode(trace.text).length;
  if (bytes > FORM_MAX_AGENT_TRACE_BYTES)
    return {
      ok: false,
      message: `${trace.name} is larger than ${FORM_MAX_AGENT_TRACE_BYTES / 1024} KiB, the most the page sends: replay it with goodput replay TRACE --save.`,
    };
  const lines = trace.text.split('\n');
  if (lines.every((l) => l.trim() === '')) return { ok: false, message: `${trace.name} is empty: an agent trace has one JSON object per line.` };
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch {
      o = undefined;
    }
    if (o === null || typeof o !== 'object' || Array.isArray(o))
      return { ok: false, message: `${trace.name}: line ${i + 1} is not a JSON object (an agent trace has one per line).` };
  }
  return { ok: true, value: trace };
}

/** A field's text (or a checkbox's state, or a picked file) read by its rule. */
export function checkField(rule: FieldRule, input: string | boolean | AgentTraceBody): Checked<FieldValue> {
  if (typeof input === 'boolean') return { ok: true, value: input };
  if (typeof input === 'object') return checkAgentTrace(input);
  switch (rule.check) {
    case 'levels':
      return parseLevelsText(input);
    case 'output-tokens':
      return parseOutputTokens(input);
    case 'requests':
      return parseRequestsPerLevel(input);
    case 'money':
      return parseMoney(rule.name, input, { positive: rule.positive });
    case 'count':
      return parseCount(rule.name, input, rule.max, rule.example);
    case 'boolean':
      return { ok: true, value: input === 'true' };
    case 'agent-trace':
      // No file picked: a synthetic sweep.
      return { ok: true, value: null };
    case 'retries':
      return parseRetries(rule.name, input, rule.max, rule.example);
    case 'seconds':
      return parseSeconds(rule.name, input, rule.max, rule.example);
    case 'text':
      // Read by the option's own parser on the server, which names the field when it refuses.
      return { ok: true, value: input.trim() === '' ? null : input.trim() };
    case 'json-object':
      return parseJsonObject(rule.name, input);
    case 'optional-number':
      return parseOptionalNumber(rule, input);
  }
}
