/**
 * The stream shape must not change the numbers: a sweep against the simulator
 * (its own process, a fixed schedule: 150 ms prefill, 20 ms per token, no
 * batching slowdown) in every --dialect, and through Ollama's native API, gives
 * the same TTFT, TPOT and ITL p50 as the default dialect — within max(3%, 3 ms)
 * for TTFT and max(3%, 0.5 ms) for TPOT and ITL — and exactly the same output
 * tokens. The schedule is slow so loopback and wake-up jitter on a loaded
 * 2-core machine (~1 ms) stays inside the tolerance.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { LevelResult } from '../core/index.js';
import { SIM_DIALECT_KINDS, spawnSimProcess } from '../sim/index.js';
import { runSweep } from './run-kinds.js';
import { wallClock } from '../test-support/wall-clock.js';
import { patient } from '../test-support/patience.js';

const SCHEDULE = [
  '--prefill-base-ms',
  '150',
  '--prefill-ms-per-token',
  '0',
  '--decode-step-ms',
  '20',
  '--decode-ms-per-extra-seq',
  '0',
  '--max-batch',
  '64',
  '--no-prefix-caching',
  '--natural-min',
  '1000',
  '--natural-max',
  '1000',
];
const SWEEP = { levels: [1, 4], outputTokens: 24, promptTokens: 16, requestsPerLevel: 8, warmup: 1 };

async function sweep(dialect: string, engine: 'auto' | 'ollama-native' = 'auto'): Promise<LevelResult[]> {
  const sim = await spawnSimProcess([...SCHEDULE, '--dialect', dialect]);
  try {
    return (await runSweep({ ...SWEEP, url: sim.url, engine })).levels;
  } finally {
    await sim.stop();
  }
}

function close(what: string, got: number | undefined, want: number | undefined, share: number, floorMs: number): void {
  expect(got, what).toBeDefined();
  wallClock(Math.abs((got as number) - (want as number)), `${what}: ${got} ms vs ${want} ms in the default dialect`).toBeLessThanOrEqual(
    Math.max(share * (want as number), floorMs),
  );
}

let reference: LevelResult[];
beforeAll(async () => {
  reference = await sweep('goodput');
}, patient(60_000));

const cases: Array<[name: string, dialect: string, engine: 'auto' | 'ollama-native']> = [
  ...SIM_DIALECT_KINDS.filter((d) => d !== 'goodput').map((d): [string, string, 'auto'] => [d, d, 'auto']),
  ['ollama native API', 'ollama', 'ollama-native'],
];

describe('the same metrics in every dialect as in the default one', () => {
  for (const [name, dialect, engine] of cases) {
    it(name, { retry: 2 }, async () => {
      const levels = await sweep(dialect, engine);
      expect(levels.map((l) => l.concurrency)).toEqual([1, 4]);
      levels.forEach((l, i) => {
        const ref = reference[i] as LevelResult;
        const at = `${name} c=${l.concurrency}`;
        expect(l.failed, at).toBe(0);
        expect(l.outputTokensTotal, at).toBe(ref.outputTokensTotal);
        expect(l.outputTokens.mean, at).toBe(24);
        close(`${at} TTFT p50`, l.ttftMs?.p50, ref.ttftMs?.p50, 0.03, 3);
        close(`${at} TPOT p50`, l.tpotMs?.p50, ref.tpotMs?.p50, 0.03, 0.5);
        close(`${at} ITL p50`, l.itlMs?.p50, ref.itlMs?.p50, 0.03, 0.5);
      });
    });
  }
});
