/**
 * A quality score measured in the run (`goodput run --quality-baseline`) is
 * stored with the run and read back by every reader, on both back ends: the
 * store's detail and exported result, and the API's GET run and GET result
 * (what the page's comparison reads); a run without one reads back none; a
 * score edited in the row past what a score can be, or past the limits
 * table, is refused, naming its field.
 */
import { hostname } from 'node:os';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SweepResult, LIMITS, qualityScoreSchema } from '../core/index.js';
import { localCatalog } from '../runs/index.js';
import { type Store, exportResult } from '../store/index.js';
import { measuredQualityFixture } from '../test-support/quality-fixture.js';
import { backends } from '../test-support/store-backends.js';
import { type SweepFixture, sweepFixture } from '../test-support/sweep-fixture.js';
import { storedTextSpec } from '../test-support/stored-spec.js';
import { RunHub, RunManager, createApp } from './index.js';

let fx: SweepFixture;
beforeAll(async () => {
  fx = await sweepFixture();
});

const url = 'http://127.0.0.1:9001';
const spec = storedTextSpec({ url, command: 'goodput run goodput.yaml' });

async function stored(store: Store, result: SweepResult): Promise<number> {
  const id = await store.runs.begin({ serverId: null, serverName: null, targetUrl: url, spec, ownerPid: process.pid, ownerHost: hostname() });
  for (const l of fx.levels) await store.levels.save(id, l.level, l.records);
  await store.runs.finish(id, result);
  return id;
}

/** The API on this store, as `goodput serve` builds it: GET only. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function get(store: Store, path: string): Promise<{ status: number; json: any }> {
  const hub = new RunHub();
  const catalog = localCatalog(store, { hub, probeTimeoutMs: 1500 });
  const app = createApp({
    catalog,
    manager: new RunManager(store, catalog, hub),
    hub,
    token: null,
    writeToken: null,
    host: '127.0.0.1',
    webDir: '/nonexistent',
  });
  const res = await app.request(path, { headers: { host: '127.0.0.1:7878' } });
  return { status: res.status, json: JSON.parse(await res.text()) };
}

const scored = (): SweepResult => ({ ...fx.result, quality: qualityScoreSchema.parse(measuredQualityFixture({ baseline: fx.result, optimized: fx.result })) });

for (const backend of backends()) {
  describe(`in-run quality stored on ${backend.name}`, () => {
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
    });

    it('a run saved with its score reads it back whole, in the detail and the exported result', async () => {
      const result = scored();
      const id = await stored(store, result);
      const run = await store.runs.get(id);
      expect(run.extras['quality']).toEqual(result.quality);
      expect(exportResult(run)).toEqual(result);
      const api = await get(store, `/api/runs/${id}`);
      expect(api.status).toBe(200);
      expect(api.json.extras.quality).toEqual(result.quality);
      const exported = await get(store, `/api/runs/${id}/result`);
      expect(exported.json.quality).toEqual(result.quality);
    });

    it('a run saved without a score reads back none', async () => {
      const id = await stored(store, fx.result);
      const run = await store.runs.get(id);
      expect(run.extras).not.toHaveProperty('quality');
      expect(exportResult(run)).not.toHaveProperty('quality');
      expect((await get(store, `/api/runs/${id}/result`)).json).not.toHaveProperty('quality');
    });

    it('refuses a planted score past what a score can be, naming the field', async () => {
      const id = await stored(store, scored());
      await store.driver.query(`UPDATE runs SET extras = jsonb_set(extras, '{quality,composite}', '1.5') WHERE id = $1`, [id]);
      await expect(store.runs.get(id)).rejects.toMatchObject({ code: 'corrupt', field: 'quality.composite' });
      const api = await get(store, `/api/runs/${id}`);
      expect(api.status).toBe(500);
      expect(JSON.stringify(api.json)).toContain(`run ${id} is stored broken, so it is not shown: quality.composite: `);
    });

    it('refuses a planted score over more prompts than the limits table allows, naming the field and the limit', async () => {
      const id = await stored(store, scored());
      const n = LIMITS.qualityPrompts.max + 1;
      await store.driver.query(`UPDATE runs SET extras = jsonb_set(extras, '{quality,n}', $2::jsonb) WHERE id = $1`, [id, String(n)]);
      await expect(store.runs.get(id)).rejects.toMatchObject({
        code: 'corrupt',
        field: 'quality.n',
        message: expect.stringContaining(String(LIMITS.qualityPrompts.max)),
      });
    });
  });
}
