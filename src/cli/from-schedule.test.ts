/**
 * Latency from the intended send: on an open-loop level whose sending loop we
 * block on purpose for a known time, every request's TTFT and e2e from its
 * schedule exceed those from its actual send by exactly its schedule lag, the
 * requests due during the block are at least that late, and SLOs can be set on
 * either measure. Judged on the record instants, never on wall-clock accuracy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RequestRecord, e2eFromScheduleMs, e2eMs, levelGoodput, percentiles, sendLagMs, sloSchema, ttftFromScheduleMs, ttftMs } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { renderTable } from './render-table.js';
import { runSweep } from '../runner/index.js';
import { num, scheduleRows } from '../web/index.js';

let sim: SimProcess;
beforeAll(async () => {
  sim = await spawnSimProcess(['--prefill-base-ms', '2', '--prefill-ms-per-token', '0', '--decode-step-ms', '2', '--decode-ms-per-extra-seq', '0']);
});
afterAll(async () => {
  await sim?.stop();
});

const BLOCK_MS = 60;
const busyWait = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* the block on purpose */
  }
};

describe('latency from the intended send', () => {
  it("an open-loop level with our loop blocked: from-schedule − from-send is each request's schedule lag", async () => {
    const records: RequestRecord[] = [];
    let blocked = false;
    const result = await runSweep(
      {
        url: sim.url,
        endpoint: 'completions',
        arrival: { kind: 'rate', process: 'constant' },
        levels: [100],
        requestsPerLevel: 20,
        warmup: 0,
        promptTokens: 8,
        outputTokens: 4,
        clientThreads: 1,
        serverMetrics: false,
        gpuSource: 'none',
        clientBudgetMs: 1000,
        slo: { ttftFromScheduleMs: { p: 50, max: 100_000 }, ttftMs: { p: 50, max: 100_000 } },
      },
      {
        onEvent: (e) => {
          if (e.kind === 'level-end') records.push(...e.records);
          // After the first answer, hold our event loop: the sends due meanwhile (every 10 ms) go out late.
          if (e.kind === 'request' && !blocked && e.done === 1) {
            blocked = true;
            busyWait(BLOCK_MS);
          }
        },
      },
    );
    expect(blocked).toBe(true);
    const ok = records.filter((r) => r.outcome.kind === 'ok');
    expect(ok).toHaveLength(20);
    for (const r of ok) {
      expect(Math.abs((ttftFromScheduleMs(r) as number) - (ttftMs(r) as number) - sendLagMs(r))).toBeLessThan(1);
      expect(Math.abs((e2eFromScheduleMs(r) as number) - (e2eMs(r) as number) - sendLagMs(r))).toBeLessThan(1);
    }
    // A send due while the loop was held cannot leave before the block ends: the largest lag is at least most of it.
    expect(Math.max(...ok.map(sendLagMs))).toBeGreaterThanOrEqual(BLOCK_MS / 2);
    const [level] = result.levels;
    expect(level?.fromSchedule?.ttftMs).toEqual(
      percentiles(
        ok.map((r) => ttftFromScheduleMs(r) as number),
        [50, 95, 99],
      ),
    );
    expect(level?.fromSchedule?.e2eMs).toEqual(
      percentiles(
        ok.map((r) => e2eFromScheduleMs(r) as number),
        [50, 95],
      ),
    );
    expect(level?.fromSchedule?.ttftMs?.p99).toBeGreaterThan(level?.ttftMs?.p99 ?? Infinity);
    expect(level?.goodput?.checks.map((c) => c.metric)).toEqual(['ttftMs', 'ttftFromScheduleMs']);
    // The page's "From the schedule" table: the same figures, from the level.
    const [row] = scheduleRows(result.levels);
    expect(row?.[2]).toBe(num(level?.fromSchedule?.ttftMs?.p50));
    expect(row?.[6]).toBe(num(level?.load?.scheduleLagMs?.p99, 2));
    const table = renderTable(result.levels, false);
    expect(table).toMatch(/Rate \(req\/s\)\s+Peak in flight .*TTFT p50 from schedule \(ms\)\s+e2e p50 from schedule \(ms\)\s+Schedule lag p99 \(ms\)/);
  });

  it('an SLO on the time from schedule is judged on it, and missed where the one from send is met', () => {
    const r: RequestRecord = {
      seq: 0,
      concurrency: 1,
      warmup: false,
      targetSendNs: 0,
      sendNs: 50e6,
      headersNs: 51e6,
      firstTokenNs: 60e6,
      firstAnswerNs: 60e6,
      chunkNs: [60e6, 70e6],
      chunkTokens: [1, 1],
      chunkTokensExact: true,
      endNs: 70e6,
      outputTokens: 2,
      outputTokenSource: 'usage',
      reasoningTokens: null,
      reasoningChunks: 0,
      promptTokens: 8,
      cachedPromptTokens: null,
      finishReason: 'length',
      httpStatus: 200,
      outcome: { kind: 'ok' },
    };
    const slo = sloSchema.parse({ ttftMs: { p: 50, max: 20 }, ttftFromScheduleMs: { p: 50, max: 20 } });
    const g = levelGoodput([r], slo, 70);
    expect(g.missed).toMatchObject({ ttftMs: 0, ttftFromScheduleMs: 1 });
    expect(g.checks.map((c) => [c.metric, c.observed, c.holds])).toEqual([
      ['ttftMs', 10, true],
      ['ttftFromScheduleMs', 60, false],
    ]);
    expect(() => sloSchema.parse({})).toThrow(/ttftFromScheduleMs, e2eFromScheduleMs/);
  });
});
