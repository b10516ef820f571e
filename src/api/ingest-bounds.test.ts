/**
 * What a serve stores through its ingest routes is checked as `goodput runs import`
 * checks a file (the limits table's bounds, records that reproduce each level's
 * counts, a result made of the levels stored), and a row planted in the store past
 * those bounds is refused when read back, by the API and by `runs list`/`runs show`.
 */
import { hostname, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, type Json, apiHarness } from '../test-support/api-harness.js';
import { cli } from '../test-support/cli-in-process.js';
import { type SweepFixture, sweepFixture } from '../test-support/sweep-fixture.js';
import { storedTextSpec } from '../test-support/stored-spec.js';
import { openStore } from '../store/index.js';
import { localCatalog } from '../runs/index.js';
import { patient } from '../test-support/patience.js';

let h: ApiHarness;
let fx: SweepFixture;
beforeAll(async () => {
  h = await apiHarness();
  fx = await sweepFixture();
}, patient(90_000));
afterAll(async () => {
  await h.close();
});

const spec = (over: Json = {}) => storedTextSpec({ forceLength: false, seed: 1, command: 'goodput sweep (test)', ...over });
// Each run its own target: a second running run against one target is refused.
let port = 9000;
const beginBody = (s: Json = spec()) => ({
  serverId: null,
  serverName: null,
  targetUrl: `http://127.0.0.1:${port++}`,
  spec: s,
  ownerPid: process.pid,
  ownerHost: hostname(),
});
const begin = async (s?: Json) => {
  const r = await h.call('POST', '/api/ingest/runs', beginBody(s));
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return r.json.id as number;
};
const level = (id: number, body: Json) => h.call('POST', `/api/ingest/runs/${id}/levels`, body);

describe('ingest, checked like runs import', () => {
  it('stores a real sweep whose levels come with their records and whose result is those levels', async () => {
    const id = await begin();
    for (const l of fx.levels) expect((await level(id, { level: l.level, records: l.records })).status).toBe(204);
    expect((await h.call('POST', `/api/ingest/runs/${id}/finish`, { result: fx.result })).status).toBe(204);
  });

  it.each([
    [
      '50,001 levels',
      { levels: Array.from({ length: 50_001 }, (_, i) => i + 1) },
      'spec.levels',
      /spec\.levels 50001 is above the limit of 64 levels in one run/,
    ],
    [
      '1e15 output tokens',
      { outputTokens: 1e15 },
      'spec.outputTokens',
      /spec\.outputTokens 1000000000000000 is above the limit of 32768 output tokens per request/,
    ],
    ['a million warm-ups', { warmup: 1e6 }, 'spec.warmup', /spec\.warmup 1000000 is above the limit of 100/],
  ])('refuses a spec with %s, naming the field', async (_what, over, field, message) => {
    const r = await h.call('POST', '/api/ingest/runs', beginBody(spec(over)));
    expect(r.status).toBe(400);
    expect(r.json.error.field).toBe(field);
    expect(r.json.error.message).toMatch(message);
  });

  it('refuses a level without records, or with records that are not its requests', async () => {
    const id = await begin();
    const [one, two] = fx.levels;
    const none = await level(id, { level: { ...one!.level, throughputTokS: 123_456 }, records: [] });
    expect(none.status).toBe(400);
    expect(none.json.error).toMatchObject({ field: 'records', message: expect.stringMatching(/a level is stored with the records of its requests/) });
    const foreign = await level(id, { level: one!.level, records: [...one!.records, ...two!.records] });
    expect(foreign.status).toBe(400);
    expect(foreign.json.error).toMatchObject({ field: 'records', message: `records: the records sent holds 6 measured requests; the level's requests says 3` });
  });

  it('refuses to finish with a result claiming levels other than those stored', async () => {
    const id = await begin();
    await level(id, { level: fx.levels[0]!.level, records: fx.levels[0]!.records });
    const short = await h.call('POST', `/api/ingest/runs/${id}/finish`, { result: fx.result });
    expect(short.status).toBe(400);
    expect(short.json.error).toMatchObject({ field: 'result.levels', message: 'result.levels: the result has 2 levels; 1 were stored with their records' });
    await level(id, { level: fx.levels[1]!.level, records: fx.levels[1]!.records });
    const inflated = { ...fx.result, levels: fx.result.levels.map((l, i) => (i === 1 ? { ...l, throughputTokS: 123_456 } : l)) };
    const forged = await h.call('POST', `/api/ingest/runs/${id}/finish`, { result: inflated });
    expect(forged.status).toBe(400);
    expect(forged.json.error.message).toMatch(/^result\.levels: a level of concurrency 2, 3 requests, .* 123456 tok\/s is not one stored with its records$/);
  });
});

describe('a row planted in the store past the bounds', () => {
  it('is refused by GET /api/runs and /api/runs/:id, naming the field', async () => {
    const id = await begin();
    await h.store.driver.query(`UPDATE runs SET spec = jsonb_set(spec, '{outputTokens}', '1000000000000000') WHERE id = $1`, [id]);
    for (const path of ['/api/runs', `/api/runs/${id}`]) {
      const r = await h.call('GET', path);
      expect(r.status, path).toBe(500);
      expect(r.json.error.message).toBe(
        `run ${id} is stored broken, so it is not shown: spec.outputTokens: outputTokens 1000000000000000 is above the limit of 32768 output tokens per request (the row was edited outside goodput)`,
      );
    }
    await h.store.driver.query('DELETE FROM runs WHERE id = $1', [id]);
  });

  it(
    'is refused by goodput runs list and runs show, naming the field',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'goodput-planted-'));
      try {
        const data = join(dir, 'data');
        const store = await openStore({ kind: 'embedded', dir: data }, { kind: 'cli', command: 'test' });
        const writer = await localCatalog(store).beginRun(beginBody() as never);
        await store.driver.query(`UPDATE runs SET spec = jsonb_set(spec, '{levels}', (SELECT jsonb_agg(g) FROM generate_series(1, 50001) g)) WHERE id = $1`, [
          writer.runId,
        ]);
        await store.close();
        for (const args of [
          ['runs', 'list'],
          ['runs', 'show', String(writer.runId)],
        ]) {
          const r = await cli([...args, '--data', data]);
          expect(r.code, args.join(' ')).not.toBe(0);
          expect(r.stderr).toContain(
            `run ${writer.runId} is stored broken, so it is not shown: spec.levels: levels 50001 is above the limit of 64 levels in one run`,
          );
          expect(r.stdout).toBe('');
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    patient(60_000),
  );
});
