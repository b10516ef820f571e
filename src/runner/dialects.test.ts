// A sweep against the simulator in every --dialect: detection, the dialect's run warnings, the engine record,
// the same lengths everywhere (the stream shape must not change the numbers), --engine overrides, and the
// cold-cache check (cache_salt keeps vLLM cold where the generic dialect hits the cache).
import { describe, expect, it } from 'vitest';
import { useSimulators } from '../test-support/simulators.js';
import { SIM_DIALECT_KINDS, SIM_DIALECTS } from '../sim/index.js';
import { dialects } from '../client/index.js';
import { SweepError } from './errors.js';
import { runSweep } from './run-kinds.js';

// Natural length far above the cap: engines that cannot force the length still stop at the cap.
const FAST = { prefillBaseMs: 3, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0, naturalOutputTokens: { min: 500, max: 500 } };
const base = { levels: [1, 3], outputTokens: 24, promptTokens: 16, requestsPerLevel: 6 as const, warmup: 1 };
const sim = useSimulators(FAST);

const CANNOT_FORCE = new Set(['tgi', 'ollama', 'openai']);
const NO_CACHE_REPORT = new Set(['tgi', 'ollama']);

describe('sweeping the simulator in every dialect', () => {
  for (const dialect of SIM_DIALECT_KINDS) {
    it(`--dialect ${dialect}: detected, no failures, every request at the cap`, async () => {
      const s = await sim({ dialect });
      const result = await runSweep({ ...base, url: s.url });
      const engine = dialect === 'goodput' ? 'generic' : dialect;
      expect(result.run.engine).toMatchObject({ name: engine, dialect: engine, detection: 'detected', sampling: { ...dialects[engine].sampling } });
      if (dialect !== 'goodput') expect(result.run.engine?.version).toBe(SIM_DIALECTS[dialect].version);
      for (const level of result.levels) {
        expect(level.failed, `${dialect} c=${level.concurrency}: ${level.failureExamples.join('; ')}`).toBe(0);
        expect(level.outputTokens).toMatchObject({ mean: 24, min: 24, max: 24, source: 'usage', short: 0 });
        expect(level.ttftMs?.p50).toBeGreaterThan(0);
      }
      const codes = result.warnings.map((w) => w.code);
      expect(codes.includes('cannot-force-length'), dialect).toBe(CANNOT_FORCE.has(dialect));
      expect(codes.includes('cache-unverified'), dialect).toBe(NO_CACHE_REPORT.has(dialect));
      expect(codes).not.toContain('cache-hit-on-cold-run');
    });
  }

  it('flags requests that end short where the engine cannot force the length (TGI)', async () => {
    const s = await sim({ dialect: 'tgi', naturalOutputTokens: { min: 10, max: 10 } });
    const result = await runSweep({ ...base, levels: [1], url: s.url });
    expect(result.levels[0]?.outputTokens).toMatchObject({ mean: 10, short: 6 });
    expect(result.warnings.map((w) => w.code)).toEqual(expect.arrayContaining(['cannot-force-length', 'short-requests']));
    expect(result.warnings.find((w) => w.code === 'short-requests')?.message).toMatch(/6 requests ended below 24 tokens: TGI cannot force the length/);
  });

  it("speaks Ollama's native NDJSON API with --engine ollama-native, recording the engine as ollama", async () => {
    const s = await sim({ dialect: 'ollama' });
    const result = await runSweep({ ...base, url: s.url, engine: 'ollama-native' });
    expect(result.run.engine).toMatchObject({ name: 'ollama', dialect: 'ollama-native', detection: 'override', version: SIM_DIALECTS.ollama.version });
    expect(result.levels.every((l) => l.failed === 0 && l.outputTokens.mean === 24)).toBe(true);
  });

  it('follows an --engine override that contradicts detection, and says so', async () => {
    const s = await sim({ dialect: 'sglang' });
    const result = await runSweep({ ...base, levels: [1], url: s.url, engine: 'vllm' });
    expect(result.run.engine).toMatchObject({ name: 'vllm', detection: 'override', version: null, evidence: [] });
    expect(result.warnings.find((w) => w.code === 'engine-mismatch')?.message).toMatch(/engine vllm was given, but the server looks like SGLang/);
  });

  it('refuses an unknown engine by name before anything runs', async () => {
    await expect(runSweep({ ...base, url: 'http://127.0.0.1:9', engine: 'vllm2' as never })).rejects.toSatisfy(
      (e: unknown) => e instanceof SweepError && e.code === 'bad-input' && /^engine: engine must be one of auto, vllm, /.test(e.message),
    );
  });

  it('warns when a cold run hit the cache, and cache_salt keeps vLLM cold on the same prompts', async () => {
    // Every prompt shares a 64-word prefix: a prefix cache serves it unless the request is salted.
    const shared = Array.from({ length: 64 }, (_, i) => `w${i}`).join(' ');
    const prompts = { kind: 'list' as const, items: Array.from({ length: 4 }, (_, i) => ({ text: `${shared} tail${i}` })) };
    const generic = await sim({ dialect: 'goodput' });
    const hit = await runSweep({ ...base, levels: [1], url: generic.url, prompts });
    expect(hit.warnings.find((w) => w.code === 'cache-hit-on-cold-run')?.message).toMatch(/measured requests reported cached prompt tokens/);
    const warm = await runSweep({ ...base, levels: [1], url: generic.url, prompts, cache: 'warm' });
    expect(warm.warnings.map((w) => w.code)).not.toContain('cache-hit-on-cold-run');
    const salted = await runSweep({ ...base, levels: [1], url: (await sim({ dialect: 'vllm' })).url, prompts });
    expect(salted.warnings.map((w) => w.code)).not.toContain('cache-hit-on-cold-run');
  });
});
