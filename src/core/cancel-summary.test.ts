import { describe, expect, it } from 'vitest';
import { rec } from '../test-support/records.js';
import { cancelledNote, summarizeCancelled } from './cancel-summary.js';
import { levelGoodput } from './goodput.js';
import { type LevelInput, summarizeLevel } from './level-summary.js';
import { rawRecordSchema } from './record-schema.js';
import { levelResultSchema } from './result-schema.js';
import { sloSchema } from './slo.js';

const level = (records: LevelInput['records']): LevelInput => ({
  concurrency: 2,
  records,
  targetOutputTokens: 4,
  forceLength: true,
  loopDelayMs: null,
  clientCpuPct: null,
  clientBudgetMs: 10,
  gpu: { available: false, source: 'not available', reason: 'none' },
});

// Two complete requests (TTFT 10 and 30 ms), one given up after 2 tokens, one after its time before any token.
const a = rec({ sendMs: 0, chunksMs: [10, 20, 30, 40], endMs: 41 });
const b = rec({ sendMs: 0, chunksMs: [30, 40, 50, 60], endMs: 61 });
const byTokens = rec({ sendMs: 41, chunksMs: [43, 45], endMs: 45, outcome: { kind: 'cancelled', after: 'tokens', phase: 'stream' } });
const byTime = rec({ sendMs: 61, chunksMs: [], endMs: 161, outcome: { kind: 'cancelled', after: 'ms', phase: 'first-token' } });
const warm = rec({ sendMs: -50, chunksMs: [-40], endMs: -39, warmup: true, outcome: { kind: 'cancelled', after: 'ms', phase: 'stream' } });

describe('cancelled requests in a level', () => {
  it('are neither successes nor failures: counted apart, the level stays valid, and no figure includes them', () => {
    const s = summarizeLevel(level([warm, a, b, byTokens, byTime]));
    expect(s).toMatchObject({ requests: 4, succeeded: 2, failed: 0, invalid: false, invalidReason: null, failures: {} });
    expect(s.cancelled).toEqual({ requests: 2, afterMs: 1, afterTokens: 1, beforeFirstToken: 1, outputTokens: 2 });
    // TTFT, TPOT, e2e and tokens from the two complete requests alone; the duration spans every measured request.
    expect(s.ttftMs).toEqual({ p50: 20, p95: 29, p99: 29.8 });
    expect(s.e2eMs?.p50).toBe(51);
    expect(s.outputTokensTotal).toBe(8);
    expect(s.durationMs).toBe(161);
    expect(s.throughputTokS).toBeCloseTo(8 / 0.161, 6);
    expect(levelResultSchema.safeParse(s).success).toBe(true);
  });

  it('is absent from a level that cancelled nothing, so its result is as before', () => {
    expect('cancelled' in summarizeLevel(level([a, b]))).toBe(false);
    expect(summarizeCancelled([a, warm])).toBeNull();
  });

  it('is left out of goodput: only requests that ran to an end are judged', () => {
    const g = levelGoodput([a, b, byTokens, byTime], sloSchema.parse({ ttftMs: { p: 50, max: 25 } }), 1000);
    expect(g).toMatchObject({ requests: 2, met: 1, share: 0.5, missed: { failed: 0, ttftMs: 1 } });
  });

  it('a record states what ran out and where it stood', () => {
    expect(rawRecordSchema.safeParse(byTime).success).toBe(true);
    const bad = rawRecordSchema.safeParse({ ...byTime, outcome: { kind: 'cancelled', after: 'patience', phase: 'stream' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['outcome', 'after']);
  });

  it("a level read back whose cancelled count is not its records' is refused, naming the field", () => {
    const s = summarizeLevel(level([a, b, byTokens, byTime]));
    const parts = levelResultSchema.safeParse({ ...s, cancelled: { ...s.cancelled, afterMs: 2 } });
    expect(parts.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['cancelled', 'afterMs 2 and afterTokens 1 do not add up to requests 2']]);
    const more = levelResultSchema.safeParse({ ...s, cancelled: { ...s.cancelled, requests: 3, afterMs: 2 } });
    expect(more.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['cancelled', "requests 3 with the level's 2 succeeded and 0 failed is not its 4 requests"],
    ]);
    const first = levelResultSchema.safeParse({ ...s, cancelled: { ...s.cancelled, beforeFirstToken: 3 } });
    expect(first.error?.issues.map((i) => i.message)).toEqual(['beforeFirstToken 3 is more than requests 2']);
  });
});

describe('cancelledNote', () => {
  const cancelled = { requests: 8, afterMs: 6, afterTokens: 2, beforeFirstToken: 3, outputTokens: 410 };
  it("says the count beside the server's tokens and queue", () => {
    const serverTruth = {
      generatedTokens: 9120,
      running: { mean: 3.14, max: 4 },
      waiting: { mean: 0.25, max: 2 },
      comparison: [{ metric: 'generated-tokens', diff: -12 }],
    };
    expect(cancelledNote({ requests: 32, durationMs: 4000, cancelled, serverTruth })).toBe(
      '8 of 32 requests cancelled by the client (6 after the time, 2 after the tokens; 3 before their first token), 410 tokens read before it; the server generated 9120 tokens (2280.0 tok/s over the level), 12 more than our requests read, running mean 3.1 (max 4), waiting mean 0.3 (max 2)',
    );
  });
  it('says when the server was not scraped or reported neither, and nothing without cancelled requests', () => {
    const one = { requests: 1, afterMs: 0, afterTokens: 1, beforeFirstToken: 0, outputTokens: 1 };
    expect(cancelledNote({ requests: 1, durationMs: 5, cancelled: one })).toBe(
      "1 of 1 request cancelled by the client (1 after the tokens; 0 before their first token), 1 token read before it; the server's own view was not scraped",
    );
    expect(cancelledNote({ requests: 1, durationMs: 5, cancelled: one, serverTruth: { generatedTokens: null, running: null, waiting: null } })).toMatch(
      /; the server reported neither its tokens nor its queue$/,
    );
    expect(cancelledNote({ requests: 4, durationMs: 5 })).toBeNull();
    const fewer = { generatedTokens: 2048, running: null, waiting: null, comparison: [{ metric: 'generated-tokens', diff: 64 }] };
    expect(cancelledNote({ requests: 1, durationMs: 1000, cancelled: one, serverTruth: fewer })).toMatch(
      /; the server generated 2048 tokens \(2048\.0 tok\/s over the level\), 64 fewer than our requests read$/,
    );
  });
});
