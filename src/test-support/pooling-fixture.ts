/**
 * A real, small embeddings or rerank sweep for store, API and page tests: the
 * simulator in this process, two levels, every level with its raw records as
 * the runner produced them, so stored data is what a sweep stores.
 */
import type { PoolingEndpoint, PoolingLevel, PoolingRecord, PoolingResult } from '../core/index.js';
import { runSweep } from '../runner/index.js';
import { startSimulator } from '../sim/index.js';

export interface PoolingFixture {
  result: PoolingResult;
  levels: Array<{ level: PoolingLevel; records: readonly PoolingRecord[] }>;
}

/** Levels 1 and 2, 4 requests each (4 inputs or documents of 16 tokens), with an hourly cost and a latency objective. */
export async function poolingFixture(endpoint: PoolingEndpoint = 'embeddings'): Promise<PoolingFixture> {
  const sim = await startSimulator({ pooling: { dimension: 32, msPerInputToken: 0.0005 } });
  const levels: PoolingFixture['levels'] = [];
  try {
    const result = await runSweep(
      {
        url: sim.url,
        endpoint,
        levels: [1, 2],
        itemsPerRequest: 4,
        itemTokens: 16,
        queryTokens: 8,
        requestsPerLevel: 4,
        warmup: 1,
        hourlyCostUsd: 2,
        latencySlo: { p: 95, maxMs: 5000 },
        command: 'goodput sweep (test)',
        // What is stored and shown is under test here, not our client's check on itself: a loaded machine must not take the peak away.
        clientThreads: 1,
        clientBudgetMs: 1000,
      },
      {
        afterLevel: async (level, records) => {
          levels.push({ level, records });
        },
      },
    );
    return { result, levels };
  } finally {
    await sim.close();
  }
}
