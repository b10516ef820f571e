import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS, poolingResultSchema } from '../core/index.js';
import { type RankScript, startRankServer } from '../test-support/rank-server.js';
import { useSimulators } from '../test-support/simulators.js';
import { SweepError } from './errors.js';
import { runSweep } from './run-kinds.js';

const sim = useSimulators({ pooling: { dimension: 64, msPerInputToken: 0.0005 } });
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});
async function rankServer(script: RankScript, opts: Parameters<typeof startRankServer>[1] = {}) {
  const s = await startRankServer(script, opts);
  closers.push(s.close);
  return s;
}
const failure = (err: unknown) => (err instanceof SweepError ? err.message : `not a SweepError: ${String(err)}`);

describe("rerank over vLLM's /score and TEI's own routes, against the simulator", () => {
  it('vLLM /score with 32 documents: text_1 and text_2 sent, every document scored, query plus document tokens counted', async () => {
    const s = await sim();
    const r = await runSweep({
      url: s.url,
      endpoint: 'rerank',
      engine: 'vllm',
      route: '/score',
      levels: [1, 4],
      itemsPerRequest: 32,
      itemTokens: 64,
      queryTokens: 16,
      clientThreads: 1,
    });
    expect(poolingResultSchema.parse(r)).toEqual(r);
    expect(r.run).toMatchObject({ endpoint: 'rerank', path: '/score', status: 'complete' });
    for (const l of r.levels) {
      expect(l).toMatchObject({ failed: 0, dimension: null, inputTokensPerRequest: 32 * (16 + 64) });
      expect(l.itemsPerS).toBeCloseTo(32 * (l.requestsPerS as number), 6);
    }
    // The probe, then warm-ups and measured requests: every one at /score, on the encoder's schedule.
    const sent = r.levels.reduce((a, l) => a + l.requests + 1, 0);
    expect(s.stats().pooling.requests).toBe(sent + 1);
  });

  it('TEI: /rerank with {query, texts} by default, its token count from x-compute-tokens; /embed by --route', async () => {
    const s = await sim();
    const r = await runSweep({
      url: s.url,
      endpoint: 'rerank',
      engine: 'tei',
      levels: [2],
      itemsPerRequest: 8,
      itemTokens: 32,
      queryTokens: 8,
      clientThreads: 1,
    });
    expect(r.run).toMatchObject({ path: '/rerank', engine: { name: 'tei', dialect: 'tei' } });
    expect(r.levels[0]).toMatchObject({ failed: 0, inputTokensPerRequest: 8 * (8 + 32) });
    const e = await runSweep({
      url: s.url,
      endpoint: 'embeddings',
      engine: 'tei',
      route: '/embed',
      levels: [2],
      itemsPerRequest: 4,
      itemTokens: 16,
      clientThreads: 1,
    });
    expect(e.run.path).toBe('/embed');
    expect(e.levels[0]).toMatchObject({ failed: 0, dimension: 64, inputTokensPerRequest: 64 });
  });

  it('refuses, before sending anything, a route the engine does not serve, naming every route it offers', async () => {
    const s = await sim();
    expect(
      failure(
        await runSweep({ url: s.url, endpoint: 'embeddings', engine: 'vllm', route: '/embed', levels: [1], itemsPerRequest: 2, itemTokens: 8 }).catch(
          (e: unknown) => e,
        ),
      ),
    ).toBe(
      'route /embed: vLLM does not serve it for embeddings; it offers chat, completions, responses, embeddings (/v1/embeddings), rerank (/v1/rerank /rerank /v2/rerank /score /v1/score)',
    );
    expect(
      failure(
        await runSweep({ url: s.url, endpoint: 'rerank', engine: 'tei', route: '/score', levels: [1], itemsPerRequest: 2, itemTokens: 8 }).catch(
          (e: unknown) => e,
        ),
      ),
    ).toBe('route /score: TEI does not serve it for rerank; it offers embeddings (/v1/embeddings /embed /embeddings), rerank (/rerank)');
    expect(
      failure(await runSweep({ url: s.url, endpoint: 'rerank', route: 'score', levels: [1], itemsPerRequest: 2, itemTokens: 8 }).catch((e: unknown) => e)),
    ).toBe('route: route must be a path such as /score');
    expect(
      failure(
        await runSweep({
          url: s.url,
          endpoint: 'rerank',
          route: `/${'a'.repeat(LIMITS.routeChars.max)}`,
          levels: [1],
          itemsPerRequest: 2,
          itemTokens: 8,
        }).catch((e: unknown) => e),
      ),
    ).toContain(`above the limit of ${LIMITS.routeChars.max}`);
    expect(s.stats().pooling).toEqual({ requests: 0, inputTokens: 0 });
  });

  it('a text sweep against TEI is refused naming what it serves', async () => {
    const s = await sim();
    const err = await runSweep({
      url: s.url,
      engine: 'tei',
      levels: [1],
      requestsPerLevel: 1,
      warmup: 0,
      promptTokens: 8,
      outputTokens: 4,
      serverMetrics: false,
      gpuSource: 'none',
    }).catch((e: unknown) => e);
    expect(failure(err)).toBe('endpoint chat: TEI generates no text; it offers embeddings (/v1/embeddings /embed /embeddings), rerank (/rerank)');
    expect(s.stats().accepted).toBe(0);
  });
});

describe('a TEI server (no /v1/models) and hostile rank answers', () => {
  const teiRanks = (texts: number) => JSON.stringify(Array.from({ length: texts }, (_, index) => ({ index, score: 1 - index / 10 })));

  it('finds TEI by /info, runs its model, and refuses another model naming the one served', async () => {
    // TEI's /tokenize reads {inputs} (422 for any other body) and answers one text as a batch of one: [[tokens]].
    const tokenize = (body: Record<string, unknown>) =>
      typeof body.inputs === 'string'
        ? {
            body: JSON.stringify([
              body.inputs
                .split(/\s+/)
                .filter((w) => w !== '')
                .map((text, id) => ({ id, text, special: false, start: 0, stop: 1 })),
            ]),
          }
        : { status: 422, body: JSON.stringify({ error: 'missing field `inputs`', error_type: 'validation' }) };
    const srv = await rankServer(
      (path, body) =>
        path === '/rerank'
          ? { body: teiRanks((body.texts as unknown[]).length), headers: { 'x-compute-tokens': '30' } }
          : path === '/tokenize'
            ? tokenize(body)
            : { status: 404, body: '{}' },
      { tei: true },
    );
    const r = await runSweep({
      url: srv.url,
      endpoint: 'rerank',
      levels: [1],
      itemsPerRequest: 3,
      itemTokens: 4,
      requestsPerLevel: 2,
      warmup: 0,
      clientThreads: 1,
    });
    expect(r.run).toMatchObject({ model: 'BAAI/bge-reranker-base', path: '/rerank', engine: { name: 'tei', version: '1.5.0', detection: 'detected' } });
    expect(r.run.tokenizer).toMatchObject({ exact: true, label: expect.stringContaining('TGI body') });
    expect(r.levels[0]).toMatchObject({ failed: 0, requests: 2, inputTokensPerRequest: 30 });
    const other = await runSweep({
      url: srv.url,
      endpoint: 'rerank',
      model: 'other',
      levels: [1],
      itemsPerRequest: 3,
      itemTokens: 4,
      tokenizer: { kind: 'approximate' },
    }).catch((e: unknown) => e);
    expect(failure(other)).toBe(`Model "other" is not served by ${srv.url}; TEI serves BAAI/bge-reranker-base (GET /info)`);
  });

  // Each measured request gets one broken answer; the probe (POST 0) a good one.
  const broken =
    (good: (n: number) => string, bad: string[]): RankScript =>
    (_path, body, n) => {
      const docs = ((body.texts ?? body.text_2) as unknown[]).length;
      if (n === 0) return { body: good(docs) };
      return n - 1 === bad.length ? 'huge' : { body: bad[n - 1] as string };
    };
  const expectFailures = async (url: string, route: string, engine: 'vllm' | 'tei', count: number) => {
    const r = await runSweep({
      url,
      endpoint: 'rerank',
      engine,
      route,
      levels: [1],
      itemsPerRequest: 2,
      itemTokens: 4,
      requestsPerLevel: count,
      warmup: 0,
      tokenizer: { kind: 'approximate' },
      clientThreads: 1,
    });
    expect(r.levels[0]).toMatchObject({ requests: count, failed: count });
    return r.levels[0]?.failures.map((f) => f.reason).sort();
  };

  it('vLLM /score: a missing score, a duplicate index, NaN, an index out of range and a body past the limit each fail naming why', async () => {
    const data = (rows: unknown[]) => JSON.stringify({ object: 'list', data: rows, usage: { prompt_tokens: 4 } });
    const srv = await rankServer(
      broken(
        (d) => data(Array.from({ length: d }, (_, index) => ({ index, object: 'score', score: 0.5 }))),
        [
          data([{ index: 0, score: 0.4 }, { index: 1 }]),
          data([
            { index: 0, score: 0.4 },
            { index: 0, score: 0.3 },
          ]),
          '{"data":[{"index":0,"score":NaN},{"index":1,"score":0.2}]}',
          data([
            { index: 0, score: 0.4 },
            { index: 2, score: 0.3 },
          ]),
        ],
      ),
      { hugeBytes: LIMITS.poolingResponseBytes.max + 2 * 1024 * 1024 },
    );
    expect(await expectFailures(srv.url, '/score', 'vllm', 5)).toEqual(
      [
        'document 0 appears twice in the answer',
        'document 1 has no finite score (missing)',
        `the answer went past the limit of ${LIMITS.poolingResponseBytes.max} bytes in one embeddings or rerank response from a server`,
        'the answer holds NaN, which is not a finite number (and not JSON)',
        'the answer names document 2, but 2 were sent',
      ].sort(),
    );
  });

  it('TEI /rerank: the same breakages in its bare-array shape fail naming why', async () => {
    const srv = await rankServer(
      broken(teiRanks, [
        JSON.stringify([{ index: 0, score: 0.4 }]),
        JSON.stringify([
          { index: 1, score: 0.4 },
          { index: 1, score: 0.3 },
        ]),
        '[{"index":0,"score":0.1},{"index":1,"score":Infinity}]',
        JSON.stringify([
          { index: 0, score: 0.4 },
          { index: -1, score: 0.3 },
        ]),
      ]),
      { tei: true, hugeBytes: LIMITS.poolingResponseBytes.max + 2 * 1024 * 1024 },
    );
    expect(await expectFailures(srv.url, '/rerank', 'tei', 5)).toEqual(
      [
        'document 1 appears twice in the answer',
        'document 1 got no score',
        `the answer went past the limit of ${LIMITS.poolingResponseBytes.max} bytes in one embeddings or rerank response from a server`,
        'the answer holds Infinity, which is not a finite number (and not JSON)',
        'the answer names document -1, but 2 were sent',
      ].sort(),
    );
  });
});
