// The page's (and the report's) status of a level the provider's rate limit paced: a rate-limited
// badge whose reason names the limit and the retries, never "ok" with a capacity; retries alone are shown too.
import { describe, expect, it } from 'vitest';
import { summarizeLevel, type RequestRecord } from '../../core/index.js';
import { rec } from '../../test-support/records.js';
import { levelBadge, statusText } from './table-model.js';

const gpu = { available: false as const, source: 'not available' as const, reason: 'test' };
const level = (records: RequestRecord[]) =>
  summarizeLevel({ concurrency: 2, records, targetOutputTokens: 2, forceLength: false, loopDelayMs: null, clientCpuPct: null, clientBudgetMs: 1e6, gpu });
const retried = (status: number): RequestRecord => ({
  ...rec({ sendMs: 0, chunksMs: [1010, 1020], endMs: 1021 }),
  headersNs: 1001e6,
  attempts: [{ status, sendNs: 0, endNs: 1e6, waitMs: 1000 }],
  rateLimit: { limitRequests: 60 },
});

describe('a rate-limited level on the page', () => {
  it('is badged rate-limited, its reason naming the limit and the retries', () => {
    const l = level([rec({ chunksMs: [10, 20], endMs: 21 }), retried(429)]);
    expect(levelBadge(l)).toEqual({
      text: 'rate-limited',
      tone: 'warn',
      reason: "limited by the provider's rate limit (60 requests/min); 1 retry of 1 request, 1.0 s waited (latency from each first attempt)",
    });
  });

  it('shows retries after an overload (529) without marking a rate limit', () => {
    const l = level([retried(529)]);
    expect(levelBadge(l).text).toBe('ok');
    expect(statusText(l)).toBe('ok; 1 retry of 1 request, 1.0 s waited (latency from each first attempt)');
  });
});
