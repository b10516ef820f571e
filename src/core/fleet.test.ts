/** A level's breakdown per target from its records: the targets add up to the level, and a slow one is named. */
import { describe, expect, it } from 'vitest';
import { rec } from '../test-support/records.js';
import { type TargetLevel, slowTarget, targetBreakdown, targetLevelSchema } from './fleet.js';
import { summarizeLevel } from './level-summary.js';
import type { RequestRecord } from './record.js';
import { rawRecordSchema } from './record-schema.js';

const A = 'http://10.0.0.1:8000';
const B = 'http://10.0.0.2:8000';
const at = (target: number, r: RequestRecord): RequestRecord => ({ ...r, target });

describe('targetBreakdown', () => {
  const records = [
    at(0, rec({ sendMs: 0, chunksMs: [10, 20, 30], endMs: 100 })),
    at(1, rec({ sendMs: 0, chunksMs: [50, 60], endMs: 400 })),
    at(0, rec({ sendMs: 100, chunksMs: [110, 120, 130, 140], endMs: 200 })),
    at(1, rec({ sendMs: 0, chunksMs: [], endMs: 5, outcome: { kind: 'http-error', status: 500, message: 'boom' } })),
    at(0, rec({ sendMs: 0, chunksMs: [1, 2], warmup: true })),
  ];

  it("gives each target its requests, failures, tokens and latency; the throughputs add up to the level's", () => {
    const level = summarizeLevel({
      records,
      concurrency: 2,
      targetOutputTokens: 4,
      forceLength: false,
      loopDelayMs: null,
      clientCpuPct: null,
      clientBudgetMs: 10,
      gpu: { available: false, source: 'not available', reason: 'test' },
    } as Parameters<typeof summarizeLevel>[0]);
    const targets = targetBreakdown([A, B], records, level.durationMs);
    expect(targets.map((t) => [t.url, t.requests, t.succeeded, t.failed, t.outputTokensTotal])).toEqual([
      [A, 2, 2, 0, 7],
      [B, 2, 1, 1, 2],
    ]);
    // 400 ms window: 7 and 2 tokens.
    expect(level.durationMs).toBe(400);
    expect(targets.map((t) => t.throughputTokS)).toEqual([17.5, 5]);
    expect(targets[0]!.throughputTokS + targets[1]!.throughputTokS).toBe(level.throughputTokS);
    expect(targets[0]?.ttftMs?.p50).toBe(10);
    expect(targets[1]?.ttftMs).toEqual({ p50: 50, p99: 50 });
    expect(targets[1]?.e2eMs).toEqual({ p50: 400, p99: 400 });
    for (const t of targets) expect(targetLevelSchema.parse(t)).toEqual(t);
  });

  it('counts a record without a target for none, and a target that got nothing as zero', () => {
    const targets = targetBreakdown([A, B], [rec({ chunksMs: [1] }), at(0, rec({ chunksMs: [1] }))], 10);
    expect(targets.map((t) => t.requests)).toEqual([1, 0]);
    expect(targets[1]).toMatchObject({ throughputTokS: 0, ttftMs: null, e2eMs: null });
  });

  it('bounds the index a record may name by the limits table', () => {
    const r = rawRecordSchema.safeParse({ ...rec(), target: 64 });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['target']);
    expect(rawRecordSchema.safeParse({ ...rec(), target: 63 }).success).toBe(true);
  });
});

describe('slowTarget', () => {
  const t = (url: string, p50: number | null): TargetLevel => ({
    url,
    requests: 1,
    succeeded: 1,
    failed: 0,
    outputTokensTotal: 1,
    throughputTokS: 1,
    ttftMs: p50 === null ? null : { p50, p99: p50 },
    e2eMs: null,
  });
  it('names the target whose TTFT is 1.5× the others and 10 ms more, and nothing otherwise', () => {
    expect(slowTarget([t(A, 10), t(B, 45), t('http://c', 12)])).toBe(`${B} is slow: TTFT p50 45.0 ms against 11.0 ms on the others (4.1×)`);
    expect(slowTarget([t(A, 10), t(B, 14), t('http://c', 12)])).toBeNull();
    expect(slowTarget([t(A, 10), t(B, null)])).toBeNull();
    // Three times as slow, but 4 ms apart: noise on a fast server.
    expect(slowTarget([t(A, 2), t(B, 6), t('http://c', 2)])).toBeNull();
  });
});
