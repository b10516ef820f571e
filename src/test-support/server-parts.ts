/**
 * A server built of parts, as literals for view and receipt tests: a
 * disaggregated level's pools (a prefill pool of 2 GPUs, a decode pool, a
 * router whose endpoint failed) with its KV transfer and TTFT split, and a
 * fleet level's three targets, the third slow, whose throughputs add up to
 * the level's.
 */
import type { DisaggLevel, TargetLevel } from '../core/index.js';

const none = { requests: null, promptTokens: null, generatedTokens: null, queueMeanMs: null, prefillMeanMs: null, ttftMeanMs: null, waiting: null, notes: [] };
const rates = { promptTokensPerS: null, promptTokensPerSPerGpu: null, generatedTokensPerS: null, generatedTokensPerSPerGpu: null };

/** Pools over a 2 s window: 2,000 prompt tok/s on 2 GPUs, 3,000 generated tok/s, 250 MB in 8 transfers over a 100 Gbit/s link. */
export function disaggFixture(scale = 1): DisaggLevel {
  return {
    windowMs: 2000,
    roles: [
      {
        role: 'prefill',
        metricsUrl: 'http://p/metrics',
        family: 'vllm',
        gpus: 2,
        ...none,
        ...rates,
        requests: 8,
        promptTokens: 4000 * scale,
        promptTokensPerS: 2000 * scale,
        promptTokensPerSPerGpu: 1000 * scale,
        queueMeanMs: 12.5,
        prefillMeanMs: 40,
        error: null,
      },
      {
        role: 'decode',
        metricsUrl: 'http://d/metrics',
        family: 'vllm',
        gpus: null,
        ...none,
        ...rates,
        generatedTokens: 6000,
        generatedTokensPerS: 3000,
        error: null,
      },
      { role: 'router', metricsUrl: 'http://r/metrics', family: null, gpus: null, ...none, ...rates, error: 'not found at the start: HTTP 404' },
    ],
    kvTransfer: {
      source: 'vllm-nixl',
      role: 'decode',
      bytes: 250_000_000,
      transfers: 8,
      seconds: 0.25,
      meanTransferMs: 31.25,
      failed: 0,
      levelGbps: 1,
      transferGbps: 8,
      linkGbps: 100,
    },
    ttftSplit: { ttftMs: 120, queueMs: 12.5, prefillMs: 40, transferMs: 31.25, otherMs: 36.25 },
  };
}

const target = (url: string, requests: number, tokS: number, ttftP50: number): TargetLevel => ({
  url,
  requests,
  succeeded: requests,
  failed: 0,
  outputTokensTotal: tokS,
  throughputTokS: tokS,
  ttftMs: { p50: ttftP50, p99: ttftP50 * 2 },
  e2eMs: { p50: 700, p99: 900 },
});

export const FLEET_URLS = ['http://10.0.0.1:8000', 'http://10.0.0.2:8000', 'http://10.0.0.3:8000'];

/** Three targets of a 1 s level of 100 tok/s: 40 + 40 + 20 tok/s, the third's TTFT p50 80 ms against 20 ms. */
export const targetsFixture = (): TargetLevel[] => [
  target(FLEET_URLS[0] as string, 3, 40, 20),
  target(FLEET_URLS[1] as string, 3, 40, 20),
  target(FLEET_URLS[2] as string, 2, 20, 80),
];
