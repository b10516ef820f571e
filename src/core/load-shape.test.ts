/** Load shapes by hand-computed vectors: times read, refusals named, streams opened along the ramp, a timed level's window from its records. */
import { describe, expect, it } from 'vitest';
import { rec } from '../test-support/records.js';
import type { RequestRecord } from './record.js';
import { levelWindow, loadShapeProblem, secondsOf, slotOpensAtNs, timedRequestIndex, timedRequestsPerSlot } from './load-shape.js';

describe('secondsOf', () => {
  it('reads seconds bare or with a unit', () => {
    expect(secondsOf('60s', 'levelDurationS')).toEqual({ seconds: 60 });
    expect(secondsOf('90', 'levelDurationS')).toEqual({ seconds: 90 });
    expect(secondsOf('2m', 'levelDurationS')).toEqual({ seconds: 120 });
    expect(secondsOf('1h', 'levelDurationS')).toEqual({ seconds: 3600 });
    expect(secondsOf(' 0.5s ', 'rampUpS')).toEqual({ seconds: 0.5 });
  });

  it('refuses what is no time, 0, a negative time and a time past its limit, saying which', () => {
    expect(secondsOf('soon', 'levelDurationS')).toEqual({ problem: "'soon' is not a time: give seconds (60 or 60s), minutes (2m) or hours (1h), above 0" });
    expect(secondsOf('-5', 'rampUpS')).toEqual({
      problem: "'-5' is not a time (a negative time): give seconds (60 or 60s), minutes (2m) or hours (1h), above 0",
    });
    expect(secondsOf('0s', 'levelDurationS')).toEqual({ problem: '0s is not above 0 seconds, e.g. 5 or 60s' });
    expect(secondsOf('2h', 'levelDurationS')).toEqual({
      problem: '2h (7200 s) is above the limit of 3600 seconds one level bounded by time sends for (--duration)',
    });
    expect(secondsOf('3601', 'rampUpS')).toEqual({
      problem: "3601 is above the limit of 3600 seconds a level's closed loop takes to open all its streams (--ramp-up)",
    });
  });
});

describe('secondsOf, attacked', () => {
  it('refuses a text longer than any time before matching it (a start body may hold a megabyte of it)', () => {
    // Before: a digit, 50,000 spaces and a letter backtracked over every split of the spaces, quadratically.
    expect(secondsOf(`1${' '.repeat(50_000)}x`, 'levelDurationS')).toEqual({
      problem: 'a time of 50002 characters is above the limit of 32 characters of a time given as text (--duration, --ramp-up: 60s, 2m, 1h)',
    });
    expect(secondsOf(`${'9'.repeat(400)}h`, 'levelDurationS')).toEqual({
      problem: 'a time of 401 characters is above the limit of 32 characters of a time given as text (--duration, --ramp-up: 60s, 2m, 1h)',
    });
    expect(secondsOf('5 s', 'rampUpS')).toEqual({ seconds: 5 });
    expect(secondsOf('5s s', 'rampUpS')).toEqual({ problem: "'5s s' is not a time: give seconds (60 or 60s), minutes (2m) or hours (1h), above 0" });
  });

  it("reads a body's number as it is, in exponent form too, and refuses what is not above 0 or past the limit", () => {
    // Before: the number went through its text, and 1e-7 or 1e+21 was "not a time".
    expect(secondsOf(1e-7, 'levelDurationS')).toEqual({ seconds: 1e-7 });
    expect(secondsOf(1e21, 'levelDurationS')).toEqual({ problem: '1e+21 is above the limit of 3600 seconds one level bounded by time sends for (--duration)' });
    expect(secondsOf(-5, 'rampUpS')).toEqual({
      problem: "'-5' is not a time (a negative time): give seconds (60 or 60s), minutes (2m) or hours (1h), above 0",
    });
    expect(secondsOf(0, 'rampUpS')).toEqual({ problem: '0 is not above 0 seconds, e.g. 5 or 60s' });
    expect(secondsOf(90.5, 'levelDurationS')).toEqual({ seconds: 90.5 });
  });
});

describe('loadShapeProblem', () => {
  it('takes a ramp inside a duration, and no shape at all', () => {
    expect(loadShapeProblem(null, null)).toBeNull();
    expect(loadShapeProblem(10, null)).toBeNull();
    expect(loadShapeProblem(10, 5)).toBeNull();
  });

  it('refuses a ramp without a duration, and one that leaves no measured window', () => {
    expect(loadShapeProblem(null, 5)).toEqual({
      field: 'rampUpS',
      message: 'a ramp opens the streams of a level bounded by time: give a duration too, the ramp inside it',
    });
    expect(loadShapeProblem(5, 5)?.message).toBe(
      'the ramp (5 s) must end before the level does (duration 5 s): the measured window is what is left of the duration after it',
    );
    expect(loadShapeProblem(5, 8)?.field).toBe('rampUpS');
  });
});

describe('the ramp and the streams of a timed level', () => {
  it('opens C streams evenly: the first at once, the last exactly as the ramp ends', () => {
    expect([0, 1, 2, 3, 4].map((g) => slotOpensAtNs(g, 5, 4) / 1e9)).toEqual([0, 1, 2, 3, 4]);
    // Whatever the division would round to, the last stream opens at the ramp's end itself.
    expect(slotOpensAtNs(3, 4, 0.3)).toBe(0.3 * 1e9);
    expect(slotOpensAtNs(0, 1, 5)).toBe(0);
  });

  it("shares the limits table's requests per level among the streams, each stream's indices interleaved with the others'", () => {
    expect(timedRequestsPerSlot(4)).toBe(5000);
    expect(timedRequestsPerSlot(3)).toBe(6666);
    expect(timedRequestsPerSlot(4096)).toBe(4);
    const indices = [0, 1, 2].flatMap((g) => [0, 1, 2, 3].map((k) => timedRequestIndex(g, k, 3)));
    expect(new Set(indices).size).toBe(12);
    expect([0, 1, 2, 3].map((k) => timedRequestIndex(1, k, 3))).toEqual([1, 4, 7, 10]);
  });
});

/** A record of stream `slot`'s `k`th request of a level of `streams` streams after one warm-up: targets, sends and ends in ms. */
const sent = (o: { slot: number; k: number; streams: number; targetMs: number; endMs: number; ramp?: true }): RequestRecord => ({
  ...rec({ targetSendMs: o.targetMs, sendMs: o.targetMs + 0.5, endMs: o.endMs, warmup: o.ramp === true, chunksMs: [o.endMs - 1] }),
  seq: 1 + timedRequestIndex(o.slot, o.k, o.streams),
  ...(o.ramp ? { ramp: true as const } : {}),
});

describe('levelWindow', () => {
  // Two streams, a 10 s level ramped over 2 s, starting at 1,000 ms on the run's clock (the warm-up before it).
  const warmup = { ...rec({ sendMs: 0, endMs: 900, warmup: true }), seq: 0 };
  const records = [
    warmup,
    sent({ slot: 0, k: 0, streams: 2, targetMs: 1000, endMs: 2500, ramp: true }),
    sent({ slot: 1, k: 0, streams: 2, targetMs: 3000, endMs: 7000 }),
    sent({ slot: 0, k: 1, streams: 2, targetMs: 2500, endMs: 6000 }),
    sent({ slot: 0, k: 2, streams: 2, targetMs: 6000, endMs: 10_500 }),
    sent({ slot: 1, k: 1, streams: 2, targetMs: 7000, endMs: 12_000 }),
  ];

  it('counts the ramp, what was in flight at the end, and when every stream was first in flight, in ms after the start', () => {
    expect(levelWindow(records, { durationS: 10, rampUpS: 2 }, 2, 1)).toEqual({
      durationS: 10,
      rampUpS: 2,
      rampRequests: 1,
      // The end is 11,000 ms on the run's clock: the request ending at 12,000 was in flight; the one ending at 10,500 was not.
      inFlightAtEnd: 1,
      lastSendMs: 6000.5,
      lastEndMs: 11_000,
      // Stream 1's first send (3,000.5 ms) joins stream 0's request of 2,500.5–6,000.
      fullConcurrencyMs: 2000.5,
      endedBy: 'duration',
    });
  });

  it('says when a stream sent its share of the requests a level may hold, and when the streams were never all in flight', () => {
    const streams = 4096;
    const last = sent({ slot: 7, k: timedRequestsPerSlot(streams) - 1, streams, targetMs: 1000, endMs: 1500 });
    const w = levelWindow([last], { durationS: 60, rampUpS: 0 }, streams, 1);
    expect(w.endedBy).toBe('request-limit');
    expect(w.fullConcurrencyMs).toBeNull();
    expect(levelWindow([warmup], { durationS: 60, rampUpS: 0 }, 1, 1)).toMatchObject({ rampRequests: 0, lastSendMs: null, lastEndMs: null });
  });
});
