// What a person reads of a rate-limited level: the table's Retries column and status, the notes line
// with the provider's headers, the pace and the retries, and the engine card that reads no capacity from it.
import { describe, expect, it } from 'vitest';
import { engineCard, summarizeLevel, type RequestRecord } from '../core/index.js';
import { rec } from '../test-support/records.js';
import { levelNotes } from './level-notes.js';
import { renderTable } from './render-table.js';

const gpu = { available: false as const, source: 'not available' as const, reason: 'test' };
const level = (concurrency: number, records: RequestRecord[], pacing: { kind: 'budget'; rpm: number; tpm: null } | null = null) =>
  summarizeLevel({ concurrency, records, targetOutputTokens: 2, forceLength: false, loopDelayMs: null, clientCpuPct: null, clientBudgetMs: 1e6, gpu, pacing });

const ok = (sendMs: number) => ({
  ...rec({ sendMs, chunksMs: [sendMs + 10, sendMs + 20], endMs: sendMs + 21 }),
  rateLimit: { limitRequests: 60, remainingRequests: 5, resetRequestsMs: 1500 },
});
const retried: RequestRecord = {
  ...rec({ sendMs: 0, chunksMs: [2010, 2020], endMs: 2021 }),
  headersNs: 2000e6,
  attempts: [
    { status: 429, sendNs: 0, endNs: 1e6, waitMs: 1000 },
    { status: 429, sendNs: 1001e6, endNs: 1002e6, waitMs: 1000 },
  ],
  rateLimit: { limitRequests: 60, remainingRequests: 0, resetRequestsMs: 1000 },
};

describe('a rate-limited level as the terminal shows it', () => {
  it('shows the retries in the table and says the provider limited the level, never a capacity', () => {
    const plain = level(1, [ok(0)]);
    const limited = level(2, [ok(0), retried]);
    const table = renderTable([plain, limited], false);
    expect(table.split('\n')[0]).toMatch(/Failed +Retries +GPU mem/);
    expect(table).toMatch(/2 \(1 request, 2.0 s waited\) +n\/a {2}limited by the provider.s rate limit \(60 requests\/min\)/);
    expect(table).toContain("limited by the provider's rate limit (60 requests/min)");
    const notes = levelNotes([plain, limited]).join('\n');
    expect(notes).toContain(
      "concurrency 2: requests limit 60/min, remaining least 0 last 0, reset 1.0 s · 2 answered 429 · 2 retries of 1 request (2× 429), 2.0 s waited · limited by the provider's rate limit (60 requests/min): no capacity is read from this level",
    );
    // Headers alone: recorded, not a limit on the level.
    expect(notes).toContain('concurrency 1: requests limit 60/min, remaining least 5 last 5, reset 1.5 s');
    const card = engineCard([plain, limited]);
    expect(card.peakConcurrency).toBe(1);
    expect(card.excluded).toEqual([{ concurrency: 2, reason: "limited by the provider's rate limit (60 requests/min)" }]);
  });

  it('a level paced to a budget says so', () => {
    const notes = levelNotes([level(1, [{ ...rec({ chunksMs: [5, 6], endMs: 7 }) }], { kind: 'budget', rpm: 30, tpm: null })]).join('\n');
    expect(notes).toContain("paced to 30 requests/min (--rate-limit) · limited by the provider's rate limit (30 requests/min)");
  });

  it('a table without retries keeps its columns', () => {
    expect(renderTable([level(1, [rec({ chunksMs: [5, 6], endMs: 7 })])], false).split('\n')[0]).not.toContain('Retries');
  });
});
