/**
 * Preflight reads the context length where the engine reports it and refuses,
 * before any request, a prompt plus output that cannot fit, naming both numbers.
 * Runs against the simulator playing each engine (its identity routes report
 * the context as the engine does).
 */
import { describe, expect, it } from 'vitest';
import { useSimulators } from '../test-support/simulators.js';
import { SweepError } from './errors.js';
import type { SweepEvent } from './sweep-events.js';
import { runSweep } from './run-kinds.js';

const sim = useSimulators({ port: 0, prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0, maxModelLen: 1024 });
const base = { levels: [1], requestsPerLevel: 2, warmup: 0, outputTokens: 256, serverMetrics: false, gpuSource: 'none' as const, clientBudgetMs: 1000 };

describe('context length preflight', () => {
  const cases: Array<[string, 'llamacpp' | 'vllm' | 'tgi' | 'sglang', RegExp]> = [
    ['llama.cpp /props n_ctx per slot', 'llamacpp', /GET \/props: default_generation_settings\.n_ctx \(per slot\)/],
    ['vLLM max_model_len', 'vllm', /GET \/v1\/models: max_model_len/],
    ['TGI max_total_tokens', 'tgi', /GET \/info: max_total_tokens/],
    ['SGLang max_model_len', 'sglang', /GET \/v1\/models: max_model_len/],
  ];
  for (const [what, dialect, source] of cases) {
    it(`refuses a request that cannot fit ${what}, naming both numbers, before any request`, async () => {
      const s = await sim({ dialect });
      const err = await runSweep({ ...base, url: s.url, promptTokens: 900 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SweepError);
      expect((err as SweepError).code).toBe('preflight-refused');
      expect((err as SweepError).message).toContain("a prompt of 900 tokens plus 256 output tokens (1156) cannot fit the server's context of 1024 tokens");
      expect((err as SweepError).message).toMatch(source);
      expect(s.stats()).toMatchObject({ accepted: 0, rejected: 0 });
    });
  }

  it("counts the chat template's own tokens, asked of the server before sending: 740 + 40 + 256 does not fit 1024", async () => {
    const s = await sim({ dialect: 'vllm', chatTemplateTokens: 40 });
    const err = await runSweep({ ...base, url: s.url, promptTokens: 740 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SweepError);
    expect((err as SweepError).message).toContain(
      "a prompt of 740 tokens, 40 of the server's chat template plus 256 output tokens (1036) cannot fit the server's context of 1024 tokens",
    );
    expect(s.stats()).toMatchObject({ accepted: 0, rejected: 0 });
    // Without the template (completions) the same prompt fits, and runs.
    const plain = await runSweep({ ...base, url: s.url, promptTokens: 740, endpoint: 'completions' });
    expect(plain.levels[0]?.promptTokens).toMatchObject({ sent: 740, templateTokens: 0 });
  });

  it("a chat prompt that fits with its template reports the template's tokens apart, as the server counted them", async () => {
    const s = await sim({ dialect: 'vllm', chatTemplateTokens: 40 });
    const result = await runSweep({ ...base, url: s.url, promptTokens: 700 });
    expect(result.levels[0]?.promptTokens).toMatchObject({ mean: 740, sent: 700, templateTokens: 40 });
  });

  it("a trace's largest request is checked with the chat template on top: 740 + 40 + 256 does not fit 1024", async () => {
    const s = await sim({ dialect: 'vllm', chatTemplateTokens: 40 });
    const trace = {
      arrival: {
        kind: 'trace' as const,
        offsetsMs: [0, 10],
        maxConcurrency: null,
        source: { file: 't.jsonl', sha256: 'a'.repeat(64), format: 'mooncake' as const, window: null, skippedFailed: 0, skippedOutsideWindow: 0, labels: {} },
      },
      prompts: {
        kind: 'trace' as const,
        blockTokens: 512,
        requests: [
          { p: 100, o: 16 },
          { p: 740, o: 256 },
        ],
      },
    };
    const err = await runSweep({ ...base, url: s.url, ...trace, requestsPerLevel: 'auto', cache: 'warm' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SweepError);
    expect((err as SweepError).message).toContain(
      "the trace's largest request, 740 prompt, 40 of the server's chat template plus 256 output tokens (1036), cannot fit the server's context of 1024 tokens",
    );
    expect(s.stats()).toMatchObject({ accepted: 0, rejected: 0 });
  });

  it('runs, and reports the context, when the request fits', async () => {
    const s = await sim({ dialect: 'llamacpp' });
    const events: SweepEvent[] = [];
    const result = await runSweep({ ...base, url: s.url, promptTokens: 64, outputTokens: 32 }, { onEvent: (e) => events.push(e) });
    expect(result.levels).toHaveLength(1);
    const engine = events.find((e) => e.kind === 'engine');
    expect(engine).toMatchObject({ context: { tokens: 1024, source: 'GET /props: default_generation_settings.n_ctx (per slot)' } });
  });
});
