/**
 * The timed closed loop by its rules, with a sender that answers in a few ms:
 * when each stream opens, which requests are the ramp's, that nothing is meant
 * to leave after the duration, the indices each stream sends, and a stream
 * stopped by its share of a level's requests. Short durations, structural
 * assertions only (wall-clock verdicts are in timed-sweep.timing.test.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { type RequestRecord, slotOpensAtNs, timedRequestsPerSlot } from '../core/index.js';
import { monotonicNs } from '../client/index.js';
import { type TimedLoop, runTimedLoop } from './timed-loop.js';

interface Call {
  index: number;
  targetSendNs: number;
  ramp: boolean;
  sentNs: number;
}

/** A sender whose requests take `ms`, noting each call and how many are still open. */
function sender(ms: number) {
  const calls: Call[] = [];
  const open = { now: 0 };
  const send: TimedLoop['send'] = async (index, targetSendNs, ramp) => {
    calls.push({ index, targetSendNs, ramp, sentNs: monotonicNs() });
    open.now++;
    if (ms > 0) await sleep(ms);
    else await new Promise((resolve) => setImmediate(resolve));
    open.now--;
    return { endNs: monotonicNs() } as RequestRecord;
  };
  return { calls, open, send };
}

const loop = (o: Partial<TimedLoop> & Pick<TimedLoop, 'send' | 'shape'>): TimedLoop => ({
  streams: 4,
  firstSlot: 0,
  slots: 4,
  startNs: monotonicNs(),
  clock: monotonicNs,
  signal: new AbortController().signal,
  ...o,
});

describe('runTimedLoop', () => {
  it('opens each stream at its instant of the ramp, marks what is meant to leave before the ramp ends, and sends nothing meant after the end', async () => {
    const s = sender(10);
    const o = loop({ send: s.send, shape: { durationS: 0.3, rampUpS: 0.1 } });
    await runTimedLoop(o);
    // Every request ended before the loop returned: what was in flight at the end finished.
    expect(s.open.now).toBe(0);
    const rampEnd = o.startNs + 0.1e9;
    for (let g = 0; g < 4; g++) {
      const mine = s.calls.filter((c) => c.index % 4 === g);
      expect(mine.map((c) => c.index)).toEqual(mine.map((_, k) => g + 4 * k));
      const first = mine[0] as Call;
      expect(first.targetSendNs).toBe(o.startNs + slotOpensAtNs(g, 4, 0.1));
      expect(first.sentNs).toBeGreaterThanOrEqual(first.targetSendNs);
    }
    for (const c of s.calls) {
      expect(c.ramp).toBe(c.targetSendNs < rampEnd);
      expect(c.targetSendNs).toBeLessThan(o.startNs + 0.3e9);
    }
    // The last stream opens as the ramp ends: its first request is measured, the first stream's is the ramp's.
    expect(s.calls.find((c) => c.index === 3)?.ramp).toBe(false);
    expect(s.calls.find((c) => c.index === 0)?.ramp).toBe(true);
  });

  it("sends a share's own streams of the level: their indices and their instants of the ramp", async () => {
    const s = sender(5);
    const o = loop({ send: s.send, shape: { durationS: 0.15, rampUpS: 0.06 }, firstSlot: 2, slots: 2 });
    await runTimedLoop(o);
    expect(new Set(s.calls.map((c) => c.index % 4))).toEqual(new Set([2, 3]));
    expect(s.calls.find((c) => c.index === 2)?.targetSendNs).toBe(o.startNs + slotOpensAtNs(2, 4, 0.06));
  });

  it('ends a stream that sent its share of the requests a level may hold, long before its duration', async () => {
    const s = sender(0);
    const streams = 4096;
    await runTimedLoop(loop({ send: s.send, shape: { durationS: 600, rampUpS: 0 }, streams, slots: 1 }));
    expect(s.calls.map((c) => c.index)).toEqual([0, 1, 2, 3].map((k) => k * streams));
    expect(s.calls.length).toBe(timedRequestsPerSlot(streams));
  });

  it('stops sending when the run is stopped, letting what is in flight finish', async () => {
    const s = sender(20);
    const stop = new AbortController();
    const done = runTimedLoop(loop({ send: s.send, shape: { durationS: 600, rampUpS: 0 }, signal: stop.signal }));
    await sleep(50);
    stop.abort();
    const sentWhenStopped = s.calls.length;
    await done;
    expect(s.open.now).toBe(0);
    expect(s.calls.length).toBe(sentWhenStopped);
  });
  it('sends each stream its first request however short the duration: it is meant to leave at its opening, inside it', async () => {
    // Before: the loop read its clock, already past a 1 µs end, and the level measured nothing yet read "ok".
    const s = sender(0);
    await runTimedLoop(loop({ send: s.send, shape: { durationS: 1e-6, rampUpS: 0 }, startNs: monotonicNs() - 1e6 }));
    expect(s.calls.map((c) => c.index).sort((a, b) => a - b)).toEqual([0, 1, 2, 3]);
    expect(s.calls.every((c) => !c.ramp)).toBe(true);
  });
});
