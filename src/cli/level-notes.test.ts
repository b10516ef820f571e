/** The lines under the results table: the burst apart from the steady state, and who sent a split level. */
import { describe, expect, it } from 'vitest';
import type { LevelResult } from '../core/index.js';
import { levelNotes } from './level-notes.js';

const base = {
  concurrency: 64,
  failed: 0,
  failureExamples: [],
  ttftSplitMs: { burst: { p50: 21.34, p99: 29.9 }, steady: { p50: 13.1, p99: 14.25 } },
} as unknown as LevelResult;

describe('level notes', () => {
  it("gives a timed level's window: the ramp kept out, the last send and end, what was in flight at its end", () => {
    const window = {
      durationS: 10,
      rampUpS: 5,
      rampRequests: 37,
      inFlightAtEnd: 4,
      lastSendMs: 9_991.2,
      lastEndMs: 10_204.5,
      fullConcurrencyMs: 5_000.4,
      endedBy: 'duration' as const,
    };
    const notes = levelNotes([{ ...base, concurrency: 4, requests: 312, ttftSplitMs: undefined, window } as unknown as LevelResult]);
    expect(notes).toEqual([
      '',
      "Levels bounded by time (s after each level's start):",
      '  concurrency 4: 312 measured in 10 s after a 5 s ramp (37 requests kept out; all 4 streams in flight at 5.00 s) · last send 9.99 s, last end 10.20 s · 4 in flight at the end',
    ]);
    const early = levelNotes([
      { ...base, requests: 20_000, ttftSplitMs: undefined, window: { ...window, rampUpS: 0, endedBy: 'request-limit' } } as unknown as LevelResult,
    ]);
    expect(early[2]).toBe(
      '  concurrency 64: 20000 measured in 10 s · last send 9.99 s, last end 10.20 s · 4 in flight at the end · ENDED EARLY: a stream sent its share of the requests a level may hold',
    );
  });

  it('says a closed loop’s burst TTFT apart from its steady state, not for one stream', () => {
    const notes = levelNotes([{ ...base, concurrency: 1 }, base]);
    expect(notes).toEqual([
      '',
      'TTFT of the initial burst and of the steady state after it:',
      '  concurrency 64: burst p50 21.3 ms, p99 29.9 ms (the first 64 sends, at once) · steady p50 13.1 ms, p99 14.3 ms',
    ]);
  });

  it('names each client of a split level with its own verdict, sanitised', () => {
    const shares = [
      {
        label: 'worker a',
        requests: 20,
        bound: false,
        reason: null,
        lost: null,
        clientCpuPct: 12.4,
        loopDelayMs: { p50: 1, p99: 2.26, max: 3 },
        sendLatenessMs: { p50: 1, p99: 4.44, max: 5 },
      },
      { label: 'worker \u001b[31mb', requests: 1, bound: false, reason: null, lost: 'worker b stopped answering mid-level' },
      { label: 'worker c', requests: 20, bound: true, reason: 'busy', lost: null },
    ];
    const notes = levelNotes([{ ...base, ttftSplitMs: undefined, shares } as unknown as LevelResult]);
    expect(notes.slice(0, 2)).toEqual(['', 'Clients (each judged on its own):']);
    expect(notes[2]).toBe(
      '  concurrency 64: worker a: 20 requests (busy 12 %, loop delay 2.3 ms, send lateness 4.4 ms) ok · ' +
        'worker b: 1 request (busy —, loop delay —, send lateness —) LOST (worker b stopped answering mid-level) · worker c: 20 requests (busy —, loop delay —, send lateness —) client-bound',
    );
  });

  it("gives each LoRA adapter's figures per level, first, and nothing for a run without adapters", () => {
    const adapter = (name: string, requests: number, failed: number, tokS: number, ttft: number | null) => ({
      name,
      requests,
      succeeded: requests - failed,
      failed,
      outputTokensTotal: tokS,
      throughputTokS: tokS,
      ttftMs: ttft === null ? null : { p50: ttft, p95: ttft + 1, p99: ttft + 2 },
      tpotMs: ttft === null ? null : { p50: ttft / 10, p95: ttft / 5 },
    });
    const adapters = [adapter('chat-lora', 10, 1, 50.04, 31), adapter('sql-lora', 30, 0, 149.96, 12)];
    const notes = levelNotes([{ ...base, ttftSplitMs: undefined, adapters } as unknown as LevelResult]);
    expect(notes).toEqual([
      '',
      "LoRA adapters (each request's model drawn by weight; their figures add up to the level's):",
      '  concurrency 64 · chat-lora: 10 requests, 1 failed, 50.0 tok/s, TTFT p50 31.0 ms p99 33.0 ms, TPOT p50 3.1 ms p95 6.2 ms',
      '  concurrency 64 · sql-lora: 30 requests, 0 failed, 150.0 tok/s, TTFT p50 12.0 ms p99 14.0 ms, TPOT p50 1.2 ms p95 2.4 ms',
    ]);
    const none = levelNotes([{ ...base, ttftSplitMs: undefined, adapters: [adapter('a', 1, 1, 0, null)] } as unknown as LevelResult]);
    expect(none[2]).toBe('  concurrency 64 · a: 1 request, 1 failed, 0.0 tok/s, TTFT p50 — p99 —, TPOT p50 — p95 —');
    expect(levelNotes([{ ...base, ttftSplitMs: undefined }])).toEqual([]);
  });
});
