/**
 * A real, small sweep for store and API tests: the simulator in its own process
 * (so our CPU is the client's alone, as it is judged), two levels, every event
 * captured, so stored data is what the runner produces.
 */
import type { LevelResult, RequestRecord, SweepResult } from '../core/index.js';
import { type SweepEvent, runSweep } from '../runner/index.js';
import { spawnSimProcess } from '../sim/index.js';

export interface SweepFixture {
  result: SweepResult;
  levels: Array<{ level: LevelResult; records: readonly RequestRecord[] }>;
  events: SweepEvent[];
}

/** Runs levels 1 and 2 (3 requests each, 16 output tokens) against a fast simulator and stops it. */
export async function sweepFixture(opts: { hourlyCostUsd?: number } = {}): Promise<SweepFixture> {
  const sim = await spawnSimProcess([
    '--prefill-base-ms',
    '2',
    '--prefill-ms-per-token',
    '0',
    '--decode-step-ms',
    '5',
    '--decode-ms-per-extra-seq',
    '0',
    '--seed',
    '7',
  ]);
  const events: SweepEvent[] = [];
  try {
    const result = await runSweep(
      {
        url: sim.url,
        levels: [1, 2],
        requestsPerLevel: 3,
        outputTokens: 16,
        promptTokens: 8,
        warmup: 1,
        hourlyCostUsd: opts.hourlyCostUsd ?? 2,
        command: 'goodput sweep (test)',
        // Tests run on loaded machines: judging our own lag here would only add noise.
        clientBudgetMs: 1000,
      },
      { onEvent: (e) => events.push(e) },
    );
    const levels = events.flatMap((e) => (e.kind === 'level-end' ? [{ level: e.level, records: e.records }] : []));
    return { result, levels, events };
  } finally {
    await sim.stop();
  }
}
