/**
 * What a rate-limited provider says about its limits, read from its answers:
 * the `x-ratelimit-*` headers (OpenAI and most OpenAI-compatible providers),
 * Anthropic's `anthropic-ratelimit-*`, and `Retry-After` (seconds or an HTTP
 * date; `retry-after-ms` first where a provider sends it). Only numbers are
 * kept, each bounded by the limits table: a value that does not parse or is
 * past its row is dropped, never stored as text. Pure: the wall clock an
 * absolute date is read against is passed in.
 */
import { LIMITS } from './limits.js';

/** The limits one answer stated; a field is absent when the answer did not state it (or stated it out of bounds). */
export interface RateLimitSeen {
  /** Requests per minute the account may send. */
  limitRequests?: number;
  remainingRequests?: number;
  /** Until the request budget is back to full, ms. */
  resetRequestsMs?: number;
  /** Tokens per minute the account may use. */
  limitTokens?: number;
  remainingTokens?: number;
  resetTokensMs?: number;
}

export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Statuses a provider answers when a limit or its load refuses a request for now: retried when it says when. */
export const RETRYABLE_STATUSES: readonly number[] = [429, 503, 529];

const first = (h: HeaderBag, name: string): string | null => {
  const v = h[name];
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' ? s.trim() : null;
};

/** A whole count in 0..max, or undefined. */
function count(text: string | null, max: number): number | undefined {
  if (text === null || !/^\d{1,16}$/.test(text)) return undefined;
  const n = Number(text);
  return n <= max ? n : undefined;
}

/** A duration as OpenAI writes it ("1s", "6m0s", "20ms", "1h2m3.5s") or plain seconds, in ms; undefined when it does not parse. */
export function parseDurationMs(text: string): number | undefined {
  if (/^\d{1,9}(\.\d{1,6})?$/.test(text)) return Number(text) * 1000;
  const m = /^(?:(\d{1,6}(?:\.\d{1,6})?)h)?(?:(\d{1,6}(?:\.\d{1,6})?)m(?!s))?(?:(\d{1,9}(?:\.\d{1,6})?)s)?(?:(\d{1,9}(?:\.\d{1,6})?)ms)?$/.exec(text);
  if (m === null || text === '') return undefined;
  const [, h, min, s, ms] = m.map((x) => (x === undefined ? 0 : Number(x)));
  return (h as number) * 3_600_000 + (min as number) * 60_000 + (s as number) * 1000 + (ms as number);
}

/** A reset stated as a duration or an RFC 3339 / HTTP date, in ms from `nowMs`, bounded; undefined otherwise. */
function resetMs(text: string | null, nowMs: number): number | undefined {
  if (text === null || text.length > 64) return undefined;
  let ms = parseDurationMs(text);
  if (ms === undefined && /^\d{4}-\d\d-\d\dT|^[A-Z][a-z]{2}, /.test(text)) {
    const at = Date.parse(text);
    if (Number.isFinite(at)) ms = Math.max(0, at - nowMs);
  }
  return ms !== undefined && ms <= LIMITS.rateLimitResetS.max * 1000 ? Math.round(ms) : undefined;
}

/** Every header a rate limit is stated in: an answer with none of them (a self-hosted engine's) costs one look each. */
const LIMIT_HEADERS = ['requests', 'tokens'].flatMap((k) => [
  ...['limit', 'remaining', 'reset'].map((f) => `x-ratelimit-${f}-${k}`),
  ...['limit', 'remaining', 'reset'].map((f) => `anthropic-ratelimit-${k}-${f}`),
]);

/** The limits an answer's headers state (OpenAI's names first, then Anthropic's), or null when it states none. */
export function parseRateLimitHeaders(h: HeaderBag, nowMs: number): RateLimitSeen | null {
  if (!LIMIT_HEADERS.some((name) => h[name] !== undefined)) return null;
  const R = LIMITS.rateLimitRpm.max;
  const T = LIMITS.rateLimitTpm.max;
  const pick = (openai: string, anthropic: string) => first(h, openai) ?? first(h, anthropic);
  const seen: RateLimitSeen = {
    limitRequests: count(pick('x-ratelimit-limit-requests', 'anthropic-ratelimit-requests-limit'), R),
    remainingRequests: count(pick('x-ratelimit-remaining-requests', 'anthropic-ratelimit-requests-remaining'), R),
    resetRequestsMs: resetMs(pick('x-ratelimit-reset-requests', 'anthropic-ratelimit-requests-reset'), nowMs),
    limitTokens: count(pick('x-ratelimit-limit-tokens', 'anthropic-ratelimit-tokens-limit'), T),
    remainingTokens: count(pick('x-ratelimit-remaining-tokens', 'anthropic-ratelimit-tokens-remaining'), T),
    resetTokensMs: resetMs(pick('x-ratelimit-reset-tokens', 'anthropic-ratelimit-tokens-reset'), nowMs),
  };
  for (const k of Object.keys(seen) as (keyof RateLimitSeen)[]) if (seen[k] === undefined) delete seen[k];
  return Object.keys(seen).length === 0 ? null : seen;
}

/**
 * How long an answer asks to be left alone, ms: `retry-after-ms` when sent, else
 * `Retry-After` as seconds or an HTTP date (against `nowMs`); null when it says
 * nothing readable. Not bounded here: the retry policy judges it against its maximum.
 */
export function parseRetryAfterMs(h: HeaderBag, nowMs: number): number | null {
  const ms = first(h, 'retry-after-ms');
  if (ms !== null && /^\d{1,12}(\.\d{1,6})?$/.test(ms)) return Number(ms);
  const v = first(h, 'retry-after');
  if (v === null || v.length > 64) return null;
  if (/^\d{1,12}(\.\d{1,6})?$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return /^[A-Z][a-z]{2}, /.test(v) && Number.isFinite(at) ? Math.max(0, at - nowMs) : null;
}
