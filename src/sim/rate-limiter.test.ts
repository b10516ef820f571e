// The simulator as a rate-limited provider, on an injected clock: a budget of 60 requests a minute
// admits its bucket, then answers 429 with Retry-After until the bucket has earned a request back;
// a token budget counts prompt + max output tokens; every answer carries both families of headers.
import { describe, expect, it } from 'vitest';
import { parseRateLimitHeaders, parseRetryAfterMs } from '../core/index.js';
import { RateLimiter } from './rate-limiter.js';

const WALL = Date.parse('2026-12-06T12:00:00Z');

function limiter(budget: { rpm: number | null; tpm: number | null }) {
  const clock = { ms: 0 };
  return {
    clock,
    l: new RateLimiter(
      budget,
      () => clock.ms,
      () => WALL + clock.ms,
    ),
  };
}

describe('the simulated rate limit', () => {
  it('60 requests a minute: two at once, then one a second, the rest answered 429 with the wait', () => {
    const { clock, l } = limiter({ rpm: 60, tpm: null });
    expect(l.take(10).message).toBeNull();
    expect(l.take(10).message).toBeNull();
    const refused = l.take(10);
    expect(refused.message).toBe('Rate limit reached for requests per minute (limit 60). Please try again in 1s (simulated rate limit).');
    expect(refused.retryAfterMs).toBe(1000);
    expect(refused.headers).toMatchObject({ 'retry-after': '1', 'retry-after-ms': '1000', 'x-ratelimit-remaining-requests': '0' });
    clock.ms = 400;
    expect(l.take(10).retryAfterMs).toBe(600);
    clock.ms = 1000;
    expect(l.take(10).message).toBeNull();
  });

  it('counts tokens against a token budget and refuses a request that could never fit', () => {
    const { l } = limiter({ rpm: null, tpm: 6000 });
    expect(l.take(150).message).toBeNull();
    expect(l.take(100).retryAfterMs).toBe(500);
    expect(l.take(500).message).toBe(
      'Request too large: it needs 500 tokens, above the 200 the token budget (6000 per minute) ever holds (simulated rate limit).',
    );
  });

  it('states its limits in the headers goodput reads back, OpenAI and Anthropic alike', () => {
    const { l } = limiter({ rpm: 60, tpm: 90_000 });
    l.take(100);
    const h = l.headers();
    expect(parseRateLimitHeaders(h, WALL)).toEqual({
      limitRequests: 60,
      remainingRequests: 1,
      resetRequestsMs: 1000,
      limitTokens: 90000,
      remainingTokens: 2900,
      resetTokensMs: 67,
    });
    const anthropic = Object.fromEntries(Object.entries(h).filter(([k]) => k.startsWith('anthropic-')));
    expect(parseRateLimitHeaders(anthropic, WALL)).toEqual(parseRateLimitHeaders(h, WALL));
    expect(parseRetryAfterMs({ 'retry-after': '1' }, WALL)).toBe(1000);
  });
});
