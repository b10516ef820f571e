/**
 * Three llama.cpp runs of one model as F32, Q8_0 and F16 (the comparison a
 * user makes of quantizations), with long model file names and a long
 * client-bound reason at the top level: what compare, report and page
 * tests read to check "What differs", run names and layout.
 */
import type { SweepResult } from '../core/index.js';
import { contract, level, resultOf } from './receipt-fixture.js';

export const LONG_REASON =
  "send lateness p95 14.2 ms exceeded the client budget of 10 ms derived from the level's own TTFT p50 and TPOT p50; event-loop delay p99 9.8 ms; client CPU 97 % of one core during the level";

export const MODEL_FILES = [
  'stories260K-a-rather-long-model-file-name-for-a-test-F32.gguf',
  'stories260K-a-rather-long-model-file-name-for-a-test-Q8_0.gguf',
  'stories260K-a-rather-long-model-file-name-for-a-test-F16.gguf',
] as const;

const spec = { perReq: 50, ttft: [40, 60] as [number, number], tpot: 10, e2e: 700 };

/** Levels 1, 2 and 4; level 4 client-bound in every run. */
export function threeQuantizations(): SweepResult[] {
  return (['f32', 'q8_0', 'f16'] as const).map((q, i) => {
    const c = contract({ quantization: q === 'f32' ? 'none' : q.toUpperCase() });
    const r = resultOf(
      { ...c, model: { ...c.model, precision: q === 'q8_0' ? 'f32' : q } },
      [level({ c: 1, ...spec, tokS: 100 + 10 * i }), level({ c: 2, ...spec, tokS: 180 + 10 * i }), level({ c: 4, ...spec, tokS: 300 + 10 * i })],
      '2026-06-02T10:00:00.000Z',
      'llama.cpp',
    );
    const levels = r.levels.map((l) => (l.concurrency === 4 ? { ...l, clientBound: { ...l.clientBound, bound: true, reason: LONG_REASON } } : l));
    return {
      ...r,
      levels,
      serverAccount: {
        models: [],
        server: 'llama.cpp',
        version: null,
        props: { modelFile: MODEL_FILES[i] as string, contextTokens: 2048, build: 'b9928' },
        simulator: null,
      },
    };
  });
}
