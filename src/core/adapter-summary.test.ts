/**
 * A level's figures per LoRA adapter, from hand-built records: counts,
 * failures, tokens over the level's whole window (so they add up to the
 * level's), TTFT and TPOT per adapter; warm-ups left out; nothing for records
 * that name no adapter (every result written before --lora).
 */
import { describe, expect, it } from 'vitest';
import { rec } from '../test-support/records.js';
import { adapterLevelSchema, summarizeAdapters } from './adapter-summary.js';
import type { RequestRecord } from './record.js';

const on = (adapter: string, r: RequestRecord): RequestRecord => ({ ...r, adapter });
// sql: TTFT 10 ms, TPOT 2 ms; chat: TTFT 30 ms, TPOT 6 ms.
const records: RequestRecord[] = [
  on('sql', rec({ sendMs: 0, chunksMs: [10, 12, 14], outputTokens: 3 })),
  on('sql', rec({ sendMs: 100, chunksMs: [110, 112, 114], outputTokens: 3 })),
  on('chat', rec({ sendMs: 0, chunksMs: [30, 36, 42], outputTokens: 3 })),
  on('chat', rec({ sendMs: 50, endMs: 60, outcome: { kind: 'http-error', status: 500, message: 'boom' } })),
  on('chat', rec({ sendMs: 0, chunksMs: [500, 900], outputTokens: 2, warmup: true })),
];

describe('summarizeAdapters', () => {
  it("gives each adapter its requests, failures, share of the level's throughput, TTFT and TPOT, by name", () => {
    const got = summarizeAdapters(records, 500);
    expect(got).toEqual([
      {
        name: 'chat',
        requests: 2,
        succeeded: 1,
        failed: 1,
        outputTokensTotal: 3,
        throughputTokS: 6,
        ttftMs: { p50: 30, p95: 30, p99: 30 },
        tpotMs: { p50: 6, p95: 6 },
      },
      {
        name: 'sql',
        requests: 2,
        succeeded: 2,
        failed: 0,
        outputTokensTotal: 6,
        throughputTokS: 12,
        ttftMs: { p50: 10, p95: 10, p99: 10 },
        tpotMs: { p50: 2, p95: 2 },
      },
    ]);
    for (const a of got ?? []) expect(adapterLevelSchema.parse(a)).toEqual(a);
  });

  it('is null for records that name no adapter, and gives no throughput without a window', () => {
    expect(summarizeAdapters([rec({ chunksMs: [1, 2] })], 100)).toBeNull();
    expect(summarizeAdapters([on('a', rec({ warmup: true, chunksMs: [1] }))], 100)).toBeNull();
    expect(summarizeAdapters([on('a', rec({ chunksMs: [1] }))], 0)?.[0]?.throughputTokS).toBe(0);
  });
});
