/** The telemetry lines under the table: energy per token over the measured window ("energy not valid" and why), speculative decoding, and a disaggregated server's pools by level. */
import { describe, expect, it } from 'vitest';
import type { DisaggLevel, EnergyLevel, GpuLevel, LevelResult, SpecDecode } from '../core/index.js';
import { level } from '../test-support/receipt-fixture.js';
import { renderTelemetry } from './render-telemetry.js';

const spec = { tokS: 100, perReq: 50, ttft: [40, 60] as [number, number], tpot: 10, e2e: 700 };
const gpu: GpuLevel = {
  available: true,
  source: 'nvidia-smi',
  samples: 20,
  utilizationPct: { mean: 50, max: 60 },
  powerW: { mean: 300, max: 310 },
  energyJ: 600,
  energyMethod: 'power',
  joulesPerOutputToken: 6,
  notes: [],
};
const energy: EnergyLevel = {
  source: 'nvidia-smi',
  valid: true,
  reason: null,
  windowMs: 2000,
  samples: 11,
  outside: 7,
  intervalMs: 200,
  coverage: 1,
  method: 'power',
  joules: 600,
  meanPowerW: 300,
  outputTokens: 100,
  inputTokens: 400,
  joulesPerOutputToken: 6,
  joulesPerInputToken: 1.5,
  joulesPerTotalToken: 1.2,
};
const at = (c: number, extra: Partial<LevelResult>): LevelResult => ({ ...level({ c, ...spec }), ...extra });

describe('renderTelemetry', () => {
  it('shows joules per output, input and total token with the window, readings, interval and coverage', () => {
    expect(renderTelemetry([at(1, { gpu, energy })])).toEqual([
      '',
      'GPU, by level:',
      '  1: utilisation 50% · power 300 W · 6.000 J/output token, 1.5000 J/input token, 1.2000 J/token (from power over the 2.00 s measured window, 11 readings every 0.20 s, coverage 100%) (nvidia-smi)',
    ]);
  });
  it('says "energy not valid" and why, with no per-token figure', () => {
    const reason = 'no reading from 400 ms to 1.60 s into the window (1.20 s, more than 3 × the 200 ms interval)';
    const bad = { ...energy, valid: false, reason, joules: null, joulesPerOutputToken: null, joulesPerInputToken: null, joulesPerTotalToken: null };
    const lines = renderTelemetry([at(2, { gpu: { ...gpu, energyJ: null, joulesPerOutputToken: null }, energy: bad })]);
    expect(lines[2]).toBe(`  2: utilisation 50% · power 300 W · energy not valid: ${reason} (nvidia-smi)`);
    expect(lines.join('\n')).not.toMatch(/J\/output token/);
  });
  it('keeps the earlier line for a result written before levels carried their energy', () => {
    expect(renderTelemetry([at(1, { gpu })])[2]).toBe('  1: utilisation 50% · power 300 W · 6.000 J/output token (from power) (nvidia-smi)');
  });
});

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
    const levels = [level({ c: 1, ...spec }), { ...level({ c: 2, ...spec }), specDecode: vllm }, { ...level({ c: 4, ...spec }), specDecode: sglang }];
    expect(renderTelemetry(levels)).toEqual([
      '',
      "Speculative decoding (the server's own figures over each level; ours: tokens per chunk after the first), by level:",
      '  2: acceptance length 2.77 (rate 0.44; per position 0.70 0.49), ours 2.75 tokens per chunk',
      "  4: acceptance length 3.10 (SGLang's sglang:spec_accept_length), ours 2.20 tokens per chunk (disagrees)",
    ]);
    expect(renderTelemetry([level({ c: 1, ...spec })])).toEqual([]);
  });
});

describe("a disaggregated server's pools under the table", () => {
  it('print each pool, the KV moved and the TTFT split by level, with what a server said sanitised', () => {
    const none = {
      requests: null,
      promptTokens: null,
      generatedTokens: null,
      queueMeanMs: null,
      prefillMeanMs: null,
      ttftMeanMs: null,
      waiting: null,
      notes: [],
    };
    const rates = { promptTokensPerS: null, promptTokensPerSPerGpu: null, generatedTokensPerS: null, generatedTokensPerSPerGpu: null };
    const disagg: DisaggLevel = {
      windowMs: 2000,
      roles: [
        {
          role: 'prefill',
          metricsUrl: 'http://p',
          family: 'vllm',
          gpus: 2,
          ...none,
          ...rates,
          requests: 8,
          promptTokensPerS: 2000,
          promptTokensPerSPerGpu: 1000,
          queueMeanMs: 12.5,
          prefillMeanMs: 40,
          error: null,
        },
        { role: 'decode', metricsUrl: 'http://d', family: 'vllm', gpus: null, ...none, ...rates, generatedTokensPerS: 3000, error: null },
        { role: 'router', metricsUrl: 'http://r', family: null, gpus: null, ...none, ...rates, error: 'the scrape after the level failed: \u001b[2Jgone' },
      ],
      kvTransfer: {
        source: 'vllm-nixl',
        role: 'decode',
        bytes: 250_000_000,
        transfers: 8,
        seconds: 0.25,
        meanTransferMs: 31.25,
        failed: 1,
        levelGbps: 1,
        transferGbps: 8,
        linkGbps: 100,
      },
      ttftSplit: { ttftMs: 120, queueMs: 12.5, prefillMs: 40, transferMs: 31.25, otherMs: 36.25 },
    };
    expect(renderTelemetry([level({ c: 1, ...spec }), { ...level({ c: 4, ...spec }), disagg }])).toEqual([
      '',
      "Disaggregated pools (each pool's own metrics over the level's measured window), by level:",
      '  4: prefill (2 GPUs): 2,000 prompt tok/s (1,000 per GPU), 8 requests, queue 12.5 ms, prefill 40.0 ms',
      '  4: decode: 3,000 generated tok/s',
      '  4: router: no figures: the scrape after the level failed: gone',
      '     KV 250.00 MB in 8 transfers (mean 31.3 ms), 1.00 Gbit/s over the level, 8.00 Gbit/s while transferring; 1 failed; link 100 Gbit/s (vllm-nixl, decode pool)',
      '     TTFT 120.0 ms = queue 12.5 ms + prefill 40.0 ms + transfer 31.3 ms + other 36.3 ms',
    ]);
  });
});
