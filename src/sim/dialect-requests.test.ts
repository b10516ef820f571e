// What each simulated engine does with a request: keys it refuses (TRT-LLM, OpenAI), ignores (TGI, Ollama,
// llama.cpp, LMDeploy) or names differently, its error bodies, its mid-stream error events, and the overload
// answers of the two engines that reject instead of queueing (TGI 429, Ollama 503).
import { describe, expect, it } from 'vitest';
import { useSimulators } from '../test-support/simulators.js';
import { type SimServer, type SimServerOptions } from './index.js';
import { streamPost, tokenEvents, words } from '../test-support/sim-test-client.js';

const FAST = { prefillBaseMs: 2, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0, naturalOutputTokens: { min: 6, max: 6 } };
const sim = useSimulators(FAST);
const chat = (extra: Record<string, unknown> = {}) => ({ model: 'goodput-sim-1', messages: [{ role: 'user', content: 'hi' }], stream: true, ...extra });
const post = (s: SimServer, body: unknown, path = '/v1/chat/completions') => fetch(`${s.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
const contentWords = async (s: SimServer, body: Record<string, unknown>) =>
  words(
    tokenEvents(await streamPost(s.url, '/v1/chat/completions', body))
      .map((e) => JSON.stringify(e.json))
      .join(' ')
      .match(/"content":"[^"]*"/g)
      ?.join(' ')
      .replace(/"content":/g, '')
      .replace(/"/g, '') ?? '',
  );

describe('request rules per simulated engine', () => {
  it('trtllm refuses unknown keys and both cap keys at once (400, flat error naming the key)', async () => {
    const s = await sim({ dialect: 'trtllm' });
    const unknown = await post(s, chat({ frobnicate: true, max_tokens: 3 }));
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ object: 'error', message: expect.stringContaining('frobnicate'), code: 400 });
    expect((await post(s, chat({ max_tokens: 3, max_completion_tokens: 3 }))).status).toBe(400);
    expect((await post(s, { model: 'goodput-sim-1', prompt: 'a', max_tokens: 2, cache_salt: 'x' }, '/v1/completions')).status).toBe(400);
    expect((await post(s, chat({ max_tokens: 3, ignore_eos: true, min_tokens: 3, cache_salt: 'x' }))).status).toBe(200);
  });

  it('openai refuses ignore_eos and template kwargs ("Unrecognized request argument")', async () => {
    const s = await sim({ dialect: 'openai' });
    const r = await post(s, chat({ max_completion_tokens: 3, ignore_eos: true }));
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({
      error: { message: 'Unrecognized request argument supplied: ignore_eos', type: 'BadRequestError', param: 'ignore_eos', code: 'BadRequestError' },
    });
    expect((await post(s, chat({ max_completion_tokens: 3, stream_options: { include_usage: true, include_obfuscation: false } }))).status).toBe(200);
  });

  it('tgi answers 422 for both cap keys (serde alias) and ignores ignore_eos (natural length)', async () => {
    const s = await sim({ dialect: 'tgi' });
    const both = await post(s, chat({ max_tokens: 3, max_completion_tokens: 3 }));
    expect(both.status).toBe(422);
    expect(await both.json()).toEqual({ error: expect.stringContaining('duplicate field'), error_type: 'validation' });
    expect(await contentWords(s, chat({ max_tokens: 20, ignore_eos: true }))).toBe(6);
  });

  it('ollama /v1 ignores max_completion_tokens (output runs to its natural length) and honours max_tokens', async () => {
    const s = await sim({ dialect: 'ollama' });
    expect(await contentWords(s, chat({ max_completion_tokens: 2 }))).toBe(6);
    expect(await contentWords(s, chat({ max_tokens: 2 }))).toBe(2);
  });

  it('lmdeploy honours min_new_tokens, not min_tokens', async () => {
    const s = await sim({ dialect: 'lmdeploy' });
    expect(await contentWords(s, chat({ max_tokens: 20, min_tokens: 10 }))).toBe(6);
    expect(await contentWords(s, chat({ max_tokens: 20, min_new_tokens: 10 }))).toBe(10);
  });

  it('llama.cpp skips the prompt cache with cache_prompt: false', async () => {
    const s = await sim({ dialect: 'llamacpp', prefixBlockTokens: 2 });
    const prompt = { messages: [{ role: 'user', content: 'one two three four five six seven eight' }], max_tokens: 1, stream_options: { include_usage: true } };
    const cached = async (extra: Record<string, unknown>) => {
      const r = await streamPost(s.url, '/v1/chat/completions', chat({ ...prompt, ...extra }));
      return (r.events.find((e) => e.json?.['usage'])?.json?.['usage'] as { prompt_tokens_details: { cached_tokens: number } }).prompt_tokens_details
        .cached_tokens;
    };
    await cached({});
    expect(await cached({})).toBeGreaterThan(0);
    expect(await cached({ cache_prompt: false })).toBe(0);
  });
});

describe('error bodies and mid-stream errors per simulated engine', () => {
  const shapes: Array<[SimServerOptions['dialect'], unknown]> = [
    ['goodput', { error: { message: expect.any(String), type: 'NotFoundError', param: 'model', code: 404 } }],
    ['sglang', { object: 'error', message: expect.any(String), type: 'NotFoundError', param: 'model', code: 404 }],
    ['tgi', { error: expect.any(String), error_type: 'NotFoundError' }],
    ['llamacpp', { error: { code: 404, message: expect.any(String), type: 'not_found_error' } }],
    ['ollama', { error: { message: expect.any(String), type: 'NotFoundError', param: 'model', code: null } }],
  ];
  for (const [dialect, body] of shapes) {
    it(`${dialect}: an unknown model answers 404 in its shape`, async () => {
      const s = await sim({ dialect });
      const r = await post(s, { ...chat({ max_tokens: 2 }), model: 'nope' });
      expect(r.status).toBe(404);
      expect(await r.json()).toEqual(body);
    });
  }

  it('ollama native errors are {"error": "…"}', async () => {
    const s = await sim({ dialect: 'ollama' });
    const r = await post(s, { model: 'nope', messages: [{ role: 'user', content: 'x' }] }, '/api/chat');
    expect(r.status).toBe(404);
    expect(await r.json()).toEqual({ error: expect.stringContaining('nope') });
  });

  it('mid-stream errors: [DONE] after the event where the engine sends one, none for TGI and llama.cpp, an NDJSON line for Ollama native', async () => {
    const endings: Array<[SimServerOptions['dialect'], RegExp]> = [
      ['vllm', /data: \{"error":\{[^\n]*\}\n\ndata: \[DONE\]\n\n$/],
      ['tgi', /data: \{"error":\{"message":"[^"]+","http_status_code":500\}\}\n\n$/],
      ['llamacpp', /data: \{"error":\{"code":500,[^\n]*\}\}\n\n$/],
      ['trtllm', /data: \{"object":"error",[^\n]*\} \n\ndata: \[DONE\]\n\n$/],
    ];
    for (const [dialect, ending] of endings) {
      const s = await sim({ dialect, faults: { midStreamError: 1 } });
      const r = await streamPost(s.url, '/v1/chat/completions', chat({ max_tokens: 6 }));
      expect(r.raw, dialect).toMatch(ending);
    }
    const s = await sim({ dialect: 'ollama', faults: { midStreamError: 1 } });
    const text = await (await post(s, { model: 'goodput-sim-1', messages: [{ role: 'user', content: 'x' }], options: { num_predict: 6 } }, '/api/chat')).text();
    expect(text.trim().split('\n').at(-1)).toMatch(/^\{"error":"Simulated engine error/);
  });
});

describe('overload answers', () => {
  async function fill(s: SimServer, n: number): Promise<void> {
    // Read to the end (cancelling would disconnect and free the slot); the server's close ends them.
    for (let i = 0; i < n; i++)
      void post(s, chat({ max_tokens: 50 }))
        .then((r) => r.text())
        .catch(() => undefined);
    for (let i = 0; i < 200 && s.stats().running + s.stats().waiting < n; i++) await new Promise((r) => setTimeout(r, 5));
  }

  it('tgi: 429 {error, error_type: "overloaded"} with max_concurrent_requests in flight', async () => {
    const s = await sim({ dialect: 'tgi', overloadLimit: 2, decodeStepMs: 20 });
    await fill(s, 2);
    const r = await post(s, chat({ max_tokens: 2 }));
    expect(r.status).toBe(429);
    expect(await r.json()).toEqual({ error: 'Model is overloaded', error_type: 'overloaded' });
  });

  it('ollama: 503 "server busy" with its queue full; engines that queue never refuse', async () => {
    const s = await sim({ dialect: 'ollama', overloadLimit: 1, maxBatch: 1, decodeStepMs: 20 });
    await fill(s, 2);
    const r = await post(s, chat({ max_tokens: 2 }));
    expect(r.status).toBe(503);
    expect(await r.json()).toMatchObject({ error: { message: expect.stringContaining('server busy') } });
    const v = await sim({ dialect: 'vllm', overloadLimit: 1, maxBatch: 1, decodeStepMs: 20 });
    await fill(v, 2);
    expect((await post(v, chat({ max_tokens: 2 }))).status).toBe(200);
  });
});
