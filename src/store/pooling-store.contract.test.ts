/**
 * Embeddings and rerank runs in the store, on both back ends (PGlite and a real
 * PostgreSQL): a run stored level by level reads back as exactly the result its
 * sweep produced, lists with its endpoint and its peak in items/s, keeps its raw
 * records; an interrupted one keeps its levels but is no result; and a row edited
 * to break its schema is refused naming the field.
 */
import { hostname } from 'node:os';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type PoolingResult, poolingPeak, poolingResultSchema } from '../core/index.js';
import { type PoolingFixture, poolingFixture } from '../test-support/pooling-fixture.js';
import { backends } from '../test-support/store-backends.js';
import { type BeginRun, type PoolingRunSpec, type Store, StoreError, exportResult } from './index.js';
import { patient } from '../test-support/patience.js';

let embed: PoolingFixture;
let rerank: PoolingFixture;
beforeAll(async () => {
  embed = await poolingFixture('embeddings');
  rerank = await poolingFixture('rerank');
}, patient(60_000));

const begin = (fx: PoolingFixture, url = 'http://127.0.0.1:9101'): BeginRun => {
  const r = fx.result.run;
  const spec: PoolingRunSpec = {
    url,
    model: null,
    endpoint: r.endpoint,
    levels: r.levelsRequested,
    itemsPerRequest: r.itemsPerRequest,
    itemTokens: r.itemTokens,
    queryTokens: r.queryTokens,
    requestsPerLevel: r.requestsPerLevel,
    warmup: r.warmupPerLevel,
    seed: r.seed,
    hourlyCostUsd: r.hourlyCostUsd,
    latencySlo: r.latencySlo,
    command: r.command,
  };
  return { serverId: null, serverName: null, targetUrl: url, spec, ownerPid: process.pid, ownerHost: hostname() };
};

async function stored(store: Store, fx: PoolingFixture, url?: string): Promise<number> {
  const id = await store.runs.begin(begin(fx, url));
  for (const l of fx.levels) await store.levels.save(id, l.level, l.records);
  await store.runs.finish(id, fx.result);
  return id;
}

/** What reading a run whose row was edited throws. */
async function refusal(store: Store, id: number): Promise<StoreError> {
  const err = await store.runs.get(id).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StoreError);
  return err as StoreError;
}

for (const backend of backends()) {
  describe(`embeddings and rerank runs on ${backend.name}`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await backend.open();
    }, 120_000);
    afterAll(async () => {
      await store?.close();
      backend.teardown();
    });
    beforeEach(async () => {
      await store.driver.query('DELETE FROM runs');
    });

    it('reads back exactly the result the sweep produced, key order included, for embeddings and rerank', async () => {
      for (const fx of [embed, rerank]) {
        const id = await stored(store, fx);
        const run = await store.runs.get(id);
        expect(run.levels).toEqual([]);
        expect(run.pooling?.levels).toEqual(fx.result.levels);
        const exported = exportResult(run) as PoolingResult;
        expect(JSON.stringify(exported)).toBe(JSON.stringify(fx.result));
        expect(poolingResultSchema.parse(exported)).toEqual(fx.result);
        expect(exported.capacity?.statement).toMatch(/^capacity at latency p95 ≤ 5000 ms/);
        await store.driver.query('DELETE FROM runs');
      }
    });

    it('lists a run with its endpoint and its peak in items/s at the peak concurrency, never as tok/s', async () => {
      const a = await stored(store, embed, 'http://127.0.0.1:9101');
      const b = await stored(store, rerank, 'http://127.0.0.1:9102');
      const list = await store.runs.list();
      const byId = new Map(list.map((r) => [r.id, r]));
      for (const [id, fx] of [
        [a, embed],
        [b, rerank],
      ] as const) {
        const r = byId.get(id);
        expect(r).toMatchObject({
          endpoint: fx.result.run.endpoint,
          peakThroughputTokS: null,
          levelsDone: 2,
          levelsPlanned: 2,
          outputTokens: 0,
          thinking: false,
        });
        expect(r?.peakItemsPerS).toBe(fx.result.peak?.itemsPerS);
        expect(r?.peakConcurrency).toBe(fx.result.peak?.concurrency);
      }
    });

    it('lists the peak the result states when the fastest level was client-bound: that level is left out, as the Engine card leaves it out', async () => {
      const fastest = embed.levels.reduce((a, l) => ((l.level.itemsPerS ?? 0) > (a.level.itemsPerS ?? 0) ? l : a));
      const bound = (l: PoolingFixture['levels'][number]['level']) =>
        l === fastest.level && l.clientBound
          ? { ...l, clientBound: { ...l.clientBound, bound: true, reason: "the client's event loop was delayed 15.0 ms (p99)" } }
          : l;
      const levels = embed.levels.map((l) => ({ ...l, level: bound(l.level) }));
      expect(levels.some((l) => l.level.clientBound?.bound === true)).toBe(true);
      const result: PoolingResult = { ...embed.result, levels: levels.map((l) => l.level), peak: poolingPeak(levels.map((l) => l.level)) };
      const id = await store.runs.begin(begin(embed));
      for (const l of levels) await store.levels.save(id, l.level, l.records);
      await store.runs.finish(id, result);
      const listed = (await store.runs.list()).find((r) => r.id === id);
      expect(listed?.peakConcurrency).not.toBe(fastest.level.concurrency);
      expect([listed?.peakItemsPerS ?? null, listed?.peakConcurrency ?? null]).toEqual([result.peak?.itemsPerS ?? null, result.peak?.concurrency ?? null]);
    });

    it('keeps the raw records of every level, warm-ups tagged, in send order', async () => {
      const id = await stored(store, embed);
      const records = await store.levels.records(id);
      expect(records).toEqual(embed.levels.flatMap((l) => [...l.records].sort((x, y) => x.seq - y.seq)));
      expect((await store.levels.records(id, 2)).every((r) => r.concurrency === 2)).toBe(true);
    });

    it('an interrupted run keeps its finished levels and has no result to export', async () => {
      const id = await store.runs.begin(begin(embed));
      await store.levels.save(id, embed.levels[0]!.level, embed.levels[0]!.records);
      await store.runs.abandon(id, 'the sweep broke');
      const run = await store.runs.get(id);
      expect(run.status).toBe('interrupted');
      expect(run.pooling).toEqual({ endpoint: 'embeddings', levels: [embed.result.levels[0]], result: null });
      expect(() => exportResult(run)).toThrow(/run \d+ was interrupted .* has no result to export/);
    });

    it('leaves a level with failed requests out of the listed peak, as the result does', async () => {
      const id = await store.runs.begin(begin(embed));
      const [one, two] = embed.levels;
      await store.levels.save(id, one!.level, one!.records);
      await store.levels.save(id, { ...two!.level, itemsPerS: 1e9, failed: 1, failures: [{ reason: 'HTTP 500', count: 1 }] }, two!.records);
      const r = (await store.runs.list()).find((x) => x.id === id);
      expect(r?.peakItemsPerS).toBe(one!.level.itemsPerS);
      expect(r?.peakConcurrency).toBe(1);
    });

    const forgeries: Array<[string, string, string]> = [
      ['a negative rate in a level', `UPDATE levels SET result = jsonb_set(result, '{itemsPerS}', '-5') WHERE concurrency = 2`, 'levels.1.itemsPerS'],
      [
        'a level past the concurrency limit',
        `UPDATE levels SET result = jsonb_set(result, '{concurrency}', '99999999') WHERE concurrency = 1`,
        'levels.0.concurrency',
      ],
      ['a field the schema does not know', `UPDATE levels SET result = result || '{"ttftMs": 3}'::jsonb WHERE concurrency = 1`, 'levels.0'],
      ['an endpoint swapped for chat', `UPDATE runs SET run_info = jsonb_set(run_info, '{endpoint}', '"chat"')`, 'run.endpoint'],
      ['an endpoint swapped for the other one', `UPDATE runs SET run_info = jsonb_set(run_info, '{endpoint}', '"rerank"')`, 'run.endpoint'],
      ['a batch past the limits table', `UPDATE runs SET run_info = jsonb_set(run_info, '{itemsPerRequest}', '1000000000')`, 'run.itemsPerRequest'],
      [
        'a dimension past the limits table',
        `UPDATE levels SET result = jsonb_set(result, '{dimension}', '1000000000') WHERE concurrency = 1`,
        'levels.0.dimension',
      ],
    ];
    for (const [what, sql, field] of forgeries) {
      it(`refuses a row edited to hold ${what}, naming ${field}`, async () => {
        const id = await stored(store, embed);
        await store.driver.query(sql);
        const err = await refusal(store, id);
        expect(err.code).toBe('corrupt');
        expect(err.field).toBe(field);
        expect(err.message).toContain(`run ${id} is stored broken`);
        expect(err.message).toContain(`${field}:`);
      });
    }
  });
}
