/**
 * The figures of an embeddings or rerank receipt: the endpoint's own metrics
 * (items per second at the peak, input tokens per second, latency percentiles
 * of one request at a time, capacity at the latency objective, cost per
 * million input tokens), with their labels, units, statistics and better
 * direction. Items are inputs for embeddings and documents for rerank.
 */
import type { PoolingEndpoint } from '../core/index.js';
import { FIGURES, type FigureDef, type FigureKey } from '../web/index.js';

export const POOLING_FIGURE_KEYS = [
  'peakItems',
  'peakInputTokens',
  'capacityAtSlo',
  'latencyP50',
  'latencyP95',
  'latencyP99',
  'failedTotal',
  'hourlyRate',
  'costPer1MInput',
] as const;
export type PoolingFigureKey = (typeof POOLING_FIGURE_KEYS)[number];

/** Level metrics kept per level (the level table of the page). */
export const POOLING_LEVEL_METRICS = ['itemsPerS', 'inputTokensPerS', 'latencyP50', 'latencyP95', 'failed'] as const;
export type PoolingLevelMetric = (typeof POOLING_LEVEL_METRICS)[number];

const itemWord = (e: PoolingEndpoint) => (e === 'rerank' ? 'documents' : 'inputs');

export function poolingFigures(e: PoolingEndpoint): Record<PoolingFigureKey, FigureDef> {
  const items = itemWord(e);
  return {
    peakItems: {
      label: `Peak ${items}/s`,
      unit: `${items}/s`,
      statistic: 'peak over the levels tested without a failed request',
      direction: 'higher',
      digits: 1,
    },
    peakInputTokens: {
      label: 'Input tokens/s at the peak',
      unit: 'tok/s',
      statistic: `server-counted input tokens per second at the level of peak ${items}/s`,
      direction: 'higher',
      digits: 0,
    },
    capacityAtSlo: {
      label: `Capacity at the latency SLO`,
      unit: `${items}/s`,
      statistic: `${items}/s at the highest concurrency whose latency objective held with no failed request, below the first that missed`,
      direction: 'higher',
      digits: 1,
    },
    latencyP50: { label: 'Latency', unit: 'ms', statistic: 'p50 at concurrency 1', direction: 'lower', digits: 1 },
    latencyP95: { label: 'Latency', unit: 'ms', statistic: 'p95 at concurrency 1', direction: 'lower', digits: 1 },
    latencyP99: { label: 'Latency', unit: 'ms', statistic: 'p99 at concurrency 1', direction: 'lower', digits: 1 },
    failedTotal: { label: 'Failed requests', unit: 'requests', statistic: 'count over all levels', direction: 'lower', digits: 0 },
    hourlyRate: { label: 'GPU hourly rate', unit: 'USD/h', statistic: 'rate recorded with the run', direction: null, digits: 2 },
    costPer1MInput: { label: 'Cost per 1M input tokens', unit: 'USD', statistic: 'hourly rate at the peak input tokens/s', direction: 'lower', digits: 4 },
  };
}

export function poolingLevelFigures(e: PoolingEndpoint): Record<PoolingLevelMetric, FigureDef & { header: string }> {
  const items = itemWord(e);
  return {
    itemsPerS: {
      label: `${items[0]?.toUpperCase()}${items.slice(1)}/s`,
      header: `${items}/s`,
      unit: `${items}/s`,
      statistic: `${items} of successful requests per second`,
      direction: 'higher',
      digits: 1,
    },
    inputTokensPerS: {
      label: 'Input tokens/s',
      header: 'input tok/s',
      unit: 'tok/s',
      statistic: 'server-counted input tokens of successful requests per second',
      direction: 'higher',
      digits: 0,
    },
    latencyP50: { label: 'Latency p50', header: 'latency p50 (ms)', unit: 'ms', statistic: 'p50 of successful requests', direction: 'lower', digits: 1 },
    latencyP95: { label: 'Latency p95', header: 'latency p95 (ms)', unit: 'ms', statistic: 'p95 of successful requests', direction: 'lower', digits: 1 },
    failed: { label: 'Failed requests', header: 'failed', unit: 'requests', statistic: 'count', direction: 'lower', digits: 0 },
  };
}

/** The better direction of a pooling figure or level metric, by metric key; null for one that is not. */
export function poolingDirection(metric: string): FigureDef['direction'] | undefined {
  const all: Record<string, FigureDef> = { ...poolingFigures('embeddings'), ...poolingLevelFigures('embeddings') };
  return all[metric]?.direction;
}

/** The better direction of a receipt figure by its metric key, text or pooling; null when it has none. */
export function directionOfMetric(metric: string): FigureDef['direction'] {
  if (metric in FIGURES) return FIGURES[metric as FigureKey].direction;
  return poolingDirection(metric) ?? null;
}
