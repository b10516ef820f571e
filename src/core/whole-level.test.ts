// The parts every whole-answer kind shares: one record schema around each kind's own fields, and one level base.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { wholeFailureReason, wholeLevelBase, wholeRecordSchema } from './whole-level.js';

const rec = (sentMs: number, endMs: number, outcome: Parameters<typeof wholeFailureReason>[0] = { kind: 'ok' }, warmup = false) => ({
  seq: 0,
  concurrency: 1,
  warmup,
  sentNs: sentMs * 1e6,
  endNs: endMs * 1e6,
  outcome,
});

describe('wholeRecordSchema', () => {
  const schema = wholeRecordSchema({ words: z.number().int() });
  it("takes the common fields with the kind's own, and refuses an unknown key or an end before the send", () => {
    expect(schema.safeParse({ ...rec(0, 5), words: 3 }).success).toBe(true);
    expect(schema.safeParse({ ...rec(0, 5), words: 3, extra: 1 }).success).toBe(false);
    expect(schema.safeParse(rec(0, 5)).success).toBe(false);
    const back = schema.safeParse({ ...rec(5, 0), words: 3 });
    expect(back.success ? null : back.error.issues[0]).toMatchObject({ path: ['endNs'], message: 'endNs must not be before sentNs' });
  });
});

describe('wholeLevelBase', () => {
  it('spans first measured send to last end, rates over it, latencies of successes, failures most common first', () => {
    const http = { kind: 'http-error', status: 503, message: 'busy' } as const;
    const b = wholeLevelBase(3, [
      rec(-100, -50, { kind: 'ok' }, true),
      rec(0, 100),
      rec(0, 300, http),
      rec(100, 400, http),
      rec(200, 500, { kind: 'aborted' }),
    ]);
    expect(b.head).toEqual({ concurrency: 3, requests: 4, failed: 3, durationS: 0.5, requestsPerS: 8 });
    expect(b.measured).toHaveLength(4);
    expect(b.durationS).toBe(0.5);
    expect(b.per(10)).toBe(20);
    expect(b.latenciesMs).toEqual([100]);
    expect(b.failures).toEqual([
      { reason: 'HTTP 503: busy', count: 2 },
      { reason: 'aborted', count: 1 },
    ]);
  });

  it('has no rates when nothing succeeded, and no span without measured requests', () => {
    expect(wholeLevelBase(3, [rec(0, 100, { kind: 'timeout', message: 't' })]).per(1)).toBeNull();
    expect(wholeLevelBase(3, []).durationS).toBeNull();
  });
});
