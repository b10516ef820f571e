// The page's (and the report's) status of a level whose workload gave requests up on purpose: still ok
// (neither a failure nor invalid), its reason saying how many beside the server's tokens and queue.
import { describe, expect, it } from 'vitest';
import { summarizeLevel, type RequestRecord } from '../../core/index.js';
import { rec } from '../../test-support/records.js';
import { levelBadge, statusText, tableRows } from './table-model.js';

const gpu = { available: false as const, source: 'not available' as const, reason: 'test' };
const level = (records: RequestRecord[]) =>
  summarizeLevel({ concurrency: 2, records, targetOutputTokens: 2, forceLength: false, loopDelayMs: null, clientCpuPct: null, clientBudgetMs: 1e6, gpu });
const cancelled = rec({ sendMs: 0, chunksMs: [10], endMs: 15, outcome: { kind: 'cancelled', after: 'tokens', phase: 'stream' } });

describe('a level with cancelled requests on the page', () => {
  it('is ok, its status counting them beside what the server said', () => {
    const l = {
      ...level([rec({ chunksMs: [10, 20], endMs: 21 }), cancelled]),
      serverTruth: null,
    };
    const said =
      "1 of 2 requests cancelled by the client (1 after the tokens; 0 before their first token), 1 token read before it; the server's own view was not scraped";
    expect(levelBadge(l)).toEqual({ text: 'ok', tone: 'ok', reason: `ok; ${said}` });
    expect(statusText(l)).toBe(`ok; ${said}`);
    const [row] = tableRows([l]);
    expect(row?.invalid).toBe(false);
    expect(row?.cells.find((c) => c.metric === 'failed')).toMatchObject({ text: '0', alarm: false });
  });

  it('says nothing of cancelling where none was', () => {
    const l = level([rec({ chunksMs: [10, 20], endMs: 21 })]);
    expect(levelBadge(l).reason).toBeNull();
    expect(statusText(l)).toBe('ok');
  });
});
