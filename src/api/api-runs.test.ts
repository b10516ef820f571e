/**
 * The page's API end to end, in-process: registering (the key never comes
 * back), Start refused for a stopped server and for a busy one, a run
 * streamed over SSE to its end, Stop keeping finished levels, and the result
 * export whose cards are exactly the run's.
 */
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepResultSchema } from '../core/index.js';
import { type ApiHarness, apiHarness, readEvents } from '../test-support/api-harness.js';
import { storedTextSpec } from '../test-support/stored-spec.js';

let h: ApiHarness;
let simId: number;
const SECRET = 'sk-never-in-a-response-123';

beforeAll(async () => {
  h = await apiHarness();
  const added = await h.call('POST', '/api/servers', { name: 'sim', baseUrl: h.sim.url, apiKey: SECRET, gpuLabel: 'SimGPU', hourlyCostUsd: 3 });
  expect(added.status).toBe(201);
  simId = added.json.id;
});
afterAll(async () => {
  await h.close();
});

async function events(runId: number) {
  const res = await h.app.request(`/api/runs/${runId}/events`, { headers: { host: '127.0.0.1:7878' } });
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  return readEvents(res);
}

describe('servers', () => {
  it('registers with a real probe and never returns the API key', async () => {
    const list = await h.call('GET', '/api/servers');
    expect(list.json[0]).toMatchObject({ name: 'sim', hasApiKey: true, status: { state: 'running', model: expect.any(String) } });
    const checked = await h.call('POST', `/api/servers/${simId}/check`);
    for (const body of [list, checked, await h.call('POST', '/api/servers/check')]) expect(JSON.stringify(body.json)).not.toContain(SECRET);
  });
  it('a server with nothing listening is registered as stopped, with the reason', async () => {
    const r = await h.call('POST', '/api/servers', { name: 'down', baseUrl: 'http://127.0.0.1:9' });
    expect(r.status).toBe(201);
    expect(r.json.status).toMatchObject({ state: 'stopped', detail: 'nothing is listening at 127.0.0.1:9 (connection refused)' });
  });
});

describe('runs', () => {
  it('refuses Start on a stopped server with the reason, before anything runs', async () => {
    const down = (await h.call('GET', '/api/servers')).json.find((s: { name: string }) => s.name === 'down');
    const before = (await h.call('GET', '/api/runs')).json.length;
    const r = await h.call('POST', '/api/runs', { serverId: down.id, levels: [1] });
    expect(r.status).toBe(409);
    expect(r.json.error).toMatchObject({ code: 'server-not-running', field: 'serverId' });
    expect(r.json.error.message).toMatch(/server "down" is stopped: nothing is listening .* Nothing was run/);
    expect((await h.call('GET', '/api/runs')).json).toHaveLength(before);
  });

  it('runs a sweep, streams its progress and stores it; a second run on the same server is refused meanwhile', async () => {
    const started = await h.call('POST', '/api/runs', { serverId: simId, levels: [2, 1], outputTokens: 64, requestsPerLevel: 4, baselineRateUsdPer1M: 2 });
    expect(started.status).toBe(201);
    const runId = started.json.runId;
    const second = await h.call('POST', '/api/runs', { serverId: simId, levels: [1] });
    expect(second.status).toBe(409);
    expect(second.json.error).toMatchObject({ code: 'run-in-progress', field: 'serverId' });
    expect(second.json.error.message).toMatch(/contend/);

    const ev = await events(runId);
    const kinds = ev.map((e) => e.kind);
    expect(kinds[0]).toBe('snapshot');
    expect(kinds).toContain('level-start');
    expect(kinds.filter((k) => k === 'level-end')).toHaveLength(2);
    expect(ev.at(-1)).toMatchObject({ kind: 'end', status: 'complete' });
    expect(ev.some((e) => e.kind === 'warning' && e.warning.code === 'short-output')).toBe(true);

    const run = (await h.call('GET', `/api/runs/${runId}`)).json;
    expect(run).toMatchObject({ status: 'complete', serverName: 'sim', levelsDone: 2, outputTokens: 64 });
    expect(run.levels.map((l: { concurrency: number }) => l.concurrency)).toEqual([1, 2]);
    expect(run.warnings.map((w: { code: string }) => w.code)).toContain('short-output');
    expect(run.cards.platform).toMatchObject({ gpu: 'SimGPU', hourlyCostUsd: 3, baselineRateUsdPer1M: 2 });
    expect(JSON.stringify(run)).not.toContain(SECRET);

    const exported = (await h.call('GET', `/api/runs/${runId}/result`)).json;
    expect(sweepResultSchema.parse(exported).cards).toEqual(run.cards);
    expect(JSON.stringify(exported.cards, null, 2)).toBe(JSON.stringify(run.cards, null, 2));
    const records = (await h.call('GET', `/api/runs/${runId}/records?concurrency=2`)).json;
    expect(records).toHaveLength(1 + 4);
    const list = (await h.call('GET', '/api/runs')).json;
    expect(list[0]).toMatchObject({ id: runId, status: 'complete', peakThroughputTokS: run.cards.engine.peakThroughputTokS });
  });

  it('Stop ends the run cleanly and keeps the finished levels', async () => {
    const slow = await apiHarness({ decodeStepMs: 2 });
    try {
      const id = (await slow.call('POST', '/api/servers', { name: 'slow', baseUrl: slow.sim.url })).json.id;
      const runId = (await slow.call('POST', '/api/runs', { serverId: id, levels: [1, 16], outputTokens: 128 })).json.runId;
      const res = await slow.app.request(`/api/runs/${runId}/events`, { headers: { host: '127.0.0.1:7878' } });
      let stopped: Promise<{ status: number }> | null = null;
      // Stop as soon as the second level starts: the first is finished and must be kept.
      const reading = readEvents(res, 30_000, (e) => {
        if (e.kind === 'level-start' && e.progress.index === 1) stopped ??= slow.call('POST', `/api/runs/${runId}/stop`);
      });
      const ev = await reading;
      expect(ev.at(-1)).toMatchObject({ kind: 'end', status: 'stopped' });
      const run = (await slow.call('GET', `/api/runs/${runId}`)).json;
      expect(run.status).toBe('stopped');
      expect(run.levels.map((l: { concurrency: number }) => l.concurrency)).toEqual([1]);
      expect((await slow.call('POST', `/api/runs/${runId}/stop`)).json.error.code).toBe('not-active');
    } finally {
      await slow.close();
    }
  });

  it('follows a run that another process writes (shared PostgreSQL) through the store', async () => {
    const { sweepFixture } = await import('../test-support/sweep-fixture.js');
    const fx = await sweepFixture();
    const id = await h.store.runs.begin({
      serverId: null,
      serverName: null,
      targetUrl: 'http://127.0.0.1:9999',
      ownerPid: process.pid,
      ownerHost: hostname(),
      spec: storedTextSpec({ url: 'http://127.0.0.1:9999', hourlyCostUsd: null, command: '' }),
    });
    const res = await h.app.request(`/api/runs/${id}/events`, { headers: { host: '127.0.0.1:7878' } });
    const reading = readEvents(res);
    for (const l of fx.levels) await h.store.levels.save(id, l.level, l.records);
    await h.store.runs.finish(id, fx.result);
    const ev = await reading;
    expect(ev[0].kind).toBe('snapshot');
    expect(ev[0].state.levels.length + ev.filter((e) => e.kind === 'level-end').length).toBe(2);
    expect(ev.at(-1)).toMatchObject({ status: 'complete' });
  });

  it('the events of a finished run are just its end', async () => {
    const runId = (await h.call('GET', '/api/runs')).json[0].id;
    expect(await events(runId)).toEqual([{ kind: 'end', status: 'complete', reason: null }]);
  });
});
