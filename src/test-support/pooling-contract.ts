/** An embeddings or rerank contract as a user writes it, against a simulator at `url`; `over` edits it. */
export type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
export const poolingContract = (url: string, endpoint: 'embeddings' | 'rerank', over: (c: Doc) => void = () => {}): Doc => {
  const c: Doc = {
    version: 1,
    server: { url, endpoint },
    model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
    workload: {
      prompts: { kind: 'synthetic', tokens: 32 },
      requestsPerLevel: 4,
      warmup: 1,
      ...(endpoint === 'rerank' ? { documents: 8, queryTokens: 8 } : { batchSize: 4 }),
    },
    load: { levels: [2, 1] },
    slo: { e2eMs: { p: 95, max: 5000 } },
    hardware: { label: 'SimGPU 80GB', gpuHourlyUsd: 2, priceAsOf: '2026-11-01' },
  };
  over(c);
  return c;
};
