/**
 * Wall-clock half of workers.test.ts: three `goodput worker` processes measure
 * what one process measures (TTFT and TPOT p50 within 10 % at levels 3, 6 and
 * 12), and with one worker's clock 2 s ahead the three first sends are within
 * 20 ms of one another on the merged clock, the TTFTs as without it.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LevelResult, RequestRecord } from '../core/index.js';
import { useWorkerFleet } from '../test-support/worker-fleet.js';
import { wallClock } from '../test-support/wall-clock.js';
import { patient } from '../test-support/patience.js';

const fleet = useWorkerFleet(['w1', 'w2', 'w3']);
const within10 = (a: number | undefined, b: number | undefined, what: string) =>
  wallClock(Math.abs((a as number) - (b as number)) / (b as number), `${what}: ${a} vs ${b}`).toBeLessThan(0.1);

describe('workers timing', () => {
  it(
    'three workers measure what one process does: TTFT/TPOT p50 within 10 %',
    async () => {
      const one = await fleet.sweep(['--levels', '3,6,12', '--requests-per-level', '24']);
      const three = await fleet.sweep([
        '--levels',
        '3,6,12',
        '--requests-per-level',
        '24',
        '--workers',
        '3',
        '--database-url',
        fleet.db(),
        '--workers-wait',
        '30',
      ]);
      expect(three.levels.map((l) => [l.concurrency, l.requests, l.failed])).toEqual([
        [3, 24, 0],
        [6, 24, 0],
        [12, 24, 0],
      ]);
      for (const [i, l] of three.levels.entries()) {
        const single = one.levels[i] as LevelResult;
        within10(l.ttftMs?.p50, single.ttftMs?.p50, `TTFT p50 at ${l.concurrency}`);
        within10(l.tpotMs?.p50, single.tpotMs?.p50, `TPOT p50 at ${l.concurrency}`);
      }
    },
    patient(240_000),
  );

  it(
    'a worker 2 s ahead, corrected: first sends within 20 ms, TTFT as without it',
    async () => {
      await fleet.workers.get('w2')?.stop();
      await fleet.startWorker('w2', { GOODPUT_TEST_CLOCK_SKEW_MS: '2000' });
      const one = await fleet.sweep(['--levels', '6', '--requests-per-level', '24']);
      const raw = join(mkdtempSync(join(tmpdir(), 'goodput-workers-')), 'records.jsonl');
      const three = await fleet.sweep([
        '--levels',
        '6',
        '--requests-per-level',
        '24',
        '--workers',
        '3',
        '--database-url',
        fleet.db(),
        '--workers-wait',
        '30',
        '--raw',
        raw,
      ]);
      const l = three.levels[0] as LevelResult;
      const records = readFileSync(raw, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as RequestRecord)
        .filter((r) => !r.warmup);
      expect([l.requests, l.failed]).toEqual([24, 0]);
      expect(new Set(records.map((r) => r.client))).toEqual(new Set(['worker w1', 'worker w2', 'worker w3']));
      const firstSend = ['worker w1', 'worker w2', 'worker w3'].map((c) => Math.min(...records.filter((r) => r.client === c).map((r) => r.sendNs)));
      wallClock((Math.max(...firstSend) - Math.min(...firstSend)) / 1e6, 'first sends spread (ms)').toBeLessThan(20);
      within10(l.ttftMs?.p50, one.levels[0]?.ttftMs?.p50, 'TTFT p50');
      wallClock(l.durationMs, 'level duration with a skewed worker (ms)').toBeLessThan((one.levels[0]?.durationMs as number) * 1.5);
    },
    patient(240_000),
  );
});
