/**
 * A real, small sweep for store and API tests: the simulator in-process, two
 * levels, every event captured, so stored data is what the runner produces.
 */
import type { LevelResult, RequestRecord, SweepResult } from '../core/index.js';
import { type SweepEvent, runSweep } from '../runner/index.js';
import { startSimulator } from '../sim/index.js';

export interface SweepFixture {
  result: SweepResult;
  levels: Array<{ level: LevelResult; records: readonly RequestRecord[] }>;
  events: SweepEvent[];
}

/** Runs levels 1 and 2 (3 requests each, 16 output tokens) against a fast simulator and stops it. */
export async function sweepFixture(opts: { faults?: Record<string, number>; hourlyCostUsd?: number } = {}): Promise<SweepFixture> {
  const sim = await startSimulator({ port: 0, prefillBaseMs: 2, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0, faults: opts.faults, seed: 7 });
  const events: SweepEvent[] = [];
  try {
    const result = await runSweep(
      { url: sim.url, levels: [1, 2], requestsPerLevel: 3, outputTokens: 16, promptTokens: 8, warmup: 1, hourlyCostUsd: opts.hourlyCostUsd ?? 2, command: 'goodput sweep (test)',
        // Tests share the loop with the simulator: judging our own lag here would only add noise.
        clientBudgetMs: 1000 },
      { onEvent: (e) => events.push(e) },
    );
    const levels = events.flatMap((e) => (e.kind === 'level-end' ? [{ level: e.level, records: e.records }] : []));
    return { result, levels, events };
  } finally {
    await sim.close();
  }
}
