// The simulator speaking each engine's stream shape (--dialect): role-chunk rules, finish and usage placement,
// reasoning field or inline <think>, TGI keep-alives and one event per token, TRT-LLM's stray space, llama.cpp
// timings, and Ollama's native NDJSON.
import { describe, expect, it } from 'vitest';
import { useSimulators } from '../test-support/simulators.js';
import { firstChoice, streamPost, tokenEvents, type ReceivedEvent } from '../test-support/sim-test-client.js';

const FAST = { prefillBaseMs: 2, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0 };
const sim = useSimulators(FAST);
const chat = (extra: Record<string, unknown> = {}) => ({
  model: 'goodput-sim-1',
  messages: [{ role: 'user', content: 'hello there' }],
  stream: true,
  max_tokens: 4,
  stream_options: { include_usage: true },
  ...extra,
});
const delta = (e: ReceivedEvent) => (firstChoice(e)?.['delta'] ?? {}) as Record<string, unknown>;
const dataEvents = (events: ReceivedEvent[]) => events.filter((e) => e.json !== null);
const usageChunk = (events: ReceivedEvent[]) => events.find((e) => Array.isArray(e.json?.['choices']) && (e.json?.['choices'] as unknown[]).length === 0);

describe('simulated stream shapes per dialect', () => {
  it('vllm: role-only chunk with content "", reasoning in `reasoning`, finish on the last token, usage-only chunk', async () => {
    const s = await sim({ dialect: 'vllm', reasoningTokens: 2 });
    const r = await streamPost(s.url, '/v1/chat/completions', chat({ ignore_eos: true }));
    const events = dataEvents(r.events);
    expect(delta(events[0] as ReceivedEvent)).toEqual({ role: 'assistant', content: '' });
    expect(tokenEvents(r).map((e) => Object.keys(delta(e)))).toEqual([['reasoning'], ['reasoning'], ['content'], ['content']]);
    expect(firstChoice(tokenEvents(r).at(-1) as ReceivedEvent)?.['finish_reason']).toBe('length');
    expect(usageChunk(r.events)?.json?.['usage']).toMatchObject({ completion_tokens: 4, completion_tokens_details: { reasoning_tokens: 2 } });
    expect(r.done).toBe(true);
  });

  it('sglang: the finish reason in a chunk of its own, reasoning_tokens at the top of usage', async () => {
    const s = await sim({ dialect: 'sglang', reasoningTokens: 1 });
    const r = await streamPost(s.url, '/v1/chat/completions', chat({ ignore_eos: true }));
    const events = dataEvents(r.events);
    const finish = events.find((e) => firstChoice(e)?.['finish_reason'] !== null && firstChoice(e) !== null);
    expect(delta(finish as ReceivedEvent)).toEqual({ role: null, content: null, reasoning_content: null });
    expect(tokenEvents(r).every((e) => firstChoice(e)?.['finish_reason'] === null)).toBe(true);
    expect(usageChunk(r.events)?.json?.['usage']).toMatchObject({ completion_tokens: 4, reasoning_tokens: 1 });
  });

  it('tgi: a keep-alive comment, role on every chunk, one event per token, inline <think>, usage chunk with id ""', async () => {
    // The natural length comes on top of the reasoning: 2 + 5 tokens.
    const s = await sim({ dialect: 'tgi', tokensPerChunk: 3, reasoningTokens: 2, naturalOutputTokens: { min: 5, max: 5 } });
    const r = await streamPost(s.url, '/v1/chat/completions', chat({ max_tokens: 20 }));
    expect(r.raw.startsWith(':\n\ndata: ')).toBe(true);
    const tokens = tokenEvents(r);
    expect(tokens).toHaveLength(7);
    expect(tokens.every((e) => delta(e)['role'] === 'assistant')).toBe(true);
    const text = tokens.map((e) => delta(e)['content']).join('');
    expect(text).toMatch(/^<think> \w+ \w+<\/think>( \w+){5}$/);
    expect(usageChunk(r.events)?.json).toMatchObject({ id: '', usage: { completion_tokens: 7 } });
    expect(String(tokens[0]?.json?.['system_fingerprint'])).toMatch(/goodput-sim$/);
  });

  it('llamacpp: role chunk with content null, finish chunk with delta {}, timings.predicted_n per chunk, Server header', async () => {
    const s = await sim({ dialect: 'llamacpp', tokensPerChunk: 2 });
    const res = await fetch(`${s.url}/v1/models`);
    expect(res.headers.get('server')).toBe('llama.cpp');
    const r = await streamPost(s.url, '/v1/chat/completions', chat({ max_tokens: 5, ignore_eos: true, timings_per_token: true }));
    const events = dataEvents(r.events);
    expect(delta(events[0] as ReceivedEvent)).toEqual({ role: 'assistant', content: null });
    expect(tokenEvents(r).map((e) => (e.json?.['timings'] as { predicted_n: number }).predicted_n)).toEqual([1, 3, 5]);
    const finish = events.find((e) => firstChoice(e)?.['finish_reason'] === 'length');
    expect(delta(finish as ReceivedEvent)).toEqual({});
  });

  it('ollama /v1: role on the first chunk only, thinking and content of one step split, a separate finish chunk', async () => {
    const s = await sim({ dialect: 'ollama', reasoningTokens: 2, tokensPerChunk: 2, model: 'qwen3:8b' });
    const r = await streamPost(s.url, '/v1/chat/completions', { ...chat({ max_tokens: 4 }), model: 'qwen3:8b' });
    const tokens = tokenEvents(r);
    expect(delta(tokens[0] as ReceivedEvent)['role']).toBe('assistant');
    expect(tokens.slice(1).some((e) => 'role' in delta(e))).toBe(false);
    expect(tokens.map((e) => Object.keys(delta(e)).filter((k) => k !== 'role'))).toEqual([['reasoning'], ['reasoning'], ['content'], ['content']]);
    const finish = dataEvents(r.events).find((e) => firstChoice(e)?.['finish_reason'] === 'length');
    expect(delta(finish as ReceivedEvent)).toEqual({ role: 'assistant', content: '' });
    expect(usageChunk(r.events)?.json?.['usage']).toEqual({ prompt_tokens: 2, completion_tokens: 4, total_tokens: 6 });
  });

  it('ollama native: NDJSON lines, thinking in message.thinking, a done line with counts; /api/generate answers `response`', async () => {
    const s = await sim({ dialect: 'ollama', reasoningTokens: 1, model: 'qwen3:8b' });
    const res = await fetch(`${s.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({ model: 'qwen3:8b', messages: [{ role: 'user', content: 'a b c' }], options: { num_predict: 3 } }),
    });
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l['done'])).toEqual([false, false, false, true]);
    expect((lines[0]?.['message'] as Record<string, unknown>)['thinking']).toMatch(/^ \w+$/);
    expect(lines.at(-1)).toMatchObject({ done_reason: 'length', prompt_eval_count: 3, eval_count: 3 });
    const off = await fetch(`${s.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({ model: 'qwen3:8b', messages: [{ role: 'user', content: 'x' }], think: false, options: { num_predict: 2 } }),
    });
    expect(await off.text()).not.toContain('thinking');
    const gen = await fetch(`${s.url}/api/generate`, {
      method: 'POST',
      body: JSON.stringify({ model: 'qwen3:8b', prompt: 'once upon', raw: true, options: { num_predict: 2 } }),
    });
    const genLines = (await gen.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(genLines[0]).toMatchObject({ response: expect.stringMatching(/^ \w+$/), done: false });
  });

  it('trtllm: `data: {…} \\n\\n` with a stray space, a role-only chunk without content, include_usage by default', async () => {
    const s = await sim({ dialect: 'trtllm' });
    const r = await streamPost(s.url, '/v1/chat/completions', {
      ...chat({ max_tokens: 3, ignore_eos: true }),
      stream_options: { continuous_usage_stats: false },
    });
    expect(
      r.raw
        .split('\n\n')
        .filter((e) => e.startsWith('data: {'))
        .every((e) => e.endsWith('} ')),
    ).toBe(true);
    expect(delta(dataEvents(r.events)[0] as ReceivedEvent)).toEqual({ role: 'assistant' });
    expect(usageChunk(r.events)?.json?.['usage']).toMatchObject({ completion_tokens: 3, prompt_tokens_details: { cached_tokens: 0 } });
  });

  it('lmdeploy: role on every delta and usage: null on every chunk but the last', async () => {
    const s = await sim({ dialect: 'lmdeploy' });
    const r = await streamPost(s.url, '/v1/chat/completions', chat({ ignore_eos: true }));
    expect(tokenEvents(r).every((e) => delta(e)['role'] === 'assistant' && e.json?.['usage'] === null)).toBe(true);
  });

  it('openai: reasoning never streamed but counted; usage: null on chunks', async () => {
    const s = await sim({ dialect: 'openai', reasoningTokens: 3 });
    const r = await streamPost(s.url, '/v1/chat/completions', chat({ max_completion_tokens: 5, max_tokens: undefined }));
    expect(tokenEvents(r).every((e) => Object.keys(delta(e)).join() === 'content')).toBe(true);
    expect(r.raw).not.toMatch(/reasoning"/);
    expect(usageChunk(r.events)?.json?.['usage']).toMatchObject({ completion_tokens_details: { reasoning_tokens: 3 } });
  });
});
