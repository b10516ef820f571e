// Trap 21 (cache hits on a cold run, cache state that cannot be verified) and trap 16 (silent prompt truncation).
import { describe, expect, it } from 'vitest';
import { dialects } from '../client/index.js';
import type { RequestRecord } from '../core/index.js';
import { rec } from '../test-support/records.js';
import { EngineChecks } from './engine-checks.js';

const r = (over: Partial<RequestRecord>): RequestRecord => ({ ...rec({ chunksMs: [10, 20] }), ...over });
const codes = (c: EngineChecks) => c.warnings().map((w) => w.code);

describe('EngineChecks', () => {
  it('warns when a cold run hit the prefix cache, with how many and how much', () => {
    const c = new EngineChecks(dialects.vllm, true, null);
    c.add([r({ cachedPromptTokens: 0, promptTokens: 512 }), r({ cachedPromptTokens: 496, promptTokens: 512 }), r({ warmup: true, cachedPromptTokens: 512 })]);
    expect(c.warnings()).toEqual([{ code: 'cache-hit-on-cold-run', message: expect.stringMatching(/^1 of 2 measured requests .* \(up to 496 of 512\)/) }]);
  });

  it('does not warn about cache hits on a warm run, or when nothing was cached', () => {
    const warm = new EngineChecks(dialects.vllm, false, null);
    warm.add([r({ cachedPromptTokens: 496 })]);
    expect(codes(warm)).toEqual([]);
    const cold = new EngineChecks(dialects.llamacpp, true, null);
    cold.add([r({ cachedPromptTokens: 0 })]);
    expect(codes(cold)).toEqual([]);
  });

  it('says when the cold cache cannot be verified, naming the flag that turns the report on', () => {
    const c = new EngineChecks(dialects.vllm, true, null);
    c.add([r({ cachedPromptTokens: null })]);
    expect(c.warnings()).toEqual([{ code: 'cache-unverified', message: expect.stringContaining('--enable-prompt-tokens-details') }]);
    const t = new EngineChecks(dialects.tgi, true, null);
    t.add([r({ cachedPromptTokens: null })]);
    expect(t.warnings()[0]?.message).toMatch(/TGI never reports it/);
    const failedOnly = new EngineChecks(dialects.tgi, true, null);
    failedOnly.add([r({ outcome: { kind: 'http-error', status: 500, message: 'x' } })]);
    expect(codes(failedOnly)).toEqual([]);
  });

  it('flags prompts the server saw shorter than the synthetic words sent (silent truncation)', () => {
    const c = new EngineChecks(dialects.ollama, true, 512);
    c.add([r({ promptTokens: 530, cachedPromptTokens: null }), r({ promptTokens: 300, cachedPromptTokens: null })]);
    expect(c.warnings().find((w) => w.code === 'prompt-truncated')?.message).toMatch(
      /^1 requests reported fewer prompt tokens \(as few as 300\) than the 512 words sent/,
    );
    const list = new EngineChecks(dialects.ollama, true, null);
    list.add([r({ promptTokens: 3 })]);
    expect(codes(list)).not.toContain('prompt-truncated');
  });
});
