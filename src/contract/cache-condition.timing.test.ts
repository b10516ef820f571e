/**
 * Cold vs warm prefix cache through a contract, against the simulator in its
 * own process. Prompts are 544 tokens; warm cells share a 512-token prefix
 * (32 whole 16-token blocks), cold ones start with a unique salt. The
 * simulator's model: TTFT = 10 ms + 0.5 ms × uncached prompt tokens, so warm
 * TTFT should be lower by 0.5 × 512 = 256 ms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { validateContract } from './load-contract.js';
import { runContract } from './run-contract.js';
import { wallClock } from '../test-support/wall-clock.js';

const MS_PER_TOKEN = 0.5;
const SHARED = 512;
let sim: SimProcess;
beforeAll(async () => {
  sim = await spawnSimProcess([
    '--prefill-base-ms',
    '10',
    '--prefill-ms-per-token',
    String(MS_PER_TOKEN),
    '--decode-step-ms',
    '2',
    '--decode-ms-per-extra-seq',
    '0',
  ]);
});
afterAll(async () => {
  await sim.stop();
});

describe('cache condition', () => {
  it('warm TTFT is lower than cold by what the prefix-cache model predicts (within 10%)', async () => {
    const contract = validateContract(
      {
        version: 1,
        server: { url: sim.url },
        model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
        workload: {
          prompts: { kind: 'synthetic', tokens: 544 },
          outputTokens: 16,
          cache: [{ kind: 'cold' }, { kind: 'warm', sharedPrefixTokens: SHARED }],
          requestsPerLevel: 8,
        },
        load: { levels: [1] },
        slo: { ttftMs: { p: 95, max: 1000 } },
        hardware: { label: 'SimGPU' },
      },
      'test contract',
      process.cwd(),
    );
    const result = await runContract(contract, { command: 'test' });
    const [cold, warm] = result.matrix?.cells.map((c) => c.levels[0]) ?? [];
    expect(cold?.cachedPromptTokens?.mean).toBe(0);
    expect(warm?.cachedPromptTokens?.mean).toBe(SHARED);
    expect(cold?.promptTokens.mean).toBe(544);
    const predicted = MS_PER_TOKEN * SHARED;
    const measured = (cold?.ttftMs?.p50 ?? 0) - (warm?.ttftMs?.p50 ?? 0);
    wallClock(Math.abs(measured - predicted) / predicted, `cold − warm TTFT p50 = ${measured.toFixed(1)} ms, predicted ${predicted} ms`).toBeLessThan(0.1);
  });
});
