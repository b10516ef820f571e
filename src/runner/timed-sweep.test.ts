/**
 * Levels bounded by time and ramped, through runSweep against the simulator
 * (short durations, structural assertions): the spec's refusals, the ramp's
 * requests marked and kept out of the numbers, the measured ones sent inside
 * the window, the window a reader recomputes from the records, on one thread
 * and split over two.
 */
import { describe, expect, it } from 'vitest';
import { type RequestRecord, type SweepResult, levelWindow } from '../core/index.js';
import { useSimulators } from '../test-support/simulators.js';
import { levelFromRecords } from './level-result.js';
import { parseSpec } from './level-loop.js';
import { runSweep } from './run-kinds.js';
import type { SweepEvent } from './sweep-events.js';
import { sweepSpecSchema } from './sweep-spec.js';

const sim = useSimulators({ prefillBaseMs: 5, prefillMsPerToken: 0, decodeStepMs: 2, decodeMsPerExtraSeq: 0, port: 0 });
const URL0 = 'http://127.0.0.1:8000';

describe('a sweep spec with a load shape', () => {
  const refusal = (input: object) => {
    try {
      parseSpec(sweepSpecSchema, { url: URL0, levels: [2], ...input });
    } catch (err) {
      return (err as Error).message;
    }
    return 'accepted';
  };

  it('takes a duration alone or with a ramp inside it', () => {
    expect(refusal({ durationS: 60 })).toBe('accepted');
    expect(refusal({ durationS: 60, rampUpS: 5 })).toBe('accepted');
  });

  it('refuses each bad shape naming its field', () => {
    expect(refusal({ durationS: 0 })).toBe('durationS: durationS must be above 0 seconds');
    expect(refusal({ durationS: -1 })).toBe('durationS: durationS must be above 0 seconds');
    expect(refusal({ durationS: 3601 })).toBe('durationS: durationS 3601 is above the limit of 3600 seconds one level bounded by time sends for (--duration)');
    expect(refusal({ durationS: 60, rampUpS: 3601 })).toBe(
      "rampUpS: rampUpS 3601 is above the limit of 3600 seconds a level's closed loop takes to open all its streams (--ramp-up)",
    );
    expect(refusal({ rampUpS: 5 })).toBe('rampUpS: a ramp opens the streams of a level bounded by time: give a duration too, the ramp inside it');
    expect(refusal({ durationS: 5, rampUpS: 5 })).toBe(
      'rampUpS: the ramp (5 s) must end before the level does (duration 5 s): the measured window is what is left of the duration after it',
    );
    expect(refusal({ durationS: 5, requestsPerLevel: 8 })).toBe(
      'durationS: a level is bounded by a request count or by a duration, not both: leave requestsPerLevel auto',
    );
    expect(refusal({ durationS: 5, arrival: { kind: 'rate', process: 'poisson' } })).toBe(
      'durationS: a level bounded by time is a closed loop whose streams send until it ends: it needs arrival concurrency, not rate',
    );
  });
});

/** A sweep of one timed, ramped level, its records and its events. */
async function timedSweep(c: number, clientThreads: number): Promise<{ result: SweepResult; records: RequestRecord[]; events: SweepEvent[] }> {
  const s = await sim();
  const events: SweepEvent[] = [];
  let records: RequestRecord[] = [];
  const result = await runSweep(
    { url: s.url, levels: [c], outputTokens: 16, promptTokens: 16, warmup: 1, durationS: 0.6, rampUpS: 0.3, clientThreads },
    {
      onEvent: (e) => {
        events.push(e);
        if (e.kind === 'level-end') records = [...e.records];
      },
    },
  );
  return { result, records, events };
}

/** What every timed level must show, whoever sent it. */
function checkTimedLevel(result: SweepResult, records: readonly RequestRecord[], c: number): void {
  const level = result.levels[0];
  if (level === undefined) throw new Error('no level');
  expect(result.run.loadShape).toEqual({ durationS: 0.6, rampUpS: 0.3 });
  const warmups = records.filter((r) => r.warmup && r.ramp !== true);
  const ramp = records.filter((r) => r.ramp === true);
  const measured = records.filter((r) => !r.warmup);
  expect(warmups).toHaveLength(1);
  expect(ramp.length).toBeGreaterThan(0);
  for (const r of ramp) expect(r.warmup).toBe(true);
  expect(new Set(records.map((r) => r.seq)).size).toBe(records.length);
  // The window: from the first stream's opening; the ramp's requests meant to leave before 0.3 s, the measured ones after it and before 0.6 s.
  const startNs = Math.min(...[...ramp, ...measured].map((r) => r.targetSendNs));
  for (const r of ramp) expect(r.targetSendNs).toBeLessThan(startNs + 0.3e9);
  for (const r of measured) {
    expect(r.targetSendNs).toBeGreaterThanOrEqual(startNs + 0.3e9);
    expect(r.targetSendNs).toBeLessThan(startNs + 0.6e9);
  }
  // Only the measured requests are counted; the ramp's are with the warm-ups.
  expect(level.requests).toBe(measured.length);
  expect(level.warmupRequests).toBe(1 + ramp.length);
  const window = levelWindow(records, { durationS: 0.6, rampUpS: 0.3 }, c, 1);
  expect(level.window).toEqual(window);
  expect(window).toMatchObject({ rampRequests: ramp.length, endedBy: 'duration' });
  expect(window.inFlightAtEnd).toBeLessThanOrEqual(c);
  // A reader recomputes the same window from the records alone.
  expect(levelFromRecords(result, level, records).window).toEqual(window);
}

describe('a timed, ramped level against the simulator', () => {
  it('sends until its duration ends, its ramp marked and kept out of the numbers, on one thread', async () => {
    const { result, records, events } = await timedSweep(3, 1);
    checkTimedLevel(result, records, 3);
    expect(events.find((e) => e.kind === 'level-start')).toMatchObject({ durationS: 0.6 });
  });

  it('keeps each stream its own indices when the level is split over two client threads', async () => {
    const { result, records } = await timedSweep(4, 2);
    checkTimedLevel(result, records, 4);
    const byThread = (label: string) => new Set(records.filter((r) => r.client === label && !(r.warmup && r.ramp !== true)).map((r) => (r.seq - 1) % 4));
    expect(byThread('thread 1')).toEqual(new Set([0, 1]));
    expect(byThread('thread 2')).toEqual(new Set([2, 3]));
  });
});
