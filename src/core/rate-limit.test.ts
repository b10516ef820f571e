// Rate-limit headers and Retry-After as providers send them, read into bounded numbers;
// the retry policy's verdicts; pacing to a budget; and a level's retries and limits from its records.
import { describe, expect, it } from 'vitest';
import { rec } from '../test-support/records.js';
import { parseRawRecord } from './record-schema.js';
import { parseDurationMs, parseRateLimitHeaders, parseRetryAfterMs } from './rate-limit.js';
import { summarizeRateLimit, summarizeRetries } from './rate-limit-summary.js';
import { parseRatePacing } from './rate-pacing.js';
import { nextPacedSend } from './rate-pace.js';
import { DEFAULT_RETRY, retryVerdict } from './retry-policy.js';
import { summarizeLevel } from './level-summary.js';
import type { RequestRecord } from './record.js';
import { ttftMs } from './request-metrics.js';

const NOW = Date.parse('2026-12-06T12:00:00Z');

describe('rate-limit headers', () => {
  it("reads OpenAI's x-ratelimit-* headers, durations included", () => {
    const seen = parseRateLimitHeaders(
      {
        'x-ratelimit-limit-requests': '60',
        'x-ratelimit-remaining-requests': '59',
        'x-ratelimit-reset-requests': '1s',
        'x-ratelimit-limit-tokens': '150000',
        'x-ratelimit-remaining-tokens': '149984',
        'x-ratelimit-reset-tokens': '6m0s',
      },
      NOW,
    );
    expect(seen).toEqual({
      limitRequests: 60,
      remainingRequests: 59,
      resetRequestsMs: 1000,
      limitTokens: 150000,
      remainingTokens: 149984,
      resetTokensMs: 360000,
    });
  });

  it("reads Anthropic's anthropic-ratelimit-* headers, the reset an RFC 3339 date", () => {
    const seen = parseRateLimitHeaders(
      {
        'anthropic-ratelimit-requests-limit': '50',
        'anthropic-ratelimit-requests-remaining': '0',
        'anthropic-ratelimit-requests-reset': '2026-12-06T12:00:02.500Z',
      },
      NOW,
    );
    expect(seen).toEqual({ limitRequests: 50, remainingRequests: 0, resetRequestsMs: 2500 });
  });

  it('drops values that do not parse or are past their row of the limits table, and keeps no text', () => {
    expect(parseRateLimitHeaders({ 'x-ratelimit-limit-requests': '60\u001b[2J', 'x-ratelimit-remaining-requests': '99999999999' }, NOW)).toBeNull();
    expect(parseRateLimitHeaders({ 'x-ratelimit-reset-requests': '999999h' }, NOW)).toBeNull();
    expect(parseRateLimitHeaders({}, NOW)).toBeNull();
  });

  it('parses durations as OpenAI writes them', () => {
    expect(parseDurationMs('20ms')).toBe(20);
    expect(parseDurationMs('1h2m3.5s')).toBe(3_723_500);
    expect(parseDurationMs('2.5')).toBe(2500);
    expect(parseDurationMs('soon')).toBeUndefined();
  });

  it('reads Retry-After as seconds or an HTTP date, retry-after-ms first', () => {
    expect(parseRetryAfterMs({ 'retry-after': '2' }, NOW)).toBe(2000);
    expect(parseRetryAfterMs({ 'retry-after': '2', 'retry-after-ms': '1250' }, NOW)).toBe(1250);
    expect(parseRetryAfterMs({ 'retry-after': 'Sun, 06 Dec 2026 12:00:03 GMT' }, NOW)).toBe(3000);
    expect(parseRetryAfterMs({ 'retry-after': 'later' }, NOW)).toBeNull();
  });
});

describe('the retry policy', () => {
  const fresh = { attempts: 0, waitedMs: 0 };
  it('retries 429, 529 and 503 that say when, after the wait they ask', () => {
    for (const status of [429, 529, 503]) expect(retryVerdict(status, 1000, fresh, DEFAULT_RETRY)).toEqual({ kind: 'retry', waitMs: 1000 });
  });
  it('never retries other statuses, and says why it stops on a retryable one', () => {
    expect(retryVerdict(500, 1000, fresh, DEFAULT_RETRY)).toEqual({ kind: 'stop', why: null });
    expect(retryVerdict(429, null, fresh, DEFAULT_RETRY)).toEqual({ kind: 'stop', why: 'not retried: the answer has no Retry-After' });
    expect(retryVerdict(429, 1000, fresh, { retries: 0, maxWaitMs: 60_000 })).toEqual({ kind: 'stop', why: 'not retried (--retry off)' });
    expect(retryVerdict(429, 1000, { attempts: 3, waitedMs: 3000 }, DEFAULT_RETRY)).toEqual({
      kind: 'stop',
      why: 'not retried again: 3 retries already (--retry 3)',
    });
    expect(retryVerdict(429, 50_000, { attempts: 1, waitedMs: 20_000 }, DEFAULT_RETRY)).toEqual({
      kind: 'stop',
      why: 'not retried: Retry-After 50 s is past the 40 s of waiting left (--retry-max-wait-s 60)',
    });
  });
});

describe('pacing to a budget', () => {
  it('spaces sends 60/rpm seconds apart and by their tokens against tpm', () => {
    let state = { requestsNs: 0, tokensNs: 0 };
    const sends: number[] = [];
    for (let i = 0; i < 3; i++) {
      const next = nextPacedSend(state, 0, 100, { rpm: 60, tpm: null });
      sends.push(next.sendNs);
      state = next.state;
    }
    expect(sends).toEqual([0, 1e9, 2e9]);
    const t = nextPacedSend({ requestsNs: 0, tokensNs: 0 }, 5e9, 500, { rpm: null, tpm: 6000 });
    expect(t).toEqual({ sendNs: 5e9, state: { requestsNs: 0, tokensNs: 10e9 } });
  });

  it('parses --rate-limit and refuses what it cannot read, naming the problem', () => {
    expect(parseRatePacing('rpm=60,tpm=90000')).toEqual({ ok: true, pacing: { kind: 'budget', rpm: 60, tpm: 90000 } });
    expect(parseRatePacing('from-headers')).toEqual({ ok: true, pacing: { kind: 'from-headers' } });
    expect(parseRatePacing('rps=3')).toEqual({ ok: false, message: "'rps=3' is not rpm=N or tpm=M (give rpm=N,tpm=M or from-headers)" });
    expect(parseRatePacing('rpm=1,rpm=2')).toEqual({ ok: false, message: 'rpm is given twice' });
    expect(parseRatePacing('rpm=20000000')).toEqual({
      ok: false,
      message: 'rpm 20000000 is above the limit of 10000000 requests per minute of a rate-limit budget',
    });
  });
});

/** A request answered 429 at 0 ms, retried after 1000 ms, then streamed: its record as the client makes it. */
function retried(): RequestRecord {
  return {
    ...rec({ sendMs: 0, chunksMs: [1100, 1110, 1120], endMs: 1121 }),
    headersNs: 1_050e6,
    attempts: [{ status: 429, sendNs: 0, endNs: 2e6, waitMs: 1000 }],
    rateLimit: { limitRequests: 60, remainingRequests: 0, resetRequestsMs: 1000 },
  };
}

describe("a level's retries and rate limits", () => {
  const gpu = { available: false as const, source: 'not available' as const, reason: 'test' };
  const level = (records: RequestRecord[], pacing: Parameters<typeof summarizeRateLimit>[1] = null) =>
    summarizeLevel({
      concurrency: 2,
      records,
      targetOutputTokens: 3,
      forceLength: false,
      loopDelayMs: null,
      clientCpuPct: null,
      clientBudgetMs: 10,
      gpu,
      pacing,
    });

  it('counts a retried request once, its TTFT from the first attempt, and shows the retries and the limit', () => {
    const plain = { ...rec({ sendMs: 0, chunksMs: [100, 110, 120], endMs: 121 }), rateLimit: { limitRequests: 60, remainingRequests: 1 } };
    const l = level([plain, retried()]);
    expect(l.succeeded).toBe(2);
    expect(ttftMs(retried())).toBe(1100);
    expect(level([retried()]).ttftMs?.p50).toBe(1100);
    expect(l.retries).toEqual({ requests: 1, attempts: 1, waitMs: 1000, statuses: { '429': 1 } });
    expect(l.rateLimit).toMatchObject({ answered429: 1, limited: true, reason: "limited by the provider's rate limit (60 requests/min)" });
    expect(l.rateLimit?.headers).toMatchObject({ limitRequests: 60, remainingRequestsMin: 0, remainingRequestsLast: 0 });
  });

  it('marks a paced level limited by its budget, and leaves a level without any of it as before', () => {
    const ok = rec({ chunksMs: [10, 20], endMs: 21 });
    expect(level([ok], { kind: 'budget', rpm: 30, tpm: null }).rateLimit?.reason).toBe("limited by the provider's rate limit (30 requests/min)");
    const before = level([ok]);
    expect('rateLimit' in before || 'retries' in before).toBe(false);
    expect(summarizeRetries([ok])).toBeNull();
  });

  it('headers alone are recorded without marking the level limited', () => {
    const l = level([{ ...rec({ chunksMs: [10, 20], endMs: 21 }), rateLimit: { limitRequests: 600, remainingRequests: 599 } }]);
    expect(l.rateLimit).toMatchObject({ limited: false, reason: null, pace: null });
  });

  it('reads a retried record back, and refuses attempts out of order or past the retry limit, naming the field', () => {
    expect(parseRawRecord(retried()).ok).toBe(true);
    expect(parseRawRecord({ ...retried(), attempts: [{ status: 429, sendNs: 5e6, endNs: 1e6, waitMs: 1 }] })).toEqual({
      ok: false,
      message: 'attempts.0: is out of order (each attempt starts after the one before it, from sendNs, and ends after it starts)',
    });
    const many = Array.from({ length: 11 }, () => ({ status: 429, sendNs: 0, endNs: 0, waitMs: 0 }));
    expect(parseRawRecord({ ...retried(), attempts: many })).toEqual({ ok: false, message: 'attempts: at most 10 earlier attempts (the retry limit)' });
    expect(parseRawRecord({ ...retried(), rateLimit: { limitRequests: 'sixty' } }).ok).toBe(false);
  });
});
