/**
 * Integration: runSweep over real HTTP on 127.0.0.1 against the simulator
 * (in-process here; the accuracy test runs it in its own process).
 */
import { describe, expect, it } from 'vitest';
import { useSimulators } from '../test-support/simulators.js';
import { closedPort } from '../test-support/scripted-server.js';
import type { RequestRecord } from '../core/index.js';
import { startClientThreads } from './client-threads.js';
import { SweepError } from './errors.js';
import type { SweepDeps } from './sweep.js';
import type { SweepEvent } from './sweep-events.js';
import { runSweep } from './run-kinds.js';
import { patient } from '../test-support/patience.js';

const FAST = { prefillBaseMs: 5, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0 };
const sim = useSimulators({ ...FAST, port: 0 });
function collect() {
  const records = new Map<number, RequestRecord[]>();
  const events: SweepEvent[] = [];
  return {
    records,
    events,
    onEvent: (e: SweepEvent) => {
      events.push(e);
      if (e.kind === 'level-end') records.set(e.level.concurrency, [...e.records]);
    },
  };
}
const base = { outputTokens: 32, promptTokens: 16, requestsPerLevel: 6 as const, warmup: 1 };

describe('runSweep against the simulator', () => {
  it('runs levels one at a time, ascending, whatever order they were given in', async () => {
    const s = await sim();
    const c = collect();
    const result = await runSweep({ ...base, url: s.url, levels: [4, 1, 2] }, { onEvent: c.onEvent });
    expect(result.run.levelsOrder).toEqual([1, 2, 4]);
    expect(result.levels.map((l) => l.concurrency)).toEqual([1, 2, 4]);
    // No overlap: every request of a level (warm-ups included) is sent after the previous level's last byte.
    const order = [1, 2, 4];
    for (let i = 1; i < order.length; i++) {
      const prev = c.records.get(order[i - 1] as number) ?? [];
      const next = c.records.get(order[i] as number) ?? [];
      const prevEnd = Math.max(...prev.map((r) => r.endNs ?? 0));
      const nextStart = Math.min(...next.map((r) => r.sendNs));
      expect(nextStart).toBeGreaterThan(prevEnd);
    }
    // Within a level the concurrency was held: never more than C in flight.
    const four = (c.records.get(4) ?? []).filter((r) => !r.warmup);
    const events = four
      .flatMap(
        (r) =>
          [
            [r.sendNs, 1],
            [r.endNs ?? 0, -1],
          ] as const,
      )
      .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let inFlight = 0;
    let peak = 0;
    for (const [, d] of events) peak = Math.max(peak, (inFlight += d));
    expect(peak).toBe(4);
  });

  it('excludes warm-up requests from every number', async () => {
    const s = await sim();
    const c = collect();
    const result = await runSweep({ ...base, url: s.url, levels: [2], warmup: 2 }, { onEvent: c.onEvent });
    const level = result.levels[0];
    expect(level?.requests).toBe(6);
    expect(level?.warmupRequests).toBe(2);
    const recs = c.records.get(2) ?? [];
    expect(recs.filter((r) => r.warmup)).toHaveLength(2);
    // Warm-ups ran before any measured request.
    const lastWarm = Math.max(...recs.filter((r) => r.warmup).map((r) => r.endNs ?? 0));
    expect(Math.min(...recs.filter((r) => !r.warmup).map((r) => r.sendNs))).toBeGreaterThan(lastWarm);
    expect(level?.outputTokensTotal).toBe(6 * 32);
  });

  it('refuses a server that does not answer, before anything runs', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const events: SweepEvent[] = [];
    await expect(runSweep({ ...base, url, levels: [1] }, { onEvent: (e) => events.push(e) })).rejects.toSatisfy(
      (e: unknown) => e instanceof SweepError && e.code === 'preflight-refused' && /cannot be benchmarked/.test(e.message),
    );
    expect(events).toEqual([]);
  });

  it('refuses a model the server does not serve, naming what it serves', async () => {
    const s = await sim({ model: 'served-model' });
    await expect(runSweep({ ...base, url: s.url, model: 'other', levels: [1] })).rejects.toThrow(/served-model/);
  });

  const faults = [
    ['http500', { http500: 0.5 }, 'http-error'],
    ['http429', { http429: 0.5 }, 'http-error'],
    ['http503', { http503: 0.5 }, 'http-error'],
    ['dropStream', { dropStream: 0.5 }, null],
    ['malformedSse', { malformedSse: 0.5 }, 'stream-error'],
    ['midStreamError', { midStreamError: 0.5 }, 'stream-error'],
  ] as const;
  for (const [name, f, kind] of faults) {
    it(`counts injected ${name} faults as failures and marks the level invalid`, async () => {
      const s = await sim({ faults: f, seed: 3 });
      const result = await runSweep({ ...base, url: s.url, levels: [2], requestsPerLevel: 12, warmup: 0 });
      const level = result.levels[0];
      expect(result.run.status).toBe('complete');
      expect(level?.failed).toBeGreaterThan(0);
      expect(level?.failed).toBeLessThan(12);
      expect(level?.invalid).toBe(true);
      expect(level?.invalidReason).toMatch(/requests failed/);
      if (kind) expect(Object.keys(level?.failures ?? {})).toContain(kind);
    });
  }

  it('a stall longer than the idle timeout is a timeout failure', async () => {
    const s = await sim({ faults: { stall: 0.5, stallMs: 1500 }, seed: 5 });
    const result = await runSweep({ ...base, url: s.url, levels: [2], requestsPerLevel: 8, warmup: 0, timeouts: { idleMs: 300 } });
    expect(result.levels[0]?.failures.timeout).toBeGreaterThan(0);
    expect(result.levels[0]?.invalid).toBe(true);
  });

  it('a server that dies mid-sweep ends the sweep with its reason and keeps the finished levels', async () => {
    // Level 1: 1 warm-up + 4; level 2: 1 + 4; the server dies during level 4.
    const s = await sim({ faults: { dieAfterRequests: 12 } });
    const c = collect();
    const result = await runSweep({ ...base, url: s.url, levels: [1, 2, 4], requestsPerLevel: 4 }, { onEvent: c.onEvent });
    expect(result.run.status).toBe('server-failed');
    expect(result.levels.map((l) => l.concurrency)).toEqual([1, 2]);
    expect(result.levels.every((l) => !l.invalid && l.throughputTokS > 0)).toBe(true);
    expect(result.run.stopReason).toMatch(/during the concurrency 4 level/);
    expect(result.run.stopReason).toMatch(/Levels 1, 2 are complete/);
    expect(c.events.some((e) => e.kind === 'stopped')).toBe(true);
  });

  it('one finished level before the server died: "Level 1 is complete"', async () => {
    const s = await sim({ faults: { dieAfterRequests: 6 } });
    const result = await runSweep({ ...base, url: s.url, levels: [1, 2], requestsPerLevel: 4 });
    expect(result.run.status).toBe('server-failed');
    expect(result.run.stopReason).toMatch(/Level 1 is complete\.$/);
  });

  it('waits for afterLevel before the next level sends anything', async () => {
    const s = await sim();
    const c = collect();
    const stored: { level: number; at: number }[] = [];
    const afterLevel = async (l: { concurrency: number }) => {
      await new Promise((r) => setTimeout(r, 30));
      stored.push({ level: l.concurrency, at: performance.now() * 1e6 }); // the records' clock
    };
    await runSweep({ ...base, url: s.url, levels: [1, 2] }, { onEvent: c.onEvent, afterLevel });
    expect(stored.map((x) => x.level)).toEqual([1, 2]);
    const firstSendOfTwo = Math.min(...(c.records.get(2) ?? []).map((r) => r.sendNs));
    expect(firstSendOfTwo).toBeGreaterThan((stored[0] as { at: number }).at);
  });

  it('waits for beforeLevel before each level sends anything, its warm-up included', async () => {
    const s = await sim();
    const c = collect();
    const released: number[] = [];
    const beforeLevel = async () => {
      await new Promise((r) => setTimeout(r, 30));
      released.push(performance.now() * 1e6); // the records' clock
    };
    await runSweep({ ...base, url: s.url, levels: [1, 2] }, { onEvent: c.onEvent, beforeLevel });
    expect(released).toHaveLength(2);
    for (const [i, level] of [1, 2].entries()) {
      const firstSend = Math.min(...(c.records.get(level) ?? []).map((r) => r.sendNs));
      expect(firstSend).toBeGreaterThan(released[i] as number);
    }
  });

  it('warns when a fixed request count cannot fill a level', async () => {
    const s = await sim();
    const result = await runSweep({ ...base, url: s.url, levels: [2, 8, 16] });
    const w = result.warnings.find((x) => x.code === 'underfilled-level');
    expect(w?.message).toMatch(/^concurrency 8, 16: 6 requests per level/);
    const auto = await runSweep({ ...base, requestsPerLevel: 'auto', url: s.url, levels: [2] });
    expect(auto.warnings.some((x) => x.code === 'underfilled-level')).toBe(false);
  });

  it('records a warning for an output length below 128 tokens', async () => {
    const s = await sim();
    const result = await runSweep({ ...base, url: s.url, levels: [1], outputTokens: 64, requestsPerLevel: 2 });
    expect(result.warnings.map((w) => w.code)).toContain('short-output');
    expect(result.levels[0]?.outputTokens.mean).toBe(64);
  });

  it('counts reasoning tokens as tokens, and turns thinking off by default', async () => {
    const s = await sim({ reasoningTokens: 10 });
    const on = await runSweep({ ...base, url: s.url, levels: [1], requestsPerLevel: 2, thinking: true });
    const l = on.levels[0];
    expect(l?.reasoningTokens).toEqual({ total: 20, source: 'usage' });
    expect(l?.outputTokens.mean).toBe(32);
    expect(l?.ttfaMs?.p50).toBeGreaterThan(l?.ttftMs?.p50 ?? Infinity);
    const off = await runSweep({ ...base, url: s.url, levels: [1], requestsPerLevel: 2 });
    expect(off.levels[0]?.reasoningTokens.total).toBe(0);
    expect(off.warnings.map((w) => w.code)).not.toContain('thinking-on');
  });

  it('stops cleanly on abort and keeps the finished levels', async () => {
    const s = await sim({ decodeStepMs: 5 });
    const ctrl = new AbortController();
    const result = await runSweep(
      { ...base, url: s.url, levels: [1, 2] },
      {
        signal: ctrl.signal,
        onEvent: (e) => {
          if (e.kind === 'level-start' && e.concurrency === 2) setTimeout(() => ctrl.abort(), 30);
        },
      },
    );
    expect(result.run.status).toBe('stopped');
    expect(result.levels.map((l) => l.concurrency)).toEqual([1]);
  });

  it(
    'a client thread lost after a level finished ends the sweep as stopped, keeping that level; lost before any, an error',
    async () => {
      const s = await sim();
      // Real threads, but the `at`-th level's thread is lost.
      const losing = (at: number): SweepDeps => {
        let calls = 0;
        return {
          clients: ({ spec, model, dialect, runId, connections }) => {
            const real = startClientThreads(2, { spec, model, dialect, runId }, connections);
            return {
              size: 2,
              runLevel: async (l) => {
                if (++calls === at) throw new SweepError('client-failed', 'client thread 2 exited (code 1) during the level');
                return real.runLevel(l);
              },
              close: () => real.close(),
            };
          },
        };
      };
      const result = await runSweep({ ...base, url: s.url, levels: [2, 4, 8] }, losing(2));
      expect(result.run.status).toBe('stopped');
      expect(result.levels.map((l) => l.concurrency)).toEqual([2]);
      expect(result.run.stopReason).toMatch(/^client thread 2 exited \(code 1\) during the level\. /);
      await expect(runSweep({ ...base, url: s.url, levels: [2, 4] }, losing(1))).rejects.toMatchObject({ code: 'client-failed' });
    },
    patient(60_000),
  );
});
