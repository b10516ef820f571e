import { describe, expect, it } from 'vitest';
import type { SpecDecode } from '../core/index.js';
import { level } from '../test-support/receipt-fixture.js';
import { renderTelemetry } from './render-telemetry.js';

const figures = { tokS: 100, perReq: 50, ttft: [40, 60] as [number, number], tpot: 10, e2e: 700 };

describe('the telemetry lines under the table', () => {
  it("print speculative decoding by level, the server's figures beside ours, only where a level has them", () => {
    const sglang: SpecDecode = {
      source: 'sglang-gauge',
      acceptanceLength: 3.1,
      acceptanceRate: null,
      perPosition: [],
      counters: null,
      client: { tokensPerChunk: 2.2, chunks: 90, exact: true },
      agrees: false,
    };
    const vllm: SpecDecode = {
      ...sglang,
      source: 'vllm-counters',
      acceptanceLength: 2.77,
      acceptanceRate: 0.4425,
      perPosition: [0.7, 0.49],
      agrees: true,
      client: { tokensPerChunk: 2.75, chunks: 900, exact: true },
    };
    const levels = [level({ c: 1, ...figures }), { ...level({ c: 2, ...figures }), specDecode: vllm }, { ...level({ c: 4, ...figures }), specDecode: sglang }];
    expect(renderTelemetry(levels)).toEqual([
      '',
      "Speculative decoding (the server's own figures over each level; ours: tokens per chunk after the first), by level:",
      '  2: acceptance length 2.77 (rate 0.44; per position 0.70 0.49), ours 2.75 tokens per chunk',
      "  4: acceptance length 3.10 (SGLang's sglang:spec_accept_length), ours 2.20 tokens per chunk (disagrees)",
    ]);
    expect(renderTelemetry([level({ c: 1, ...figures })])).toEqual([]);
  });
});
