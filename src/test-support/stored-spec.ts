/**
 * A text run's spec as the store keeps it, for the store and API tests that
 * begin a run by hand: one set of values, each test replacing what it is about.
 */
/** A text run's spec as a store keeps it (levels 1 and 2, 3 requests a level after 1 warm-up, 8 prompt and 16 output tokens), `over` replacing fields. */
export const storedTextSpec = <O extends object>(over: O) => ({
  url: 'http://127.0.0.1:9',
  model: null,
  endpoint: 'chat' as const,
  levels: [1, 2],
  outputTokens: 16,
  promptTokens: 8,
  requestsPerLevel: 3,
  warmup: 1,
  thinking: false,
  forceLength: true,
  temperature: 0,
  seed: 42,
  hourlyCostUsd: 2 as number | null,
  baselineRateUsdPer1M: null,
  gpuLabel: null,
  command: 'goodput sweep',
  ...over,
});
