/**
 * Embeddings and rerank runs through the API, in-process: stored through the
 * ingest routes (as a sweep in another process stores its run while goodput
 * serve holds the database), followed live over SSE, then served by
 * GET /api/runs, /api/runs/:id and its result with their endpoint named; forged
 * ingest bodies and forged rows are refused naming the field.
 */
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, type Json, apiHarness, readEvents } from '../test-support/api-harness.js';
import { type PoolingFixture, poolingFixture } from '../test-support/pooling-fixture.js';
import { patient } from '../test-support/patience.js';

let h: ApiHarness;
let fx: PoolingFixture;
beforeAll(async () => {
  h = await apiHarness();
  fx = await poolingFixture('embeddings');
}, patient(60_000));
afterAll(async () => {
  await h.close();
});

const spec = () => {
  const r = fx.result.run;
  return {
    url: r.url,
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
};
const begin = (url: string, s: Json = spec()) =>
  h.call('POST', '/api/ingest/runs', { serverId: null, serverName: null, targetUrl: url, spec: s, ownerPid: process.pid, ownerHost: hostname() });

describe('an embeddings run stored through the ingest routes', () => {
  let id: number;
  it('is followed live: the snapshot holds the finished levels, then each new one, then the end', async () => {
    const begun = await begin('http://127.0.0.1:9201');
    expect(begun.status).toBe(201);
    id = begun.json.id;
    const [one, two] = fx.levels;
    expect((await h.call('POST', `/api/ingest/runs/${id}/pooling-levels`, { level: one!.level, records: one!.records })).status).toBe(204);
    const res = await h.app.request(`/api/runs/${id}/events`, { headers: { host: '127.0.0.1:7878' } });
    const reading = readEvents(res);
    expect((await h.call('POST', `/api/ingest/runs/${id}/pooling-levels`, { level: two!.level, records: two!.records })).status).toBe(204);
    expect((await h.call('POST', `/api/ingest/runs/${id}/pooling-finish`, { result: fx.result })).status).toBe(204);
    const events = await reading;
    expect(events[0]).toMatchObject({ kind: 'snapshot', state: { levels: [], poolingLevels: [fx.result.levels[0]] } });
    expect(events.filter((e) => e.kind === 'pooling-level-end').map((e) => e.level)).toEqual([fx.result.levels[1]]);
    expect(events[events.length - 1]).toMatchObject({ kind: 'end', status: 'complete' });
  });

  it('is listed with its endpoint and peak in items/s, and served whole with its result and records', async () => {
    const list = await h.call('GET', '/api/runs');
    expect(list.json.find((r: Json) => r.id === id)).toMatchObject({
      endpoint: 'embeddings',
      peakThroughputTokS: null,
      peakItemsPerS: fx.result.peak!.itemsPerS,
      peakConcurrency: fx.result.peak!.concurrency,
    });
    const detail = await h.call('GET', `/api/runs/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.json).toMatchObject({ endpoint: 'embeddings', levels: [], spec: { endpoint: 'embeddings', itemsPerRequest: 4 } });
    expect(detail.json.pooling.result).toEqual(fx.result);
    const result = await h.call('GET', `/api/runs/${id}/result`);
    expect(result.json).toEqual(fx.result);
    const records = await h.call('GET', `/api/runs/${id}/records?concurrency=2`);
    expect(records.json).toHaveLength(fx.levels[1]!.records.length);
  });

  it('a row edited to break its schema is a 500 naming the field, never served as data', async () => {
    await h.store.driver.query(`UPDATE levels SET result = jsonb_set(result, '{failed}', '-1') WHERE run_id = $1 AND concurrency = 1`, [id]);
    for (const path of [`/api/runs/${id}`, `/api/runs/${id}/result`]) {
      const r = await h.call('GET', path);
      expect(r.status).toBe(500);
      expect(r.json.error).toMatchObject({ code: 'internal', field: 'levels.0.failed' });
      expect(r.json.error.message).toContain(`run ${id} is stored broken`);
    }
  });
});

describe('forged ingest bodies are refused naming the field', () => {
  let id: number;
  beforeAll(async () => {
    id = (await begin('http://127.0.0.1:9202')).json.id;
  });
  const level = () => structuredClone(fx.levels[0]!);
  const cases: Array<[string, () => Json, string, string]> = [
    ['a negative rate', () => ({ ...level(), level: { ...level().level, itemsPerS: -3 } }), 'pooling-levels', 'level.itemsPerS'],
    ['a dimension past the limits table', () => ({ ...level(), level: { ...level().level, dimension: 10_000_000 } }), 'pooling-levels', 'level.dimension'],
    [
      'a record carrying more inputs than any request may',
      () => ({ level: level().level, records: [{ ...level().records[0], items: 1e9 }] }),
      'pooling-levels',
      'records.0.items',
    ],
    [
      'a record ending before it was sent',
      () => ({ level: level().level, records: [{ ...level().records[0], sentNs: 10, endNs: 5 }] }),
      'pooling-levels',
      'records.0.endNs',
    ],
    [
      'a record of an unknown outcome',
      () => ({ level: level().level, records: [{ ...level().records[0], outcome: { kind: 'fine' } }] }),
      'pooling-levels',
      'records.0.outcome.kind',
    ],
    ['a text level sent as a pooling one', () => ({ level: { concurrency: 1, throughputTokS: 5 }, records: [] }), 'pooling-levels', 'level.requests'],
    [
      'a result of the wrong schema',
      () => ({ result: { ...fx.result, run: { ...fx.result.run, endpoint: 'chat' } } }),
      'pooling-finish',
      'result.run.endpoint',
    ],
  ];
  for (const [what, body, route, field] of cases) {
    it(what, async () => {
      const r = await h.call('POST', `/api/ingest/runs/${id}/${route}`, body());
      expect(r.status).toBe(400);
      expect(r.json.error.field).toBe(field);
      expect(r.json.error.message).toMatch(new RegExp(`^${field.replaceAll('.', '\\.')}: `));
    });
  }
  it('a spec past the limits table, named in the pooling spec', async () => {
    const r = await begin('http://127.0.0.1:9203', { ...spec(), itemsPerRequest: 1_000_000 });
    expect(r.status).toBe(400);
    expect(r.json.error.field).toBe('spec.itemsPerRequest');
  });
});

describe('POST /api/runs with an embeddings or rerank spec', () => {
  let serverId: number;
  beforeAll(async () => {
    const added = await h.call('POST', '/api/servers', { name: 'pooling-sim', baseUrl: h.sim.url, hourlyCostUsd: 1 });
    expect(added.status).toBe(201);
    serverId = added.json.id;
  });

  it('starts the sweep, streams its levels and stores it with its result', async () => {
    const r = await h.call('POST', '/api/runs', {
      serverId,
      endpoint: 'rerank',
      levels: [1, 2],
      itemsPerRequest: 3,
      itemTokens: 8,
      queryTokens: 4,
      requestsPerLevel: 2,
      latencySlo: { p: 95, maxMs: 10_000 },
    });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    const res = await h.app.request(`/api/runs/${r.json.runId}/events`, { headers: { host: '127.0.0.1:7878' } });
    const events = await readEvents(res);
    expect(events[events.length - 1]).toMatchObject({ kind: 'end', status: 'complete' });
    const detail = (await h.call('GET', `/api/runs/${r.json.runId}`)).json;
    expect(detail).toMatchObject({
      endpoint: 'rerank',
      serverName: 'pooling-sim',
      status: 'complete',
      spec: { endpoint: 'rerank', itemsPerRequest: 3, queryTokens: 4 },
    });
    expect(detail.pooling.result.levels.map((l: Json) => [l.concurrency, l.failed])).toEqual([
      [1, 0],
      [2, 0],
    ]);
    expect(detail.pooling.result.run).toMatchObject({ path: '/v1/rerank', itemsPerRequest: 3, hourlyCostUsd: 1 });
    expect(detail.pooling.result.capacity.statement).toMatch(/^capacity at latency p95 ≤ 10000 ms/);
  });

  const bad: Array<[string, Json, string, RegExp]> = [
    ['a batch past the limits table', { endpoint: 'embeddings', itemsPerRequest: 5000 }, 'itemsPerRequest', /above the limit of 2048/],
    ['a text-only field', { endpoint: 'embeddings', outputTokens: 64 }, 'outputTokens', /unknown field\(s\): outputTokens/],
    ['tokens past the limits table', { endpoint: 'rerank', itemTokens: 1e12 }, 'itemTokens', /itemTokens/],
    ['an objective of no percentile', { endpoint: 'embeddings', latencySlo: { p: 0, maxMs: 10 } }, 'latencySlo.p', /p must be above 0/],
    ['requests too large to send', { endpoint: 'embeddings', itemsPerRequest: 2048, itemTokens: 100_000 }, 'itemsPerRequest', /more than fit in/],
  ];
  for (const [what, extra, field, message] of bad) {
    it(`refuses ${what}, naming ${field}, and begins no run`, async () => {
      const before = (await h.call('GET', '/api/runs')).json.length;
      const r = await h.call('POST', '/api/runs', { serverId, levels: [1], ...extra });
      expect(r.status).toBe(400);
      expect(r.json.error.field).toBe(field);
      expect(r.json.error.message).toMatch(message);
      expect((await h.call('GET', '/api/runs')).json.length).toBe(before);
    });
  }
});
