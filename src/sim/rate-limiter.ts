/**
 * The simulator playing a rate-limited provider: a request budget and a token
 * budget per minute, each a bucket that refills continuously and holds two
 * seconds' worth (at least two requests: one request of leeway, so a client
 * that paces to the budget is not refused for a millisecond of network jitter).
 * A request spends one request and its prompt plus max output tokens, as
 * providers count a request against a token limit before it runs. Every answer
 * carries the limits in OpenAI's `x-ratelimit-*` headers and Anthropic's
 * `anthropic-ratelimit-*`; a request over budget is answered 429 with
 * `Retry-After` (whole seconds) and `retry-after-ms`, spending nothing.
 */

/** The budgets, per minute; null: that budget is not limited. */
export interface RateLimitBudget {
  rpm: number | null;
  tpm: number | null;
}

interface Bucket {
  perMinute: number;
  capacity: number;
  level: number;
  atMs: number;
}

/** What the limiter decided for one request: its headers, and the wait it asks for when it refuses (null: admitted). */
export interface RateDecision {
  headers: Record<string, string>;
  retryAfterMs: number | null;
  /** Why it was refused, in the provider's words; null when admitted. */
  message: string | null;
}

const bucket = (perMinute: number, minimum: number, nowMs: number): Bucket => {
  const capacity = Math.max(minimum, perMinute / 30);
  return { perMinute, capacity, level: capacity, atMs: nowMs };
};

const refill = (b: Bucket, nowMs: number): void => {
  b.level = Math.min(b.capacity, b.level + ((nowMs - b.atMs) * b.perMinute) / 60_000);
  b.atMs = nowMs;
};

/** Ms until `b` holds `need`. */
const waitFor = (b: Bucket, need: number): number => (need <= b.level ? 0 : ((need - b.level) * 60_000) / b.perMinute);

/** "1.5s", "20ms": a reset the way OpenAI writes it. */
const duration = (ms: number): string => (ms < 1000 ? `${Math.ceil(ms)}ms` : `${(Math.ceil(ms) / 1000).toFixed(3).replace(/\.?0+$/, '')}s`);

export class RateLimiter {
  private readonly requests: Bucket | null;
  private readonly tokens: Bucket | null;

  constructor(
    budget: RateLimitBudget,
    private readonly now: () => number,
    private readonly wallMs: () => number = Date.now,
  ) {
    const t = now();
    this.requests = budget.rpm === null ? null : bucket(budget.rpm, 2, t);
    this.tokens = budget.tpm === null ? null : bucket(budget.tpm, 1, t);
  }

  /** Admits a request costing `tokens` (spending its budget) or refuses it; either way with the limit headers. */
  take(tokens: number): RateDecision {
    const t = this.now();
    for (const b of [this.requests, this.tokens]) if (b !== null) refill(b, t);
    const r = this.requests;
    const k = this.tokens;
    if (k !== null && tokens > k.capacity)
      return {
        headers: this.headers(),
        retryAfterMs: null,
        message: `Request too large: it needs ${tokens} tokens, above the ${Math.floor(k.capacity)} the token budget (${k.perMinute} per minute) ever holds (simulated rate limit).`,
      };
    const waitMs = Math.max(r === null ? 0 : waitFor(r, 1), k === null ? 0 : waitFor(k, tokens));
    if (waitMs > 0) {
      const which = r !== null && waitFor(r, 1) >= waitMs ? `requests per minute (limit ${r.perMinute})` : `tokens per minute (limit ${k?.perMinute})`;
      const retry = Math.ceil(waitMs);
      return {
        headers: { ...this.headers(), 'retry-after': String(Math.ceil(retry / 1000)), 'retry-after-ms': String(retry) },
        retryAfterMs: retry,
        message: `Rate limit reached for ${which}. Please try again in ${duration(retry)} (simulated rate limit).`,
      };
    }
    if (r !== null) r.level -= 1;
    if (k !== null) k.level -= tokens;
    return { headers: this.headers(), retryAfterMs: null, message: null };
  }

  /** The limit headers as they stand now. */
  headers(): Record<string, string> {
    const out: Record<string, string> = {};
    const wall = this.wallMs();
    const put = (b: Bucket | null, kind: 'requests' | 'tokens') => {
      if (b === null) return;
      const remaining = Math.max(0, Math.floor(b.level));
      const resetMs = waitFor(b, b.capacity);
      out[`x-ratelimit-limit-${kind}`] = String(b.perMinute);
      out[`x-ratelimit-remaining-${kind}`] = String(remaining);
      out[`x-ratelimit-reset-${kind}`] = duration(resetMs);
      out[`anthropic-ratelimit-${kind}-limit`] = String(b.perMinute);
      out[`anthropic-ratelimit-${kind}-remaining`] = String(remaining);
      out[`anthropic-ratelimit-${kind}-reset`] = new Date(wall + Math.ceil(resetMs)).toISOString();
    };
    put(this.requests, 'requests');
    put(this.tokens, 'tokens');
    return out;
  }
}
