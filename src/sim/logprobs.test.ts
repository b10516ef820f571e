/** Logprobs over real HTTP: vLLM's chat and completions shapes, echo, the cap and the noise knob. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamPost } from '../test-support/sim-test-client.js';
import { startSimulator, type SimServer } from './index.js';
import { resolveSimOptions } from './sim-command.js';

const MODEL = 'goodput-sim-1';
const fast = { prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0 };
let clean: SimServer;
let noisy: SimServer;
let twin: SimServer;
beforeAll(async () => {
  [clean, noisy, twin] = await Promise.all([
    startSimulator({ ...fast, maxTopLogprobs: 5 }),
    startSimulator({ ...fast, quantizationNoise: 0.5 }),
    startSimulator({ ...fast }),
  ]);
});
afterAll(async () => {
  await Promise.all([clean.close(), noisy.close(), twin.close()]);
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const post = async (s: SimServer, path: string, body: Json): Promise<{ status: number; json: Json }> => {
  const res = await fetch(`${s.url}${path}`, { method: 'POST', body: JSON.stringify({ model: MODEL, ...body }) });
  return { status: res.status, json: (await res.json()) as Json };
};
const chat = (top: number) => ({ messages: [{ role: 'user', content: 'Why is the sky blue?' }], max_tokens: 3, logprobs: true, top_logprobs: top });

describe('chat logprobs (vLLM shape)', () => {
  it('returns exactly k top logprobs per generated token, the chosen token with its own logprob', async () => {
    const { status, json } = await post(clean, '/v1/chat/completions', chat(5));
    expect(status).toBe(200);
    const content = json.choices[0].logprobs.content as Json[];
    expect(content).toHaveLength(3);
    expect(content.map((c) => c.token).join('')).toBe(json.choices[0].message.content);
    for (const c of content) {
      expect(c.top_logprobs).toHaveLength(5);
      expect(c.logprob).toBeLessThan(0);
      expect(c.bytes).toEqual([...Buffer.from(c.token as string)]);
      const lps = (c.top_logprobs as Json[]).map((t) => t.logprob as number);
      expect(lps).toEqual([...lps].sort((a, b) => b - a));
    }
  });

  it("streams the logprobs of each chunk's tokens", async () => {
    const r = await streamPost(clean.url, '/v1/chat/completions', { model: MODEL, ...chat(2), stream: true });
    const tokens = r.events.flatMap((e) => ((e.json?.choices as Json[] | undefined)?.[0]?.logprobs?.content ?? []) as Json[]);
    expect(tokens).toHaveLength(3);
    expect(tokens.every((t) => t.top_logprobs.length === 2)).toBe(true);
  });

  it('refuses top_logprobs above the cap, and without logprobs: true, naming the field', async () => {
    const over = await post(clean, '/v1/chat/completions', chat(6));
    expect(over.status).toBe(400);
    expect(over.json.error).toMatchObject({
      param: 'top_logprobs',
      message: 'top_logprobs: Requested top_logprobs of 6, which is greater than max allowed: 5.',
    });
    const alone = await post(clean, '/v1/chat/completions', { ...chat(2), logprobs: false });
    expect(alone.status).toBe(400);
    expect(alone.json.error.message).toMatch(/`logprobs` must be set to true/);
    const wrongType = await post(clean, '/v1/chat/completions', { ...chat(2), top_logprobs: 'many' });
    expect(wrongType.json.error.param).toBe('top_logprobs');
  });
});

describe('completions logprobs and echo (vLLM shape)', () => {
  const prompt = 'The quick brown fox jumps';

  it('returns token_logprobs and a token → logprob map holding the top k and the chosen token', async () => {
    const { json } = await post(twin, '/v1/completions', { prompt, max_tokens: 2, logprobs: 3 });
    const lp = json.choices[0].logprobs;
    expect(lp.tokens).toHaveLength(2);
    expect(lp.token_logprobs.every((x: number) => x < 0)).toBe(true);
    expect(lp.text_offset).toEqual([0, lp.tokens[0].length]);
    for (const [i, map] of (lp.top_logprobs as Json[]).entries()) {
      expect(Object.keys(map).length).toBeGreaterThanOrEqual(3);
      expect(map[lp.tokens[i]]).toBe(lp.token_logprobs[i]);
    }
  });

  it('echo returns the prompt first, the first prompt token with null logprobs', async () => {
    const { json } = await post(twin, '/v1/completions', { prompt, max_tokens: 1, logprobs: 1, echo: true });
    const c = json.choices[0];
    expect(c.text.startsWith(prompt)).toBe(true);
    expect(c.logprobs.tokens.slice(0, 5)).toEqual(['The', ' quick', ' brown', ' fox', ' jumps']);
    expect(c.logprobs.tokens).toHaveLength(6);
    expect(c.logprobs.token_logprobs[0]).toBeNull();
    expect(c.logprobs.top_logprobs[0]).toBeNull();
    expect(c.logprobs.token_logprobs.slice(1).every((x: number) => x < 0)).toBe(true);
    expect(c.logprobs.text_offset.slice(0, 3)).toEqual([0, 3, 9]);
    const plain = await post(twin, '/v1/completions', { prompt, max_tokens: 1, echo: true });
    expect(plain.json.choices[0].text.startsWith(prompt)).toBe(true);
    expect(plain.json.choices[0].logprobs).toBeNull();
  });

  it('refuses logprobs above the cap', async () => {
    const r = await post(clean, '/v1/completions', { prompt, max_tokens: 1, logprobs: 21 });
    expect(r.status).toBe(400);
    expect(r.json.error.param).toBe('logprobs');
  });
});

describe('profile fields and flags', () => {
  it('refuses a negative noise or a fractional cap, naming the field and flag', async () => {
    await expect(startSimulator({ quantizationNoise: -0.1 })).rejects.toThrow(/invalid simulator profile: quantizationNoise: /);
    await expect(startSimulator({ maxTopLogprobs: 1.5 })).rejects.toThrow(/invalid simulator profile: maxTopLogprobs: /);
    const r = await resolveSimOptions({ quantizationNoise: 'lots', port: '0' });
    expect(r.ok === false && r.message).toMatch(/^quantizationNoise \(--quantization-noise\): /);
    const ok = await resolveSimOptions({ quantizationNoise: '0.3', maxTopLogprobs: '5', port: '0' });
    expect(ok.ok && [ok.profile.quantizationNoise, ok.profile.maxTopLogprobs]).toEqual([0.3, 5]);
  });
});

describe('quantization noise', () => {
  const firstTop = async (s: SimServer): Promise<Json[]> =>
    (await post(s, '/v1/chat/completions', chat(5))).json.choices[0].logprobs.content[0].top_logprobs as Json[];

  it('identical profiles give identical logprobs; noise changes them', async () => {
    const [a, b, c] = await Promise.all([firstTop(clean), firstTop(twin), firstTop(noisy)]);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });
});
