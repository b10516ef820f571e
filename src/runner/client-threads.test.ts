/**
 * A level split over client threads, against the simulator in its own process:
 * the counts equal one thread's, the level is computed from the merged records,
 * every request is sent exactly once, and each thread is judged on its own.
 * (That its percentiles are within 10 % of one thread's is a wall-clock check:
 * client-threads.timing.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import type { RequestRecord } from '../core/index.js';
import { type SweepSpecInput, levelFromRecords, runSweep } from './index.js';
import { patient } from '../test-support/patience.js';

// A schedule the client cannot blur, whose 10 % is several ms (holds on a loaded machine): 80 ms to the first token, then 20 ms per token.
const SCHEDULE = ['--prefill-base-ms', '80', '--prefill-ms-per-token', '0', '--decode-step-ms', '20', '--decode-ms-per-extra-seq', '0'];
let sim: SimProcess;
beforeAll(async () => {
  sim = await spawnSimProcess(SCHEDULE);
});
afterAll(async () => {
  await sim.stop();
});

const base = (): SweepSpecInput => ({
  url: sim.url,
  levels: [4, 8],
  outputTokens: 16,
  promptTokens: 64,
  requestsPerLevel: 24,
  serverMetrics: false,
  gpuSource: 'none',
});

describe('client threads', () => {
  it(
    'a level over 2 threads equals one thread’s counts, computed from the merged records',
    async () => {
      const one = await runSweep({ ...base(), clientThreads: 1 });
      const recordsOf: RequestRecord[][] = [];
      const two = await runSweep(
        { ...base(), clientThreads: 2 },
        {
          onEvent: (e) => {
            if (e.kind === 'level-end') recordsOf.push([...e.records]);
          },
        },
      );
      for (const [i, l] of two.levels.entries()) {
        const single = one.levels[i];
        expect(single?.shares).toBeUndefined();
        expect(l.requests).toBe(single?.requests);
        expect(l.succeeded).toBe(24);
        expect(l.outputTokens.mean).toBe(single?.outputTokens.mean);
        expect(l.ttftMs?.p50).toBeGreaterThan(0);
        // Each thread sent half the streams' requests and was judged on its own.
        expect(l.shares?.map((s) => s.label)).toEqual(['thread 1', 'thread 2']);
        expect(l.shares?.map((s) => s.requests)).toEqual([12, 12]);
        expect(l.shares?.every((s) => s.clockOffsetNs === 0 && s.clientCpuPct !== null && s.loopDelayMs !== null)).toBe(true);
        // The peak in flight is the level's streams: both threads ran at once, from one start.
        expect(l.load?.peakInFlight).toBe(l.concurrency);
        // Each record names its thread, so the judgement of every thread is recomputed from the records, never trusted…
        const records = recordsOf[i] as RequestRecord[];
        expect(new Set(records.map((r) => r.client))).toEqual(new Set(['thread 1', 'thread 2']));
        expect(levelFromRecords(two, l, records)).toEqual(l);
        // …and a record moved to the other thread is seen.
        const moved = records.map((r, k) => (k === records.length - 1 ? { ...r, client: r.client === 'thread 1' ? 'thread 2' : 'thread 1' } : r));
        expect(levelFromRecords(two, l, moved).shares?.map((s) => s.requests)).not.toEqual([12, 12]);
      }
    },
    patient(60_000),
  );

  it(
    'every request of the level is sent once: one warm-up, then sequence numbers 1..N with no gap or repeat',
    async () => {
      const records: number[] = [];
      let warmups = 0;
      await runSweep(
        { ...base(), levels: [6], clientThreads: 3 },
        {
          onEvent: (e) => {
            if (e.kind !== 'level-end') return;
            for (const r of e.records)
              if (r.warmup) warmups++;
              else records.push(r.seq);
          },
        },
      );
      expect(warmups).toBe(1);
      expect(records.sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    },
    patient(60_000),
  );

  it(
    'an open loop is thinned round-robin: every scheduled send leaves once, on the one schedule',
    async () => {
      const r = await runSweep({ ...base(), levels: [40], arrival: { kind: 'rate', process: 'constant' }, requestsPerLevel: 40, clientThreads: 2 });
      const l = r.levels[0];
      expect(l?.requests).toBe(40);
      expect(l?.shares?.map((s) => s.requests)).toEqual([20, 20]);
      // The offered rate is the whole schedule's, not one thread's half.
      expect(l?.load?.offeredRps).toBeCloseTo(40, 6);
    },
    patient(60_000),
  );

  it(
    'stopping mid-level stops every thread and the sweep returns',
    async () => {
      const stop = new AbortController();
      let seen = 0;
      const out = await runSweep(
        { ...base(), levels: [8], requestsPerLevel: 400, clientThreads: 2 },
        {
          signal: stop.signal,
          onEvent: (e) => {
            if (e.kind === 'request' && !e.warmup && ++seen === 10) stop.abort();
          },
        },
      );
      expect(out.run.status).toBe('stopped');
      expect(out.levels).toHaveLength(0);
      expect(seen).toBeLessThan(400);
    },
    patient(60_000),
  );
});
