/** Info routes and request validation over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type SimServer } from './index.js';

const MODEL = 'goodput-sim-1';
let s: SimServer;
beforeAll(async () => {
  s = await startSimulator({ prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 1, maxModelLen: 4096 });
});
afterAll(async () => {
  await s.close();
  expect(await s.stopped).toBe('closed');
});
const post = (path: string, body: unknown) => fetch(`${s.url}${path}`, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
const errorOf = async (res: Response) => ((await res.json()) as { error: { message: string; type: string; param: string | null; code: number } }).error;

describe('info routes', () => {
  it('answers /health, /v1/models, /version and /sim/gpu', async () => {
    const health = await fetch(`${s.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe('');
    expect(await (await fetch(`${s.url}/v1/models`)).json()).toMatchObject({
      object: 'list',
      data: [{ id: MODEL, object: 'model', owned_by: 'goodput-sim', max_model_len: 4096 }],
    });
    expect(await (await fetch(`${s.url}/version`)).json()).toEqual({ version: 'goodput-sim 0.1.0' });
    expect(await (await fetch(`${s.url}/sim/gpu`)).json()).toEqual({ name: 'SimGPU 80GB', totalMiB: 81920, usedMiB: 16000 });
    // The simulator's own account of itself, whatever engine it plays: how a receipt knows it was simulated.
    expect(await (await fetch(`${s.url}/sim/config`)).json()).toMatchObject({ simulator: 'goodput-sim', version: '0.1.0', profile: { model: MODEL } });
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.url.endsWith(`:${s.port}`)).toBe(true);
  });

  it('tokenizes one word per token, for prompts, messages and token ids (vLLM shape)', async () => {
    const a = (await (await post('/tokenize', { model: MODEL, prompt: 'the quick  brown\nfox' })).json()) as {
      count: number;
      max_model_len: number;
      tokens: number[];
    };
    expect(a.count).toBe(4);
    expect(a.max_model_len).toBe(4096);
    expect(a.tokens).toHaveLength(4);
    expect(a.tokens.every((t) => Number.isInteger(t) && t >= 0)).toBe(true);
    const b = (await (
      await post('/tokenize', {
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: [{ type: 'text', text: 'the quick' }] },
        ],
      })
    ).json()) as { count: number; tokens: number[] };
    expect(b.count).toBe(4);
    expect(b.tokens.slice(2)).toEqual(a.tokens.slice(0, 2)); // same word, same id
    expect(await (await post('/tokenize', { prompt: [5, 6, 7] })).json()).toMatchObject({ count: 3, tokens: [5, 6, 7] });
    expect((await post('/tokenize', { model: 'other', prompt: 'x' })).status).toBe(404);
    const missing = await post('/tokenize', { model: MODEL });
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).param).toBe('prompt');
  });

  it('answers 404 for unknown paths and 405 for a wrong method', async () => {
    expect((await fetch(`${s.url}/nope`)).status).toBe(404);
    const wrong = await fetch(`${s.url}/v1/chat/completions`);
    expect(wrong.status).toBe(405);
    expect((await errorOf(wrong)).code).toBe(405);
  });
});

describe('request validation', () => {
  const chat = { model: MODEL, messages: [{ role: 'user', content: 'hi' }] };
  const cases: Array<[string, string, unknown, number, string]> = [
    ['missing model', '/v1/chat/completions', { messages: chat.messages }, 400, 'model'],
    ['missing messages', '/v1/chat/completions', { model: MODEL }, 400, 'messages'],
    ['empty messages', '/v1/chat/completions', { model: MODEL, messages: [] }, 400, 'messages'],
    ['bad message content', '/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 5 }] }, 400, 'messages[0].content'],
    ['missing prompt', '/v1/completions', { model: MODEL }, 400, 'prompt'],
    ['zero max_tokens', '/v1/chat/completions', { ...chat, max_tokens: 0 }, 400, 'max_tokens'],
    ['negative max_completion_tokens', '/v1/completions', { model: MODEL, prompt: 'x', max_completion_tokens: -3 }, 400, 'max_completion_tokens'],
    ['fractional max_tokens', '/v1/chat/completions', { ...chat, max_tokens: 2.5 }, 400, 'max_tokens'],
    ['min_tokens above the cap', '/v1/chat/completions', { ...chat, max_tokens: 4, min_tokens: 5 }, 400, 'min_tokens'],
    ['stream_options without stream', '/v1/chat/completions', { ...chat, stream_options: { include_usage: true } }, 400, 'stream_options'],
    ['over the context length', '/v1/chat/completions', { ...chat, max_tokens: 4096 }, 400, 'max_tokens'],
    ['wrong model', '/v1/chat/completions', { ...chat, model: 'gpt-nope' }, 404, 'model'],
    ['invalid JSON', '/v1/chat/completions', '{"model":', 400, 'body'],
  ];
  for (const [name, path, body, status, field] of cases) {
    it(`${name} → ${status} naming ${field}`, async () => {
      const res = await post(path, body);
      expect(res.status).toBe(status);
      const err = await errorOf(res);
      expect(err.param).toBe(field);
      expect(err.code).toBe(status);
      expect(err.message).toContain(status === 404 ? 'gpt-nope' : field);
    });
  }

  it('accepts unknown extra keys, like vLLM', async () => {
    const res = await post('/v1/chat/completions', { ...chat, max_tokens: 2, temperature: 0.7, top_k: 5, whatever: { x: 1 } });
    expect(res.status).toBe(200);
    expect(s.stats().rejected).toBe(cases.length);
  });
});
