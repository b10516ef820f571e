// Each engine's request body: cap keys (trap 10), length forcing (trap 7), sampling sent explicitly (trap 11),
// stream_options only where accepted (traps 4, 9), allowlists for engines that reject unknown keys (trap 8),
// cold-cache switches (trap 21) and Ollama's native body.
import { describe, expect, it } from 'vitest';
import type { RequestSpec } from '../types.js';
import { dialects } from './registry.js';
import type { DialectKind } from './types.js';

const spec: RequestSpec = {
  endpoint: 'chat',
  model: 'llama-3.1-8b',
  prompt: 'hi',
  maxTokens: 256,
  forceLength: true,
  thinking: false,
  temperature: 0,
  seed: 42,
  cacheSalt: 'r1c1n0',
};
const body = (kind: DialectKind, over: Partial<RequestSpec> = {}): Record<string, unknown> =>
  JSON.parse(dialects[kind].buildBody({ ...spec, ...over })) as Record<string, unknown>;
const keysOf = (b: Record<string, unknown>) => Object.keys(b).sort();

describe('dialect request bodies', () => {
  it('vLLM: both cap keys, ignore_eos + min_tokens, neutral sampling, continuous usage, cache_salt', () => {
    expect(body('vllm')).toEqual({
      model: 'llama-3.1-8b',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 256,
      max_completion_tokens: 256,
      ignore_eos: true,
      min_tokens: 256,
      temperature: 0,
      seed: 42,
      top_p: 1,
      top_k: -1,
      min_p: 0,
      chat_template_kwargs: { enable_thinking: false },
      cache_salt: 'r1c1n0',
      stream: true,
      stream_options: { include_usage: true, continuous_usage_stats: true },
    });
    expect(body('vllm', { endpoint: 'completions' })).toMatchObject({ prompt: 'hi', max_tokens: 256 });
    expect(body('vllm', { endpoint: 'completions' })).not.toHaveProperty('max_completion_tokens');
    expect(body('vllm', { endpoint: 'completions' })).not.toHaveProperty('chat_template_kwargs');
  });

  it('images follow the prompt text as image_url parts (every OpenAI-body dialect); Ollama native puts bare base64 in images', () => {
    const images = ['data:image/png;base64,AAAA', 'data:image/png;base64,BBBB'];
    for (const kind of ['vllm', 'sglang', 'llamacpp', 'openai', 'generic', 'tgi'] as const) {
      expect((body(kind, { images }).messages as unknown[]).at(-1), kind).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'image_url', image_url: { url: images[0] } },
          { type: 'image_url', image_url: { url: images[1] } },
        ],
      });
    }
    expect(body('vllm', { images: [] }).messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(body('vllm', { images: [images[0] as string], audio: 'UklGRg==' }).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'image_url', image_url: { url: images[0] } },
          { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
        ],
      },
    ]);
    expect((body('ollama-native', { images }).messages as unknown[]).at(-1)).toMatchObject({ role: 'user', images: ['AAAA', 'BBBB'] });
  });

  it('on the Responses API, images and audio follow the text as input parts: input_image with its URL as a string, input_audio as in chat', () => {
    const images = ['data:image/jpeg;base64,AAAA', 'http://127.0.0.1:9/s/1.jpg'];
    for (const kind of ['vllm', 'openai', 'generic'] as const) {
      expect(body(kind, { endpoint: 'responses', images, audio: 'UklGRg==' }).input, kind).toEqual([
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'hi' },
            { type: 'input_image', image_url: images[0], detail: 'auto' },
            { type: 'input_image', image_url: images[1], detail: 'auto' },
            { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
          ],
        },
      ]);
    }
    expect(body('vllm', { endpoint: 'responses' }).input).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('SGLang: like vLLM (continuous usage is read on its own there)', () => {
    expect(body('sglang')).toMatchObject({
      ignore_eos: true,
      min_tokens: 256,
      top_k: -1,
      cache_salt: 'r1c1n0',
      stream_options: { include_usage: true, continuous_usage_stats: true },
    });
  });

  it('TGI: max_tokens only (its alias too is a duplicate field), nothing that forces length, no template kwargs', () => {
    const b = body('tgi');
    expect(keysOf(b)).toEqual(['max_tokens', 'messages', 'model', 'seed', 'stream', 'stream_options', 'temperature']);
    expect(b.stream_options).toEqual({ include_usage: true });
  });

  it('llama.cpp: max_tokens, ignore_eos without a minimum, neutral sampler, timings_per_token, cache_prompt false when cold', () => {
    const b = body('llamacpp');
    expect(b).toMatchObject({
      max_tokens: 256,
      ignore_eos: true,
      top_p: 1,
      top_k: 0,
      min_p: 0,
      repeat_penalty: 1,
      timings_per_token: true,
      cache_prompt: false,
    });
    expect(b).not.toHaveProperty('min_tokens');
    expect(b).not.toHaveProperty('max_completion_tokens');
    expect(b).not.toHaveProperty('cache_salt');
    expect(body('llamacpp', { cacheSalt: undefined })).not.toHaveProperty('cache_prompt');
  });

  it('llama.cpp on /v1/responses: the chat keys it reads after converting the request (forced length, sampler, cold cache, thinking), the history resent as typed message items, no store or previous_response_id', () => {
    const history = [
      { role: 'user' as const, content: 'a' },
      { role: 'assistant' as const, content: 'b' },
    ];
    const b = body('llamacpp', { endpoint: 'responses', history, previousResponseId: 'resp_1' });
    expect(b).toEqual({
      model: 'llama-3.1-8b',
      input: [...history.map((m) => ({ type: 'message', ...m })), { role: 'user', content: 'hi' }],
      max_output_tokens: 256,
      ignore_eos: true,
      temperature: 0,
      seed: 42,
      top_p: 1,
      top_k: 0,
      min_p: 0,
      repeat_penalty: 1,
      chat_template_kwargs: { enable_thinking: false },
      cache_prompt: false,
      timings_per_token: true,
      stream: true,
    });
    // An engine that stores answers continues the last one and sends only the new message.
    const v = body('vllm', { endpoint: 'responses', history, previousResponseId: 'resp_1' });
    expect(v).toMatchObject({ input: [{ role: 'user', content: 'hi' }], previous_response_id: 'resp_1', store: true });
    expect(v).not.toHaveProperty('ignore_eos');
  });

  it('Ollama /v1: max_tokens only (it ignores max_completion_tokens), no length forcing, top_p 1 sent', () => {
    const b = body('ollama');
    expect(keysOf(b)).toEqual(['max_tokens', 'messages', 'model', 'seed', 'stream', 'stream_options', 'temperature', 'top_p']);
  });

  it('Ollama native: options with num_predict and neutral sampling, think:false for a thinking model, raw prompts for completions', () => {
    expect(body('ollama-native', { model: 'qwen3:8b' })).toEqual({
      model: 'qwen3:8b',
      messages: [{ role: 'user', content: 'hi' }],
      think: false,
      stream: true,
      options: { num_predict: 256, top_p: 1, top_k: 0, min_p: 0, repeat_penalty: 1, temperature: 0, seed: 42 },
    });
    expect(body('ollama-native', { endpoint: 'completions' })).toMatchObject({ prompt: 'hi', raw: true, options: { num_predict: 256 } });
    expect(body('ollama-native')).not.toHaveProperty('think');
  });

  it('TensorRT-LLM: one cap key, ignore_eos + min_tokens, cache_salt on chat only, continuous usage', () => {
    const chat = body('trtllm');
    expect(chat).toMatchObject({
      max_tokens: 256,
      ignore_eos: true,
      min_tokens: 256,
      cache_salt: 'r1c1n0',
      stream_options: { include_usage: true, continuous_usage_stats: true },
    });
    expect(chat).not.toHaveProperty('max_completion_tokens');
    expect(body('trtllm', { endpoint: 'completions' })).not.toHaveProperty('cache_salt');
  });

  it('LMDeploy: min_new_tokens, not min_tokens; top_k 0 because its default is 40', () => {
    const b = body('lmdeploy');
    expect(b).toMatchObject({ ignore_eos: true, min_new_tokens: 256, top_k: 0 });
    expect(b).not.toHaveProperty('min_tokens');
  });

  it('OpenAI: max_completion_tokens, no ignore_eos/min_tokens/template kwargs, no obfuscation padding', () => {
    const b = body('openai');
    expect(keysOf(b)).toEqual(['max_completion_tokens', 'messages', 'model', 'seed', 'stream', 'stream_options', 'temperature', 'top_p']);
    expect(b.stream_options).toEqual({ include_usage: true, include_obfuscation: false });
    expect(body('openai', { endpoint: 'completions' })).toMatchObject({ max_tokens: 256 });
    const reasoning = body('openai', { model: 'o3-mini' });
    expect(reasoning).toMatchObject({ reasoning_effort: 'low' });
    expect(reasoning).not.toHaveProperty('temperature');
    expect(reasoning).not.toHaveProperty('top_p');
  });

  it('generic: the behaviour before dialects (both cap keys, ignore_eos + min_tokens, no cache keys)', () => {
    const b = body('generic');
    expect(b).toMatchObject({
      max_tokens: 256,
      max_completion_tokens: 256,
      ignore_eos: true,
      min_tokens: 256,
      chat_template_kwargs: { enable_thinking: false },
    });
    expect(b).not.toHaveProperty('cache_salt');
  });

  it("a contract's top_p replaces the neutral value where each engine reads it, and never reaches a model that rejects sampling", () => {
    expect(body('vllm', { topP: 0.9 })).toMatchObject({ top_p: 0.9, top_k: -1 });
    expect(body('openai', { topP: 0.9 })).toMatchObject({ top_p: 0.9 });
    expect(body('openai', { topP: 0.9, model: 'o3-mini' })).not.toHaveProperty('top_p');
    const native = body('ollama-native', { topP: 0.9 });
    expect(native).not.toHaveProperty('top_p');
    expect(native.options).toMatchObject({ top_p: 0.9 });
  });

  it('sends nothing that forces the length when the run does not force it', () => {
    for (const kind of ['vllm', 'llamacpp', 'lmdeploy', 'trtllm', 'generic'] as const) {
      const b = body(kind, { forceLength: false });
      expect(b).not.toHaveProperty('ignore_eos');
      expect(b).not.toHaveProperty('min_tokens');
      expect(b).not.toHaveProperty('min_new_tokens');
    }
  });

  it('engines that reject unknown keys only ever get allowlisted keys, extraBody included', () => {
    for (const kind of ['trtllm', 'openai'] as const) {
      const d = dialects[kind];
      const accepted = d.acceptedKeys;
      if (accepted === 'any') throw new Error(`${kind} should have an allowlist`);
      for (const endpoint of ['chat', 'completions'] as const) {
        for (const model of ['llama-3.1-8b', 'qwen3-8b', 'gpt-oss-20b', 'o3']) {
          const b = body(kind, { endpoint, model, thinking: model === 'qwen3-8b', extraBody: { frobnicate: 1, top_p: 0.9 } });
          const unknown = Object.keys(b).filter((k) => !accepted[endpoint].has(k));
          expect(unknown, `${kind} ${endpoint} ${model}`).toEqual([]);
          if (d.sampling.top_p !== undefined && model !== 'o3') expect(b.top_p).toBe(0.9);
        }
      }
    }
  });

  it('every dialect streams, and only vLLM, SGLang and TRT-LLM get continuous_usage_stats', () => {
    for (const [kind, d] of Object.entries(dialects)) {
      const b = JSON.parse(d.buildBody(spec)) as { stream: boolean; stream_options?: Record<string, unknown> };
      expect(b.stream, kind).toBe(true);
      const continuous = b.stream_options?.continuous_usage_stats === true;
      expect(continuous, kind).toBe(['vllm', 'sglang', 'trtllm'].includes(kind));
      expect(continuous, kind).toBe(d.usage.perChunk === 'continuous_usage_stats');
      // Trap 24: n>1 is unreliable (LMDeploy uses 1, TGI ignores it): never sent.
      expect(b, kind).not.toHaveProperty('n');
    }
  });
});
