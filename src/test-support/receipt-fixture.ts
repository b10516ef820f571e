/**
 * Hand-made runs for receipt and publish tests: results whose levels are
 * literals (so expected figures are computed by hand), each carrying a real
 * contract and its hash like `goodput run` writes them.
 */
import { type Contract, contractHash, contractSchema } from '../contract/index.js';
import { type LevelResult, SCHEMA_VERSION, type SweepResult, buildCards } from '../core/index.js';

export interface LevelSpec {
  c: number;
  tokS: number;
  perReq: number;
  ttft: [number, number];
  tpot: number;
  e2e: number;
  failed?: number;
}

export function level(s: LevelSpec): LevelResult {
  const failed = s.failed ?? 0;
  return {
    concurrency: s.c,
    requests: 8,
    succeeded: 8 - failed,
    failed,
    failures: failed > 0 ? { timeout: failed } : {},
    failureExamples: [],
    invalid: failed > 0,
    invalidReason: failed > 0 ? `${failed} of 8 requests failed (timeout ${failed})` : null,
    warmupRequests: 1,
    durationMs: 1000,
    outputTokensTotal: s.tokS,
    throughputTokS: s.tokS,
    steadyThroughputTokS: null,
    steadyWindowMs: null,
    perRequestTokS: { mean: s.perReq },
    ttftMs: { p50: s.ttft[0], p95: s.ttft[1], p99: s.ttft[1] },
    ttfaMs: null,
    tpotMs: { p50: s.tpot, p95: s.tpot },
    itlMs: null,
    iclMs: null,
    tokensPerChunk: null,
    e2eMs: { p50: s.e2e, p95: s.e2e },
    outputTokens: { mean: 64, min: 64, max: 64, source: 'usage', short: 0 },
    reasoningTokens: { total: 0, source: 'none' },
    promptTokens: { mean: 32 },
    clientBound: { bound: false, reason: null, sendLagMs: null, loopDelayMs: null, budgetMs: 50, clientCpuPct: null, rampMs: null },
    gpuMemMiB: { available: false, source: 'not available', reason: 'no GPU source' },
  };
}

export function contract(over: { quantization?: string; hourly?: number; outputTokens?: number; label?: string; model?: string } = {}): Contract {
  return contractSchema.parse({
    version: 1,
    server: { url: 'http://127.0.0.1:8000' },
    model: { name: over.model ?? 'demo-model', revision: 'r1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: over.quantization ?? 'none' },
    workload: { prompts: { kind: 'synthetic', tokens: 32 }, outputTokens: over.outputTokens ?? 64, requestsPerLevel: 8, warmup: 1 },
    load: { levels: [1, 2] },
    slo: { ttftMs: { p: 95, max: 500 } },
    hardware: { label: over.label ?? 'Test GPU 24GB', gpuHourlyUsd: over.hourly ?? 2, priceAsOf: '2026-06-01' },
  });
}

/** A result of `levels` that carries `c` and its hash; `startedAt` dates it. */
export function resultOf(c: Contract, levels: LevelResult[], startedAt = '2026-06-02T10:00:00.000Z', engine = 'vllm'): SweepResult {
  return {
    schemaVersion: SCHEMA_VERSION,
    run: {
      url: 'http://127.0.0.1:8000',
      model: c.model.name,
      engine: { name: engine, version: '0.9.1' },
      endpoint: 'chat',
      outputTokens: 64,
      forceLength: true,
      promptTokens: 32,
      thinking: 'off',
      temperature: 0,
      seed: 42,
      levelsRequested: levels.map((l) => l.concurrency),
      levelsOrder: levels.map((l) => l.concurrency),
      requestsPerLevel: 8,
      warmupPerLevel: 1,
      hourlyCostUsd: c.hardware.gpuHourlyUsd ?? null,
      baselineRateUsdPer1M: null,
      gpuLabel: c.hardware.label,
      command: 'goodput run test.yaml --url http://127.0.0.1:8000',
      startedAt,
      endedAt: startedAt,
      status: 'complete',
      stopReason: null,
      toolVersion: '0.1.0',
    },
    warnings: [],
    levels,
    cards: buildCards({ levels, hourlyCostUsd: c.hardware.gpuHourlyUsd ?? null, baselineRateUsdPer1M: null, gpuLabel: c.hardware.label }),
    contract: c as unknown as Record<string, unknown>,
    contractHash: contractHash(c),
    tokenizer: { kind: 'server', exact: true, label: 'server /tokenize', sha256: null },
  };
}

/**
 * The pair the unit tests compute by hand. Baseline: peak 180 tok/s at c=2, single stream 100 tok/s, $2/h.
 * Optimized: peak 360 tok/s at c=2, single stream 160 tok/s, $2/h.
 */
/** Two runs of one workload on `label` hardware (a label naming a GPU count, "2× H100", gives per-GPU figures). */
export function receiptPair(label?: string): { baseline: SweepResult; optimized: SweepResult } {
  const hw = label === undefined ? {} : { label };
  return {
    baseline: resultOf(contract(hw), [
      level({ c: 1, tokS: 100, perReq: 100, ttft: [40, 60], tpot: 10, e2e: 670 }),
      level({ c: 2, tokS: 180, perReq: 90, ttft: [50, 80], tpot: 11, e2e: 750 }),
    ]),
    optimized: resultOf(
      contract({ ...hw, quantization: 'fp8' }),
      [
        level({ c: 1, tokS: 160, perReq: 160, ttft: [30, 45], tpot: 6, e2e: 410 }),
        level({ c: 2, tokS: 360, perReq: 150, ttft: [35, 50], tpot: 6.5, e2e: 440 }),
      ],
      '2026-06-03T09:00:00.000Z',
    ),
  };
}
