// Thinking off by default with each engine's own switch, per model family; "cannot" becomes a run warning.
import { describe, expect, it } from 'vitest';
import { modelFamily } from './model-family.js';
import { dialects } from './registry.js';
import { thinkingChoice } from './thinking.js';
import type { DialectSettings } from './types.js';

describe('modelFamily', () => {
  it('recognises families from HF ids and Ollama tags, case-insensitively', () => {
    const kinds = (ids: string[]) => ids.map((id) => modelFamily(id).kind);
    expect(kinds(['Qwen/Qwen3-8B', 'qwen3:0.6b', 'zai-org/GLM-4.5-Air'])).toEqual(['switchable', 'switchable', 'switchable']);
    expect(kinds(['Qwen/Qwen3-30B-A3B-Thinking-2507', 'deepseek-r1:7b', 'Qwen/QwQ-32B'])).toEqual(['always-thinks', 'always-thinks', 'always-thinks']);
    expect(kinds(['Qwen/Qwen3-4B-Instruct-2507', 'openai/gpt-oss-20b', 'o3-mini', 'gpt-5.1', 'meta-llama/Llama-3.1-8B'])).toEqual([
      'non-reasoning',
      'effort-levels',
      'openai-reasoning',
      'openai-reasoning',
      'unknown',
    ]);
    expect(modelFamily('deepseek-ai/DeepSeek-V3.1')).toMatchObject({ kind: 'switchable', kwarg: 'thinking', defaultOn: false });
    expect(modelFamily('ibm-granite/granite-3.3-8b-instruct')).toMatchObject({ kind: 'switchable', kwarg: 'thinking' });
  });
});

describe('thinkingChoice', () => {
  it('template engines: the family kwarg; gpt-oss gets the lowest effort and a reason', () => {
    const style = { kind: 'template-kwargs' } as const;
    expect(thinkingChoice(style, 'Qwen/Qwen3-8B', false)).toEqual({
      body: { chat_template_kwargs: { enable_thinking: false } },
      promptSuffix: '',
      cannot: null,
    });
    expect(thinkingChoice(style, 'deepseek-ai/DeepSeek-V3.1', true).body).toEqual({ chat_template_kwargs: { thinking: true } });
    expect(thinkingChoice(style, 'openai/gpt-oss-120b', false)).toEqual({
      body: { reasoning_effort: 'low' },
      promptSuffix: '',
      cannot: expect.stringMatching(/cannot turn reasoning off/),
    });
    expect(thinkingChoice(style, 'deepseek-r1:7b', false).cannot).toMatch(/always reasons/);
  });

  it("TGI: only Qwen3's /no_think soft switch", () => {
    const style = { kind: 'prompt-only' } as const;
    expect(thinkingChoice(style, 'Qwen/Qwen3-8B', false)).toEqual({ body: {}, promptSuffix: ' /no_think', cannot: null });
    expect(thinkingChoice(style, 'zai-org/GLM-4.5', false).cannot).toMatch(/TGI has no thinking switch/);
    expect(thinkingChoice(style, 'meta-llama/Llama-3.1-8B', false)).toEqual({ body: {}, promptSuffix: '', cannot: null });
  });

  it('Ollama: reasoning_effort "none" on /v1, think:false natively, nothing for a model that cannot think', () => {
    expect(thinkingChoice({ kind: 'ollama', key: 'reasoning_effort' }, 'qwen3:8b', false).body).toEqual({ reasoning_effort: 'none' });
    expect(thinkingChoice({ kind: 'ollama', key: 'think' }, 'deepseek-r1:7b', false).body).toEqual({ think: false });
    expect(thinkingChoice({ kind: 'ollama', key: 'think' }, 'gpt-oss:20b', false)).toMatchObject({ body: { think: 'low' }, cannot: expect.any(String) });
    expect(thinkingChoice({ kind: 'ollama', key: 'think' }, 'llama3.2:3b', false).body).toEqual({});
  });

  it('OpenAI: reasoning_effort "none" where the model takes it, else its lowest with a reason; nothing for others', () => {
    const style = { kind: 'reasoning-effort' } as const;
    expect(thinkingChoice(style, 'gpt-5.1', false)).toEqual({ body: { reasoning_effort: 'none' }, promptSuffix: '', cannot: null });
    expect(thinkingChoice(style, 'gpt-5-mini', false)).toMatchObject({ body: { reasoning_effort: 'minimal' }, cannot: expect.any(String) });
    expect(thinkingChoice(style, 'gpt-4o', false).body).toEqual({});
  });
});

describe('dialect warnings', () => {
  const s = (over: Partial<DialectSettings> = {}): DialectSettings => ({
    model: 'Qwen/Qwen3-8B',
    endpoint: 'chat',
    thinking: false,
    forceLength: true,
    ...over,
  });
  const codes = (kind: keyof typeof dialects, over: Partial<DialectSettings> = {}) => dialects[kind].warnings(s(over)).map((w) => w.code);

  it('cannot-force-length where the engine only caps (TGI, Ollama, OpenAI), and only when forcing was asked', () => {
    for (const kind of ['tgi', 'ollama', 'ollama-native', 'openai'] as const) expect(codes(kind), kind).toContain('cannot-force-length');
    for (const kind of ['vllm', 'sglang', 'llamacpp', 'trtllm', 'lmdeploy', 'generic'] as const) expect(codes(kind), kind).not.toContain('cannot-force-length');
    expect(codes('tgi', { forceLength: false })).not.toContain('cannot-force-length');
  });

  it('cannot-disable-thinking for gpt-oss (every engine) and on TGI for GLM; engine notes for Ollama', () => {
    for (const kind of ['vllm', 'ollama', 'ollama-native', 'tgi'] as const)
      expect(codes(kind, { model: 'openai/gpt-oss-20b' }), kind).toContain('cannot-disable-thinking');
    expect(codes('tgi', { model: 'zai-org/GLM-4.5' })).toContain('cannot-disable-thinking');
    expect(codes('vllm')).toEqual([]);
    expect(codes('ollama').filter((c) => c === 'engine-note')).toHaveLength(3);
    expect(codes('vllm', { model: 'openai/gpt-oss-20b', endpoint: 'completions' })).toEqual([]);
    expect(
      dialects.openai
        .warnings(s({ model: 'o3' }))
        .map((w) => w.message)
        .join(),
    ).toMatch(/o3 takes no sampling parameters/);
  });
});
