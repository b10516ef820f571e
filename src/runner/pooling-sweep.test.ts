import { afterEach, describe, expect, it } from 'vitest';
import { poolingResultSchema } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { startEmbeddingsServer, vectorsBody } from '../test-support/embeddings-server.js';
import { SweepError } from './errors.js';
import { runSweep } from './run-kinds.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});
async function sim(profile: Parameters<typeof startSimulator>[0] = {}): Promise<SimServer> {
  const s = await startSimulator({ pooling: { dimension: 64, msPerInputToken: 0.0005 }, ...profile });
  closers.push(() => s.close());
  return s;
}

describe('runSweep against the simulator', () => {
  it('embeddings at 1,2,4,8 with 16 inputs of exactly 128 tokens: every vector checked, the server counts 2,048 tokens a request', async () => {
    const s = await sim();
    const ends: number[] = [];
    // The simulator shares this process's loop: a generous client budget keeps its work from reading as our lag.
    const r = await runSweep(
      { url: s.url, endpoint: 'embeddings', levels: [8, 1, 4, 2], itemsPerRequest: 16, itemTokens: 128, clientThreads: 1, clientBudgetMs: 1000 },
      {
        onEvent: (e) => {
          if (e.kind === 'level-end') ends.push(e.level.concurrency);
        },
      },
    );
    expect(poolingResultSchema.parse(r)).toEqual(r);
    expect(ends).toEqual([1, 2, 4, 8]);
    expect(r.run).toMatchObject({ endpoint: 'embeddings', path: '/v1/embeddings', itemsPerRequest: 16, itemTokens: 128, status: 'complete' });
    expect(r.run.tokenizer.exact).toBe(true);
    for (const l of r.levels) {
      expect(l).toMatchObject({ failed: 0, dimension: 64, inputTokensPerRequest: 2048, requests: Math.max(8, 4 * l.concurrency) });
      // Rates are one duration apart: inputs/s is 16 × requests/s and tokens/s 2,048 × requests/s.
      expect(l.itemsPerS).toBeCloseTo(16 * (l.requestsPerS as number), 6);
      expect(l.inputTokensPerS).toBeCloseTo(2048 * (l.requestsPerS as number), 6);
    }
    expect(r.peak).not.toBeNull();
    expect(r.warnings).toEqual([]);
    // The probe (1 token), then warm-ups and measured requests of 2,048 tokens each.
    const sent = r.levels.reduce((a, l) => a + l.requests + 1, 0);
    expect(s.stats().pooling).toEqual({ requests: sent + 1, inputTokens: 1 + sent * 2048 });
  });

  it("Ollama's /api/embed, and rerank with 32 documents: every document scored, query plus document tokens counted", async () => {
    const s = await sim();
    const o = await runSweep({ url: s.url, endpoint: 'embeddings', engine: 'ollama-native', levels: [2], itemsPerRequest: 4, itemTokens: 16 });
    expect(o.run.path).toBe('/api/embed');
    expect(o.levels[0]).toMatchObject({ failed: 0, dimension: 64, inputTokensPerRequest: 64 });
    const r = await runSweep({ url: s.url, endpoint: 'rerank', levels: [1, 4], itemsPerRequest: 32, itemTokens: 64, queryTokens: 16 });
    expect(r.run).toMatchObject({ path: '/v1/rerank', queryTokens: 16 });
    for (const l of r.levels) {
      expect(l).toMatchObject({ failed: 0, dimension: null, inputTokensPerRequest: 32 * (16 + 64) });
      expect(l.itemsPerS).toBeCloseTo(32 * (l.requestsPerS as number), 6);
    }
  });

  it('refuses before sending an endpoint the engine does not serve, naming what it offers', async () => {
    const s = await sim({ dialect: 'tgi' });
    const err = await runSweep({ url: s.url, endpoint: 'embeddings', levels: [1], itemsPerRequest: 2, itemTokens: 8 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SweepError);
    expect((err as Error).message).toBe('endpoint embeddings: TGI does not serve it; it offers chat, completions');
    expect(s.stats().pooling).toEqual({ requests: 0, inputTokens: 0 });
  });

  it('refuses a route the server answers 501 (llama.cpp without --embeddings) with its own words', async () => {
    const srv = await startEmbeddingsServer(() => ({
      status: 501,
      body: JSON.stringify({
        error: { code: 501, message: 'This server does not support embeddings. Start it with `--embeddings`', type: 'not_supported_error' },
      }),
    }));
    closers.push(srv.close);
    const err = await runSweep({ url: srv.url, endpoint: 'embeddings', engine: 'llamacpp', levels: [1], itemsPerRequest: 2, itemTokens: 8 }).catch(
      (e: unknown) => e,
    );
    expect((err as Error).message).toContain('does not serve /v1/embeddings (HTTP 501: This server does not support embeddings. Start it with `--embeddings`)');
    expect((err as Error).message).toContain(
      'llama.cpp offers chat, completions, responses, embeddings (/v1/embeddings), rerank (/v1/rerank /rerank /reranking)',
    );
  });

  it('refuses a 400 (llama.cpp with --embeddings but no --pooling) with its reason, cleaned and bounded, and what to do; nothing past the probe is sent', async () => {
    let asked = 0;
    const message = "Pooling type 'none' is not OAI compatible. Please use a different pooling type\u001b[2J" + 'x'.repeat(600);
    const srv = await startEmbeddingsServer(() => {
      asked++;
      return { status: 400, body: JSON.stringify({ error: { code: 400, message, type: 'invalid_request_error' } }) };
    });
    closers.push(srv.close);
    const err = await runSweep({ url: srv.url, endpoint: 'embeddings', engine: 'llamacpp', levels: [1, 2], itemsPerRequest: 2, itemTokens: 8 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SweepError);
    expect((err as SweepError).code).toBe('preflight-refused');
    const text = (err as Error).message;
    expect(text).toMatch(
      /^endpoint embeddings: the server answered 400 on \/v1\/embeddings: Pooling type 'none' is not OAI compatible\. Please use a different pooling typex+… — start llama-server with --pooling mean \(or cls, last\); nothing was measured$/,
    );
    expect(text).not.toContain('\u001b');
    expect(text.length).toBeLessThan(450);
    expect(asked).toBe(1);
    // Another engine's 403 is refused the same way, with no hint; a 429 (busy) is not a refusal of the route.
    const denied = await startEmbeddingsServer(() => ({ status: 403, body: JSON.stringify({ error: { message: 'key not allowed' } }) }));
    closers.push(denied.close);
    await expect(runSweep({ url: denied.url, endpoint: 'embeddings', levels: [1], itemsPerRequest: 2, itemTokens: 8 })).rejects.toThrow(
      /^endpoint embeddings: the server answered 403 on \/v1\/embeddings: key not allowed; nothing was measured$/,
    );
  });

  it('refuses batch sizes and document counts past the limits table, naming the flag', async () => {
    const err = (input: Parameters<typeof runSweep>[0]) =>
      runSweep(input).then(
        () => null,
        (e: unknown) => (e as Error).message,
      );
    expect(await err({ url: 'http://127.0.0.1:9', endpoint: 'embeddings', levels: [1], itemsPerRequest: 2049, itemTokens: 8 })).toBe(
      'itemsPerRequest: --batch-size 2049 is above the limit of 2048 inputs in one embeddings request',
    );
    expect(await err({ url: 'http://127.0.0.1:9', endpoint: 'rerank', levels: [1], itemsPerRequest: 1025, itemTokens: 8 })).toBe(
      'itemsPerRequest: --documents 1025 is above the limit of 1024 documents in one rerank request',
    );
    expect(await err({ url: 'http://127.0.0.1:9', endpoint: 'embeddings', levels: [1.5], itemsPerRequest: 2, itemTokens: 8 })).toContain('whole number');
    expect(await err({ url: 'http://127.0.0.1:9', endpoint: 'embeddings', levels: [1], itemsPerRequest: 2048, itemTokens: 4096 })).toBe(
      'itemsPerRequest: --batch-size 2048 × --prompt-tokens 4096 makes requests of 8388608 tokens, more than fit in 4194304 bytes in one request body we send',
    );
  });

  it('refuses, before any level, a request body past our own limit', async () => {
    const s = await sim();
    const err = await runSweep({
      url: s.url,
      endpoint: 'embeddings',
      levels: [1],
      itemsPerRequest: 1024,
      itemTokens: 1024,
      tokenizer: { kind: 'approximate' },
    }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(
      /^one request would be \d+ bytes, above the limit of 4194304 bytes in one request body we send: lower --prompt-tokens or --batch-size$/,
    );
    // Only the one-input probe reached the server.
    expect(s.stats().pooling.requests).toBe(1);
  });
});

describe('runSweep against a hostile server', () => {
  it('fails each request whose answer breaks the contract, naming why, and keeps the good ones', async () => {
    // Request 0 is the route probe; then the warm-up; the measured requests take turns being wrong.
    const srv = await startEmbeddingsServer((inputs, n) => {
      if (n < 2) return { status: 200, body: vectorsBody(inputs, 8, 10) };
      switch (n % 4) {
        case 0:
          return { status: 200, body: vectorsBody(inputs - 1, 8, 10) };
        case 1:
          return { status: 200, body: vectorsBody(inputs, 8, 10).replace('0.1', 'NaN') };
        case 2:
          return { status: 200, body: vectorsBody(inputs, (i) => (i === 3 ? 7 : 8), 10) };
        default:
          return { status: 200, body: vectorsBody(inputs, 8, 10) };
      }
    });
    closers.push(srv.close);
    const r = await runSweep({ url: srv.url, endpoint: 'embeddings', levels: [1], itemsPerRequest: 16, itemTokens: 8, requestsPerLevel: 8 });
    const l = r.levels[0];
    expect(l).toMatchObject({ requests: 8, failed: 6, dimension: 8 });
    expect(l?.failures).toEqual(
      expect.arrayContaining([
        { reason: '15 vectors came back for 16 inputs', count: 2 },
        { reason: 'the answer holds NaN, which is not a finite number (and not JSON)', count: 2 },
        { reason: 'mixed dimensions: the vector of input 3 has 7 numbers, an earlier one 8', count: 2 },
      ]),
    );
    expect(r.warnings.map((w) => w.code)).toContain('failed-requests');
    // The server reports 10 tokens for 16 inputs of 8: said once, per input, with the source of our count.
    expect(r.warnings.filter((w) => w.code === 'input-length-mismatch').map((w) => w.message)).toEqual([
      expect.stringMatching(/^the server counted 10\.0 input tokens per request \(its usage\), 128 sent by .*: -7\.4 per input/),
    ]);
    expect(r.peak).toBeNull();
  });
});

describe('runSweep against a server that goes away', () => {
  it('ends as server-failed with the reason, keeping the finished level', async () => {
    const srv = await startEmbeddingsServer((inputs) => ({ status: 200, body: vectorsBody(inputs, 4, 2) }));
    let closed = false;
    const r = await runSweep(
      { url: srv.url, endpoint: 'embeddings', levels: [1, 2], itemsPerRequest: 2, itemTokens: 4, requestsPerLevel: 3, warmup: 0 },
      {
        afterLevel: async () => {
          if (!closed) {
            closed = true;
            await srv.close();
          }
        },
      },
    );
    expect(r.run.status).toBe('server-failed');
    expect(r.run.stopReason).toMatch(/^the server stopped answering during the concurrency-2 level: ECONNREFUSED/);
    expect(r.levels.map((l) => l.concurrency)).toEqual([1]);
  });
});

describe('runSweep stopped', () => {
  it('keeps the levels finished before a stop and drops the one in flight', async () => {
    const s = await startSimulator({ pooling: { dimension: 8, msPerInputToken: 0.05 } });
    closers.push(() => s.close());
    const ctrl = new AbortController();
    const r = await runSweep(
      { url: s.url, endpoint: 'embeddings', levels: [1, 2], itemsPerRequest: 2, itemTokens: 16, requestsPerLevel: 20 },
      {
        signal: ctrl.signal,
        onEvent: (e) => {
          if (e.kind === 'request' && e.concurrency === 2 && e.done === 3) ctrl.abort();
        },
      },
    );
    expect(r.run).toMatchObject({ status: 'stopped', stopReason: 'stopped by the user; 1 level(s) complete' });
    expect(r.levels.map((l) => [l.concurrency, l.requests, l.failed])).toEqual([[1, 20, 0]]);
  });
});
