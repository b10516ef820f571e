import { describe, expect, it } from 'vitest';
import { type InFlightRecord, describeInFlight, heldPct, heldShort, inFlightAtSends, inFlightHeld, inFlightSchema } from './index.js';

/** [target send, send, end] in ns; end null: never ended. */
const rec = (targetSendNs: number, sendNs: number, endNs: number | null): InFlightRecord => ({ targetSendNs, sendNs, endNs });

describe('what a level held', () => {
  it('counts C at every replacement of a closed loop that refills each slot as it frees (the ramp is not a sample)', () => {
    // C = 2: two sends at the start, each replaced the instant it ends.
    const records = [rec(0, 0, 10), rec(0, 1, 12), rec(10, 10, 20), rec(12, 12, 22), rec(20, 20, 30)];
    expect(inFlightAtSends(records).map((s) => s.open)).toEqual([2, 2, 2]);
    expect(inFlightHeld(records, 2)).toEqual({ median: 2, min: 2, asked: 2, held: 1, samples: 3 });
    expect(heldShort(inFlightHeld(records, 2))).toBe(false);
  });

  it('counts fewer when replacements lag their freed slots, and marks a median below 95 % of C', () => {
    // C = 4: the four end together at 10; our client puts the replacements out at 11, 12, 13 and 14.
    const ramp = [0, 1, 2, 3].map((k) => rec(0, k * 0.1, 10));
    const late = [11, 12, 13, 14].map((t) => rec(10, t, t + 10));
    const f = inFlightHeld([...ramp, ...late], 4);
    expect(f).toEqual({ median: 2.5, min: 1, asked: 4, held: 0.625, samples: 4 });
    expect(heldShort(f)).toBe(true);
    // 95 % is the mark: 19 of 20 is held, a hair under it is not.
    expect(heldShort({ median: 19, min: 19, asked: 20, held: 0.95, samples: 1 })).toBe(false);
    expect(heldShort({ median: 18.5, min: 18, asked: 20, held: 0.925, samples: 1 })).toBe(true);
  });

  it('an end and a send at the same instant do not overlap; sends at the same instant do', () => {
    const records = [rec(0, 0, 10), rec(0, 0, 10), rec(10, 10, 15), rec(10, 10, 16)];
    // At 10 both first ones end and both replacements leave: each replacement sees the other and itself.
    expect(inFlightAtSends(records).map((s) => s.open)).toEqual([2, 2]);
  });

  it('a request with no end (a lost one) counts as itself at its send and holds no slot after it', () => {
    const records = [rec(0, 0, 10), rec(0, 0, 10), rec(10, 10, 15), rec(10, 10, null)];
    expect(inFlightAtSends(records).map((s) => s.open)).toEqual([1, 2]);
  });

  it('judges nothing without a concurrency asked (an open loop), and has no figures when only the first sends were made', () => {
    expect(inFlightHeld([rec(0, 0, 10), rec(5, 5, 30), rec(10, 11, 12)], null)).toEqual({ median: 2, min: 2, asked: null, held: null, samples: 2 });
    expect(heldShort(inFlightHeld([rec(0, 0, 10), rec(5, 5, 30), rec(10, 11, 12)], null))).toBe(false);
    expect(inFlightHeld([rec(0, 0, 10), rec(0, 1, 10)], 2)).toBeNull();
    expect(inFlightHeld([], 2)).toBeNull();
  });

  it('says the share held rounded down, never up to the mark, and never a whole share down by binary noise', () => {
    const f = { median: 52, min: 40, asked: 64, held: 52 / 64, samples: 192 };
    expect(heldPct(f)).toBe(81);
    expect(heldPct(f, 1)).toBe(81.2);
    expect(heldPct({ ...f, held: 0.29 })).toBe(29);
    expect(heldPct({ ...f, held: 0.9499 }, 1)).toBe(94.9);
    expect(heldPct({ ...f, asked: null, held: null })).toBeNull();
    expect(describeInFlight(f)).toBe('52 of 64 at the median (81 %), 40 at least, over 192 sends');
    expect(describeInFlight({ median: 3.5, min: 1, asked: null, held: null, samples: 20 })).toBe('3.5 at the median, 1 at least, over 20 sends');
  });

  it('refuses figures past the limits table and fields it does not know', () => {
    const parsed = inFlightSchema.safeParse({ median: 1e9, min: 1, asked: 4, held: 1, samples: 3 });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['median']);
    expect(inFlightSchema.safeParse({ median: 4, min: 4, asked: 4, held: 1, samples: 3, extra: 1 }).success).toBe(false);
  });
});
