/**
 * The store's contract, run against both back ends (PGlite and a real
 * PostgreSQL): servers, runs, levels with their raw records, the interrupted
 * rule, the one-run-per-server rule and export.
 */
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SweepResult, sweepResultSchema } from '../core/index.js';
import { backends } from '../test-support/store-backends.js';
import { type SweepFixture, sweepFixture } from '../test-support/sweep-fixture.js';
import { storedTextSpec } from '../test-support/stored-spec.js';
import { type BeginRun, type Store, StoreError, MIGRATIONS, exportResult, migrate } from './index.js';

let fx: SweepFixture;
beforeAll(async () => {
  fx = await sweepFixture();
});

const status = (state: 'running' | 'stopped' | 'unreachable' = 'running') => ({
  state,
  detail: null,
  model: 'sim-model',
  checkedAt: '2025-01-02T03:04:05.000Z',
});
const spec = (url: string) => storedTextSpec({ url });
const begin = (url = 'http://127.0.0.1:9001', pid = process.pid): BeginRun => ({
  serverId: null,
  serverName: null,
  targetUrl: url,
  spec: spec(url),
  ownerPid: pid,
  ownerHost: hostname(),
});
/** A pid that existed a moment ago and no longer does. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid as number;

async function storedRun(store: Store, url = 'http://127.0.0.1:9001'): Promise<number> {
  const id = await store.runs.begin(begin(url));
  for (const l of fx.levels) await store.levels.save(id, l.level, l.records);
  await store.runs.finish(id, fx.result);
  return id;
}

for (const backend of backends()) {
  describe(`store on ${backend.name}`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await backend.open();
    });
    afterAll(async () => {
      await store?.close();
      backend.teardown();
    });
    beforeEach(async () => {
      await store.driver.query('DELETE FROM runs');
      await store.driver.query('DELETE FROM servers');
    });

    it('migrates once: a second migrate applies nothing', async () => {
      expect(await migrate(store.driver)).toEqual([]);
      const rows = await store.driver.query<{ version: number }>('SELECT version FROM schema_migrations');
      expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
      expect(rows.map((r) => r.version)).toEqual([1, 2, 3, 4, 5]);
    });

    it('registers servers; the API key is stored but never in a view', async () => {
      const added = await store.servers.add(
        { name: 'gpu-box', baseUrl: 'http://127.0.0.1:8000', apiKey: 'sk-very-secret', model: 'm', gpuLabel: 'H100', hourlyCostUsd: 6.5 },
        status(),
      );
      expect(added).toMatchObject({ name: 'gpu-box', hasApiKey: true, gpuLabel: 'H100', hourlyCostUsd: 6.5, status: status() });
      expect(await store.servers.get('gpu-box')).toEqual(added);
      expect(await store.servers.get(String(added.id))).toEqual(added);
      expect(JSON.stringify(await store.servers.list())).not.toContain('sk-very-secret');
      expect(await store.servers.secret(added.id)).toBe('sk-very-secret');
      const checked = await store.servers.setStatus(added.id, { ...status('stopped'), detail: 'connection refused' });
      expect(checked.status.state).toBe('stopped');
    });

    it('refuses a duplicate server name and an unknown server, naming them', async () => {
      await store.servers.add({ name: 'a', baseUrl: 'http://127.0.0.1:1' }, status());
      await expect(store.servers.add({ name: 'a', baseUrl: 'http://127.0.0.1:2' }, status())).rejects.toMatchObject({
        code: 'duplicate',
        field: 'name',
        message: expect.stringMatching(/"a" is already registered/),
      });
      await expect(store.servers.get('nope')).rejects.toMatchObject({ code: 'not-found', message: 'no server named "nope" is registered' });
    });

    it('stores levels with their raw records and reads them back unchanged', async () => {
      const id = await storedRun(store);
      const run = await store.runs.get(id);
      expect(run.status).toBe('complete');
      expect(run.levels).toEqual(fx.result.levels);
      const all = await store.levels.records(id);
      // Stored in send order (seq) within each level; the runner hands them over as they finish.
      const bySend = fx.levels.flatMap((l) => [...l.records].sort((x, y) => x.seq - y.seq));
      expect(all).toEqual(bySend);
      expect((await store.levels.records(id, 2)).every((r) => r.concurrency === 2)).toBe(true);
    });

    it('exports exactly the result the sweep produced (same schema, same cards, same key order)', async () => {
      const id = await storedRun(store);
      const exported = exportResult(await store.runs.get(id)) as SweepResult;
      expect(sweepResultSchema.parse(exported)).toEqual(fx.result);
      expect(JSON.stringify(exported.cards)).toBe(JSON.stringify(fx.result.cards));
    });

    it('lists runs newest first with the peak over the valid levels tested', async () => {
      const a = await storedRun(store, 'http://127.0.0.1:9001');
      const b = await storedRun(store, 'http://127.0.0.1:9002');
      const list = await store.runs.list();
      expect(list.map((r) => r.id)).toEqual([b, a]);
      expect(list[0]).toMatchObject({
        status: 'complete',
        levelsDone: 2,
        levelsPlanned: 2,
        peakThroughputTokS: fx.result.cards.engine.peakThroughputTokS,
        peakConcurrency: fx.result.cards.engine.peakConcurrency,
      });
    });

    it('refuses a second running run against the same server, and allows another server', async () => {
      const first = await store.runs.begin(begin('http://127.0.0.1:9001'));
      await expect(store.runs.begin(begin('http://127.0.0.1:9001'))).rejects.toSatisfy(
        (e: unknown) => e instanceof StoreError && e.code === 'run-in-progress' && e.message.includes(`run ${first}`) && /contend/.test(e.message),
      );
      await expect(store.runs.begin(begin('http://127.0.0.1:9002'))).resolves.toBeGreaterThan(first);
    });

    it('a running run whose process is gone reads as interrupted, keeps its levels and frees the server', async () => {
      const id = await store.runs.begin(begin('http://127.0.0.1:9001', deadPid()));
      await store.levels.save(id, fx.levels[0]!.level, fx.levels[0]!.records);
      const run = await store.runs.get(id);
      expect(run.status).toBe('interrupted');
      expect(run.stopReason).toMatch(/ended without finishing it; levels 1 are kept/);
      expect(run.levels.map((l) => l.concurrency)).toEqual([1]);
      expect(run.cards).toBeNull();
      expect(() => exportResult(run)).toThrow(/was interrupted .* goodput runs show/);
      await expect(store.runs.begin(begin('http://127.0.0.1:9001'))).resolves.toBeGreaterThan(id);
    });

    it('a run whose heartbeat went stale reads as interrupted even if its pid lives', async () => {
      const id = await store.runs.begin(begin());
      expect((await store.runs.get(id)).status).toBe('running');
      await store.driver.query(`UPDATE runs SET heartbeat_at = now() - interval '5 minutes' WHERE id = $1`, [id]);
      const run = await store.runs.get(id);
      expect(run.status).toBe('interrupted');
      expect(run.stopReason).toMatch(/has not reported for 300 s; no level had finished/);
    });

    it('a running run is not exportable; warnings are stored as they are raised', async () => {
      const id = await store.runs.begin(begin());
      await store.runs.addWarning(id, { code: 'short-output', message: 'below 128' });
      const run = await store.runs.get(id);
      expect(run.warnings).toEqual([{ code: 'short-output', message: 'below 128' }]);
      expect(() => exportResult(run)).toThrow(/is still running/);
    });

    it('a level is committed whole or not at all', async () => {
      const id = await store.runs.begin(begin());
      const { level, records } = fx.levels[0]!;
      const broken = [...records, records[0]!]; // a duplicate seq violates the key
      await expect(store.levels.save(id, level, broken)).rejects.toThrow();
      expect((await store.runs.get(id)).levels).toEqual([]);
      expect(await store.levels.records(id)).toEqual([]);
    });

    it('keys open-loop levels on their rate, not on the peak in flight they happened to reach', async () => {
      const id = await store.runs.begin(begin());
      const { level, records } = fx.levels[0]!;
      const at = (rps: number) => ({
        ...level,
        concurrency: 3,
        load: {
          kind: 'rate' as const,
          level: rps,
          label: `${rps} req/s`,
          offeredRps: rps,
          achievedRps: rps,
          peakInFlight: 3,
          waitedForSlot: 0,
          scheduleLagMs: null,
        },
      });
      await store.levels.save(id, at(2), records);
      await store.levels.save(id, at(0.5), records);
      expect((await store.runs.get(id)).levels.map((l) => l.load?.level)).toEqual([0.5, 2]);
      expect(await store.levels.records(id, 2)).toHaveLength(records.length);
    });

    it('a discarded run leaves nothing behind', async () => {
      const id = await store.runs.begin(begin());
      await store.runs.discard(id);
      await expect(store.runs.get(id)).rejects.toMatchObject({ code: 'not-found' });
    });

    it('removing a server keeps its runs, with its name', async () => {
      const s = await store.servers.add({ name: 'box', baseUrl: 'http://127.0.0.1:9001' }, status());
      const id = await store.runs.begin({ ...begin(), serverId: s.id, serverName: s.name });
      await store.servers.remove(s.id);
      expect(await store.runs.get(id)).toMatchObject({ serverId: null, serverName: 'box' });
    });
  });
}
