// Trap 25: size inputs with the engine's own tokenizer: each engine's route, body and answer shape.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type SimServer } from '../sim/index.js';
import { startServer, type TestServer } from '../test-support/scripted-server.js';
import { dialects } from './dialects/registry.js';
import type { DialectKind } from './dialects/types.js';
import { countOf, countTokens } from './tokenize.js';

let servers: Array<TestServer | SimServer> = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
async function answering(status: number, body: unknown): Promise<TestServer> {
  const s = await startServer((_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  servers.push(s);
  return s;
}

describe('countTokens', () => {
  const cases: Array<[DialectKind, string, unknown, Record<string, unknown>]> = [
    ['vllm', '/tokenize', { count: 4, max_model_len: 8192, tokens: [1, 2, 3, 4] }, { model: 'm', prompt: 'a b c d' }],
    ['sglang', '/tokenize', { tokens: [1, 2, 3, 4], count: 4 }, { model: 'm', prompt: 'a b c d' }],
    [
      'tgi',
      '/tokenize',
      [
        { id: 1, text: 'a' },
        { id: 2, text: ' b' },
        { id: 3, text: ' c' },
        { id: 4, text: ' d' },
      ],
      { inputs: 'a b c d' },
    ],
    ['llamacpp', '/tokenize', { tokens: [403, 407, 261, 378] }, { content: 'a b c d' }],
    ['trtllm', '/_internal/tokenize', { count: 4, tokens: [1, 2, 3, 4] }, { model: 'm', prompt: 'a b c d' }],
    ['lmdeploy', '/v1/encode', { input_ids: [1, 2, 3, 4], length: 4 }, { input: 'a b c d', do_preprocess: false, add_bos: true }],
  ];
  for (const [kind, path, answer, sent] of cases) {
    it(`${kind}: POST ${path} and read its answer`, async () => {
      const s = await answering(200, answer);
      expect(await countTokens({ baseUrl: `${s.url}/v1`, apiKey: 'k' }, dialects[kind], 'm', 'a b c d')).toEqual({ ok: true, count: 4 });
      expect(s.requests[0]).toMatchObject({ url: path, headers: { authorization: 'Bearer k' } });
      expect(JSON.parse(s.requests[0]?.body ?? '')).toEqual(sent);
    });
  }

  it("counts with the simulator's vLLM-shaped /tokenize (one word, one token)", async () => {
    const sim = await startSimulator({});
    servers.push(sim);
    expect(await countTokens({ baseUrl: sim.url }, dialects.generic, 'goodput-sim-1', 'one two three')).toEqual({ ok: true, count: 3 });
  });

  it('says why there is no count: no route, an HTTP error, no count in the answer', async () => {
    expect(await countTokens({ baseUrl: 'http://127.0.0.1:9' }, dialects.ollama, 'm', 'x')).toEqual({ ok: false, reason: 'Ollama has no tokenize route' });
    const failing = await answering(404, { detail: 'Not Found' });
    expect(await countTokens({ baseUrl: failing.url }, dialects.vllm, 'm', 'x')).toEqual({
      ok: false,
      reason: `POST ${failing.url}/tokenize answered HTTP 404`,
    });
    const odd = await answering(200, { ok: true });
    expect(await countTokens({ baseUrl: odd.url }, dialects.vllm, 'm', 'x')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('without a token count'),
    });
    expect(countOf('nope')).toBeNull();
    // A hostile count is no count: negative, fractional, past safe integers, not finite.
    for (const count of [-3, 2.5, 1e300, Number.POSITIVE_INFINITY]) expect(countOf({ count }), String(count)).toBeNull();
    expect(countOf({ count: 7, max_model_len: 8192 })).toBe(7);
  });

  it("counts TGI's bare array of tokens and TEI's batch of one ([[tokens]]) by their tokens, not the batch", () => {
    const token = (id: number) => ({ id, text: 'x', special: false, start: 0, stop: 1 });
    expect(countOf([token(1), token(2), token(3)])).toBe(3);
    expect(countOf([[token(1), token(2), token(3)]])).toBe(3);
    expect(countOf([[token(1)], [token(2)]])).toBe(2);
  });
});
