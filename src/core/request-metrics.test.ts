import { describe, expect, it } from 'vitest';
import { rec } from '../test-support/records.js';
import { chunkGapsMs, e2eMs, itlPerTokenMs, perRequestTokS, sendLagMs, tpotMs, ttfaMs, ttftMs } from './request-metrics.js';

describe('per-request metrics', () => {
  it('TTFT, e2e and per-request rate from named instants', () => {
    // sent at 100 ms, chunks at 150, 160, 170, 180; end 181 ms
    const r = rec({ sendMs: 100, chunksMs: [150, 160, 170, 180], endMs: 181 });
    expect(ttftMs(r)).toBe(50);
    expect(e2eMs(r)).toBe(81);
    expect(perRequestTokS(r)).toBeCloseTo(4 / 0.081, 9);
  });
  it('TPOT excludes the first token: (180 − 150) / (4 − 1) = 10 ms', () => {
    expect(tpotMs(rec({ chunksMs: [150, 160, 170, 180] }))).toBe(10);
  });
  it('TPOT with multi-token chunks counts tokens, not chunks', () => {
    // 4 chunks of 4 tokens, 40 ms apart: true time per token is 10 ms.
    // (270 − 150) / (16 − 4 tokens after the first chunk) = 10 ms
    const exact = rec({ chunksMs: [150, 190, 230, 270], chunkTokens: [4, 4, 4, 4] });
    expect(tpotMs(exact)).toBe(10);
    // The same stream when only the final usage (16) is known: 4 per chunk estimated.
    const estimated = rec({ chunksMs: [150, 190, 230, 270], outputTokens: 16 });
    expect(tpotMs(estimated)).toBe(10);
  });
  it('TPOT needs two chunks and a token after the first', () => {
    expect(tpotMs(rec({ chunksMs: [150] }))).toBeNull();
    expect(tpotMs(rec({ chunksMs: [150, 160], chunkTokens: [2, 0] }))).toBeNull();
  });
  it('ITL splits a chunk gap evenly over its tokens; ICL keeps the raw gap', () => {
    const r = rec({ chunksMs: [100, 130, 140], chunkTokens: [1, 3, 1] });
    expect(itlPerTokenMs(r)).toEqual([10, 10, 10, 10]);
    expect(chunkGapsMs(r)).toEqual([30, 10]);
  });
  it('TTFA differs from TTFT when the model reasons first', () => {
    const r = rec({ sendMs: 0, chunksMs: [40, 50, 60, 70], firstAnswerMs: 60 });
    expect(ttftMs(r)).toBe(40);
    expect(ttfaMs(r)).toBe(60);
    expect(ttfaMs(rec({ chunksMs: [40], firstAnswerMs: null }))).toBeNull();
  });
  it('send lag is actual minus intended send time', () => {
    expect(sendLagMs(rec({ targetSendMs: 10, sendMs: 12.5 }))).toBe(2.5);
  });
  it('no first token: TTFT is null, not zero', () => {
    expect(ttftMs(rec({ chunksMs: [], endMs: 5 }))).toBeNull();
    expect(perRequestTokS(rec({ chunksMs: [], endMs: 5 }))).toBeNull();
  });
});
