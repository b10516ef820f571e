import { describe, expect, it } from 'vitest';
import { useSimulators } from '../test-support/simulators.js';
import type { SimServer } from './index.js';

const sim = useSimulators({ pooling: { dimension: 4, msPerInputToken: 0.001 } });
const post = async (s: SimServer, path: string, body: unknown) => {
  const res = await fetch(`${s.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, tokens: res.headers.get('x-compute-tokens'), json: (await res.json()) as unknown };
};

describe("the simulator's score and TEI routes", () => {
  it("answers vLLM's /score and /v1/score: data[] of {index, object: score, score} for each text_2, with usage", async () => {
    const s = await sim();
    for (const path of ['/score', '/v1/score']) {
      const r = await post(s, path, { model: 'goodput-sim-1', text_1: 'a b', text_2: ['c d e', 'f'] });
      expect(r.status).toBe(200);
      const body = r.json as { object: string; data: Array<{ index: number; object: string; score: number }>; usage: { prompt_tokens: number } };
      expect(body.object).toBe('list');
      expect(body.data.map((d) => [d.index, d.object])).toEqual([
        [0, 'score'],
        [1, 'score'],
      ]);
      expect(body.data.every((d) => Number.isFinite(d.score))).toBe(true);
      expect(body.usage.prompt_tokens).toBe(2 + 3 + (2 + 1));
    }
    expect((await post(s, '/score', { text_1: 'a', text_2: [] })).status).toBe(400);
  });

  it("answers TEI's /rerank body with a bare array sorted by score and /embed with bare vectors, the count in x-compute-tokens", async () => {
    const s = await sim();
    const r = await post(s, '/rerank', { query: 'a b', texts: ['c d e', 'f', 'g h'] });
    const ranks = r.json as Array<{ index: number; score: number }>;
    expect(ranks.map((x) => x.index).sort()).toEqual([0, 1, 2]);
    expect(ranks.map((x) => x.score)).toEqual([...ranks.map((x) => x.score)].sort((a, b) => b - a));
    expect(r.tokens).toBe(String(2 * 3 + 3 + 1 + 2));
    // The Cohere body at the same path keeps its own answer.
    expect((await post(s, '/rerank', { query: 'a', documents: ['b'] })).json).toMatchObject({ results: [{ index: 0 }] });
    const e = await post(s, '/embed', { inputs: ['a b', 'c'] });
    expect(e.json).toEqual([expect.any(Array), expect.any(Array)]);
    expect((e.json as number[][]).every((v) => v.length === 4)).toBe(true);
    expect(e.tokens).toBe('3');
    expect((await post(s, '/embed', { input: ['a'] })).status).toBe(400);
  });

  it('serves every shape on the one encoder: the same texts cost the same tokens whichever route carries them', async () => {
    const s = await sim();
    await post(s, '/v1/rerank', { query: 'q r', documents: ['a b c', 'd'] });
    await post(s, '/score', { text_1: 'q r', text_2: ['a b c', 'd'] });
    await post(s, '/rerank', { query: 'q r', texts: ['a b c', 'd'] });
    expect(s.stats().pooling).toEqual({ requests: 3, inputTokens: 3 * (2 + 3 + (2 + 1)) });
  });
});
