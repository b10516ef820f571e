import { describe, expect, it } from 'vitest';
import { rec } from '../test-support/records.js';
import { boundedRttMs, compareWithServer, describeDisagreement, describeQueue, fastestHeadersMs } from './server-compare.js';
import type { ServerFigures } from './server-truth.js';

// Two requests sent at 0: TTFT 50 and 52 ms (mean 51), chunk gaps 10,10 and 12,12 (mean 11), 3 tokens each.
const records = [rec({ chunksMs: [50, 60, 70] }), rec({ chunksMs: [52, 64, 76] }), rec({ chunksMs: [1, 2], warmup: true })];
const server: ServerFigures = {
  family: 'vllm',
  requests: 2,
  ttftMeanMs: 50.5,
  itlMeanMs: 11,
  itlPer: 'chunk',
  e2eMeanMs: null,
  queueMeanMs: 0,
  generatedTokens: 6,
  promptTokens: null,
  prefixCacheHitPct: null,
  lateP99Ms: null,
  running: null,
  waiting: null,
  kvCacheUsagePct: null,
  missing: [],
  notes: [],
};

describe('client vs server', () => {
  it("states the probe's round trip, bounded by the fastest measured response's headers", () => {
    // rec() gives headers 1 ms after the send; the warm-up is left out of the bound.
    expect(fastestHeadersMs(records)).toBe(1);
    expect(fastestHeadersMs([rec({ chunksMs: [5], warmup: true })])).toBeNull();
    expect(boundedRttMs(0.3, records)).toBe(0.3);
    expect(boundedRttMs(1.45, records)).toBe(1); // a probe stretched by a busy moment
    expect(boundedRttMs(null, records)).toBeNull();
    expect(boundedRttMs(2, [])).toBe(2);
  });

  it('agrees when TTFT differs by less than a round trip plus 5%, and inter-token means match', () => {
    const { comparison, queued } = compareWithServer(records, server, 0.3);
    const ttft = comparison.find((r) => r.metric === 'ttft-mean-ms');
    expect(ttft).toMatchObject({ client: 51, server: 50.5, diff: 0.5, agrees: true });
    expect(ttft?.allowedMin).toBeCloseTo(-2.525, 9); // 5% of 50.5 beats the 2 ms floor
    expect(ttft?.allowedMax).toBeCloseTo(2.825, 9); // + the 0.3 ms round trip
    expect(ttft?.diffPct).toBeCloseTo((0.5 / 50.5) * 100, 9);
    expect(comparison.find((r) => r.metric === 'itl-mean-ms')).toMatchObject({ client: 11, server: 11, agrees: true });
    expect(comparison.find((r) => r.metric === 'generated-tokens')).toMatchObject({ client: 6, server: 6, agrees: true });
    expect(comparison.find((r) => r.metric === 'requests')).toMatchObject({ client: 2, server: 2, agrees: true });
    expect(describeDisagreement(comparison)).toBeNull();
    expect(queued).toBe(false);
  });

  it("widens the inter-token allowance by our loop delay over a request's gaps: a stalled first read shrinks the mean", () => {
    // Written at 50, 60, 70, 80, 90 ms; our loop stalled 20 ms, so the first three were read together at 70.
    const stalled = [rec({ chunksMs: [70, 70, 70, 80, 90] }), rec({ chunksMs: [70, 70, 70, 80, 90] })];
    const figures = { ...server, ttftMeanMs: null, itlMeanMs: 10, generatedTokens: 10 };
    const itl = (late: number | null) => compareWithServer(stalled, figures, 0.3, late).comparison.find((r) => r.metric === 'itl-mean-ms');
    expect(itl(null)).toMatchObject({ client: 5, server: 10, diff: -5, allowedMin: -0.5, agrees: false });
    const widened = itl(20);
    expect(widened).toMatchObject({ client: 5, agrees: true });
    expect(widened?.allowedMin).toBeCloseTo(-5.5, 9); // 5 % of 10 ms, + 20 ms over 4 gaps a request
    expect(widened?.basis).toBe('±max(5%, 0.5 ms) + our event-loop delay 20.00 ms (p99) over 4.0 gaps a request, per chunk');
    expect(itl(12)?.agrees).toBe(false); // 0.5 + 3 ms does not cover a 5 ms shift
  });

  it("disagrees when our TTFT exceeds the server's by more than the round trip explains, and says by how much", () => {
    const { comparison } = compareWithServer(records, { ...server, ttftMeanMs: 20 }, 0.3);
    const ttft = comparison.find((r) => r.metric === 'ttft-mean-ms');
    expect(ttft).toMatchObject({ diff: 31, allowedMax: 2.3, agrees: false });
    expect(describeDisagreement(comparison)).toBe(
      'TTFT mean: ours 51.0 ms, server 20.0 ms (+31.0 ms; allowed -2.0…+2.3: one 0.30 ms round trip + max(5%, 2 ms))',
    );
  });

  it('counts our own event-loop delay during the level as part of the allowance, and says so', () => {
    // A busy machine: ours 51 ms against the server's 45 ms is 6 ms over; 0.3 ms round trip + 2.25 ms slack would flag it.
    expect(compareWithServer(records, { ...server, ttftMeanMs: 45 }, 0.3).comparison.find((r) => r.metric === 'ttft-mean-ms')?.agrees).toBe(false);
    const { comparison } = compareWithServer(records, { ...server, ttftMeanMs: 45 }, 0.3, 4);
    const ttft = comparison.find((r) => r.metric === 'ttft-mean-ms');
    expect(ttft).toMatchObject({ diff: 6, agrees: true, basis: 'one 0.30 ms round trip + our event-loop delay 4.00 ms (p99) + max(5%, 2 ms)' });
    expect(ttft?.allowedMax).toBeCloseTo(6.55, 9);
    // It widens the upper bound only: ours below the server's is never our lateness.
    expect(ttft?.allowedMin).toBeCloseTo(-2.25, 9);
  });

  it("counts the server's own reported write lateness too, beside ours, and names both", () => {
    const { comparison } = compareWithServer(records, { ...server, ttftMeanMs: 45, lateP99Ms: 2.5 }, 0.3, 1.5);
    const ttft = comparison.find((r) => r.metric === 'ttft-mean-ms');
    expect(ttft).toMatchObject({
      diff: 6,
      agrees: true,
      basis: "one 0.30 ms round trip + our event-loop delay 1.50 ms (p99) + the server's write lateness 2.50 ms (p99) + max(5%, 2 ms)",
    });
    expect(ttft?.allowedMax).toBeCloseTo(6.55, 9);
    // Without the server's figure the same level disagrees.
    expect(compareWithServer(records, { ...server, ttftMeanMs: 45 }, 0.3, 1.5).comparison.find((r) => r.metric === 'ttft-mean-ms')?.agrees).toBe(false);
  });

  it('flags more tokens or requests on the server than we sent (someone else uses it)', () => {
    const { comparison } = compareWithServer(records, { ...server, generatedTokens: 100, requests: 5 }, null);
    expect(comparison.filter((r) => !r.agrees).map((r) => r.metric)).toEqual(['generated-tokens', 'requests']);
    // Fewer requests on the server is fine: it never started the ones it rejected.
    expect(compareWithServer(records, { ...server, requests: 1 }, null).comparison.find((r) => r.metric === 'requests')?.agrees).toBe(true);
  });

  it('allows the server any count above ours for the requests we cancelled, or one without their tokens, nothing else', () => {
    const cut = rec({ chunksMs: [50, 60], chunkTokens: [1, 2], outcome: { kind: 'cancelled', after: 'tokens', phase: 'stream' } });
    const row = (generatedTokens: number) =>
      compareWithServer([...records, cut], { ...server, generatedTokens, requests: 3 }, null).comparison.find((r) => r.metric === 'generated-tokens');
    // We read 6 + 3 tokens. The simulator went on for the cancelled one until it heard the close; llama.cpp counts none of it (6).
    expect(row(40)).toMatchObject({
      client: 9,
      diff: -31,
      allowedMin: -40,
      allowedMax: 4,
      agrees: true,
      basis:
        "±2% of the server's count, or apart from the 1 request we cancelled (what it generated for them before it heard them go, or the 3 tokens we read of them)",
    });
    expect(row(6)?.agrees).toBe(true);
    expect(row(4)?.agrees).toBe(false);
  });

  it("compares a cancelled request's first token and steps with the server's, which timed them too", () => {
    // Cancelled after two chunks: TTFT 80 ms, one 30 ms gap. With it the means are (50+52+80)/3 and (10+10+12+12+30)/5.
    const cut = rec({ chunksMs: [80, 110], outcome: { kind: 'cancelled', after: 'tokens', phase: 'stream' } });
    const { comparison } = compareWithServer([...records, cut], { ...server, generatedTokens: 8, requests: 3 }, 0.3);
    expect(comparison.find((r) => r.metric === 'ttft-mean-ms')?.client).toBeCloseTo(182 / 3, 9);
    expect(comparison.find((r) => r.metric === 'itl-mean-ms')?.client).toBeCloseTo(74 / 5, 9);
    // A per-request figure is the server's for finished requests alone.
    expect(compareWithServer([...records, cut], { ...server, itlPer: 'request' }, 0.3).comparison.find((r) => r.metric === 'itl-mean-ms')?.client).toBe(11);
  });

  it('compares per-token and per-request inter-token figures with the matching client statistic', () => {
    const exact = [rec({ chunksMs: [50, 70], chunkTokens: [1, 4] })]; // one 20 ms gap carrying 4 tokens
    expect(compareWithServer(exact, { ...server, itlMeanMs: 5, itlPer: 'token' }, 0).comparison.find((r) => r.metric === 'itl-mean-ms')?.client).toBe(5);
    expect(compareWithServer(exact, { ...server, itlMeanMs: 20, itlPer: 'chunk' }, 0).comparison.find((r) => r.metric === 'itl-mean-ms')?.client).toBe(20);
    expect(compareWithServer(exact, { ...server, itlMeanMs: 5, itlPer: 'request' }, 0).comparison.find((r) => r.metric === 'itl-mean-ms')?.client).toBe(5);
  });

  it('leaves out a row the server has no figure for', () => {
    const { comparison } = compareWithServer(records, { ...server, ttftMeanMs: null, itlMeanMs: null, generatedTokens: null, requests: null }, 0.3);
    expect(comparison).toEqual([]);
  });
});

describe('queueing', () => {
  it('is queued when the mean queue time exceeds max(5 ms, two decode steps, 10% of TTFT)', () => {
    // Limit here: max(5, 2 × 11, 5.05) = 22 ms.
    expect(compareWithServer(records, { ...server, queueMeanMs: 30 }, 0).queued).toBe(true);
    expect(compareWithServer(records, { ...server, queueMeanMs: 21 }, 0).queued).toBe(false);
  });
  it('falls back to the waiting gauge when there is no queue-time histogram', () => {
    const waiting = { mean: 0.6, max: 2, samples: 5 };
    expect(compareWithServer(records, { ...server, queueMeanMs: null, waiting }, 0).queued).toBe(true);
    expect(compareWithServer(records, { ...server, queueMeanMs: null, waiting: { ...waiting, mean: 0.2 } }, 0).queued).toBe(false);
  });
  it('describes the queue in words', () => {
    expect(describeQueue({ queueMeanMs: 30, ttftMeanMs: 60, waiting: { mean: 2.5, max: 6, samples: 3 } })).toBe(
      'mean queue time 30.0 ms (50% of its TTFT), up to 6 waiting (mean 2.5)',
    );
  });

  it("compares a retried request's TTFT from the attempt the server answered, not from the first", () => {
    // Sent at 0, answered 429 at 2 ms, waited 1000 ms, sent again at 1002 ms: first token at 1050 ms, so 48 ms to the server.
    const retried = { ...rec({ chunksMs: [1050, 1060, 1070] }), headersNs: 1003e6, attempts: [{ status: 429, sendNs: 0, endNs: 2e6, waitMs: 1000 }] };
    const ttft = compareWithServer([retried], { ...server, requests: 1, ttftMeanMs: 48 }, 0.3).comparison.find((r) => r.metric === 'ttft-mean-ms');
    expect(ttft?.client).toBeCloseTo(48, 9);
  });
  it("takes a timed level's ramp requests, which the server's window saw, as ours too", () => {
    // Measured and ramp requests alike were sent between the two scrapes: before, the ramp's were left out, and every
    // ramped level read "the server counted more requests than we sent" (123 against 241 by hand).
    const ramp = { ...rec({ chunksMs: [51, 61, 71], warmup: true }), ramp: true as const };
    const seen = { ...server, requests: 3, generatedTokens: 9 };
    const { comparison } = compareWithServer([...records, ramp], seen, 0.3);
    expect(comparison.find((r) => r.metric === 'requests')).toMatchObject({ client: 3, server: 3, agrees: true });
    expect(comparison.find((r) => r.metric === 'generated-tokens')).toMatchObject({ client: 9, server: 9, agrees: true });
  });
});
