// The server's own account of a whole-answer level beside ours: our latency
// may exceed the server's by any amount but never fall below it past the
// tolerance; the server counts no more requests than we got; the round trip
// is bounded by the fastest answer.
import { describe, expect, it } from 'vitest';
import type { PoolingRecord } from './pooling-record.js';
import type { ServerFigures } from './server-truth.js';
import { boundedWholeRttMs, compareWholeWithServer, fastestAnswerMs } from './whole-compare.js';

const rec = (seq: number, sentMs: number, endMs: number, ok = true): PoolingRecord => ({
  seq,
  concurrency: 1,
  warmup: seq === 0,
  sentNs: sentMs * 1e6,
  endNs: endMs * 1e6,
  items: 1,
  inputTokens: 8,
  dimension: 8,
  outcome: ok ? { kind: 'ok' } : { kind: 'http-error', status: 500, message: 'boom' },
});
const figures = (e2eMeanMs: number | null, requests: number | null): ServerFigures => ({
  family: 'vllm',
  requests,
  ttftMeanMs: null,
  itlMeanMs: null,
  itlPer: null,
  e2eMeanMs,
  queueMeanMs: null,
  generatedTokens: null,
  promptTokens: null,
  prefixCacheHitPct: null,
  lateP99Ms: null,
  running: null,
  waiting: null,
  kvCacheUsagePct: null,
  missing: [],
  notes: [],
});
// Answers of 100, 110 and 120 ms (mean 110), and one failure the server never counted.
const records = [rec(0, 0, 100), rec(1, 100, 210), rec(2, 210, 330), rec(3, 330, 331, false)];

describe('compareWholeWithServer', () => {
  it('agrees when the server saw each request inside our own time, by however much less', () => {
    const { comparison, queued } = compareWholeWithServer(records, figures(60, 3));
    expect(comparison.map((r) => [r.metric, r.client, r.server, r.agrees])).toEqual([
      ['e2e-mean-ms', 110, 60, true],
      ['requests', 3, 3, true],
    ]);
    expect(queued).toBe(false);
  });
  it('disagrees when ours is shorter than the server says past max(5 %, 2 ms): a compressed timeline', () => {
    const e2e = compareWholeWithServer(records, figures(440, 3)).comparison[0];
    expect(e2e).toMatchObject({ metric: 'e2e-mean-ms', client: 110, server: 440, allowedMin: -22, agrees: false });
    expect(compareWholeWithServer(records, figures(115, 3)).comparison[0]?.agrees).toBe(true);
  });
  it('disagrees when the server counted more successes than we got', () => {
    expect(compareWholeWithServer(records, figures(null, 4)).comparison).toMatchObject([{ metric: 'requests', client: 3, server: 4, agrees: false }]);
  });
  it('bounds the round trip by the fastest successful answer', () => {
    expect(fastestAnswerMs(records)).toBe(100);
    expect(boundedWholeRttMs(0.3, records)).toBe(0.3);
    expect(boundedWholeRttMs(250, records)).toBe(100);
    expect(boundedWholeRttMs(null, records)).toBeNull();
  });
});
