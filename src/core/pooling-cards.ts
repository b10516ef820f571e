/**
 * The Engine and Latency cards of an embeddings or rerank run, from its levels
 * by the same rule as its result's peak (poolingPeak): the level with the most
 * items per second among levels without a failed request, not client-bound. The text sweep's
 * cards (cards.ts) speak of output tokens; these speak of inputs or documents.
 */
import type { PoolingLevel } from './pooling-level.js';
import type { PoolingEndpoint } from './pooling-record.js';
import { poolingExclusion, poolingPeak } from './pooling-schema.js';

export interface PoolingEngineCard {
  /** What one item is: an input (embeddings) or a document (rerank). */
  unit: 'inputs' | 'documents';
  peakItemsPerS: number | null;
  /** Input tokens/s at the peak level (the server's count); null when it reported none. */
  peakInputTokensPerS: number | null;
  peakConcurrency: number | null;
  /** Levels left out of the peak, with why. */
  excluded: Array<{ concurrency: number; reason: string }>;
}

export interface PoolingLatencyCard {
  concurrency: number | null;
  /** Latency at the peak level, ms (send to last byte of the answer). */
  latencyMs: { p50: number; p95: number; p99: number } | null;
}

export function poolingCards(levels: readonly PoolingLevel[], endpoint: PoolingEndpoint): { engine: PoolingEngineCard; latency: PoolingLatencyCard } {
  const peak = poolingPeak(levels);
  const excluded = levels.flatMap((l) => ((reason) => (reason === null ? [] : [{ concurrency: l.concurrency, reason }]))(poolingExclusion(l)));
  const at = peak === null ? null : (levels.find((l) => l.concurrency === peak.concurrency) ?? null);
  const lat = at?.latencyMs ?? null;
  return {
    engine: {
      unit: endpoint === 'rerank' ? 'documents' : 'inputs',
      peakItemsPerS: peak?.itemsPerS ?? null,
      peakInputTokensPerS: peak?.inputTokensPerS ?? null,
      peakConcurrency: peak?.concurrency ?? null,
      excluded,
    },
    latency: { concurrency: peak?.concurrency ?? null, latencyMs: lat === null ? null : { p50: lat.p50, p95: lat.p95, p99: lat.p99 } },
  };
}
