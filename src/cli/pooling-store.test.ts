/**
 * Embeddings and rerank runs through the store commands, against the simulator:
 * a sweep given a store saves as a text sweep does (--no-save keeps it out),
 * runs list names its endpoint and its peak in inputs/s or documents/s, runs
 * show prints its own table, runs export gives back exactly the result and raw
 * records the sweep wrote, and a row edited to break it is refused naming the
 * field. A saved chat run with images keeps them, and runs show names them.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PoolingResult, poolingResultSchema, sweepResultSchema } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { openStore } from '../store/index.js';
import { cli } from '../test-support/cli-in-process.js';

let sim: SimServer;
const dir = mkdtempSync(join(tmpdir(), 'goodput-pooling-store-'));
const data = join(dir, 'db');
// Storage is under test, not our client's check on itself: a loaded machine must not make every level client-bound and take the peak away.
const QUICK = [
  '--levels',
  '1,2',
  '--prompt-tokens',
  '16',
  '--requests-per-level',
  '4',
  '--hourly-cost',
  '2',
  '--latency-slo',
  'p95:5000',
  '--client-threads',
  '1',
  '--client-budget-ms',
  '1000',
];
beforeAll(async () => {
  sim = await startSimulator({
    prefillBaseMs: 1,
    prefillMsPerToken: 0,
    decodeStepMs: 1,
    images: { encoderMsPerImage: 0 },
    pooling: { dimension: 32, msPerInputToken: 0.0005 },
  });
});
afterAll(async () => {
  await sim.close();
});

const read = (path: string) => readFileSync(path, 'utf8');

describe('goodput sweep --endpoint embeddings|rerank with a store', () => {
  let embedJson: PoolingResult;
  it('stores the run when a store is named (as a text sweep does), level by level, and says where to see it', async () => {
    const json = join(dir, 'embed.json');
    const raw = join(dir, 'embed.jsonl');
    const r = await cli(['sweep', '--url', sim.url, '--endpoint', 'embeddings', '--batch-size', '4', ...QUICK, '--data', data, '--json', json, '--raw', raw]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/level c=1 stored in run 1\n[\s\S]*level c=2 stored in run 1\n/);
    expect(r.stderr).toContain(`stored as run 1 (complete) in embedded database at ${data}; see it with: goodput serve --data "${data}"`);
    embedJson = poolingResultSchema.parse(JSON.parse(read(json)));

    const out = join(dir, 'export.json');
    const outRaw = join(dir, 'export.jsonl');
    const exported = await cli(['runs', 'export', '1', '--out', out, '--raw', outRaw, '--data', data]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(read(out)).toBe(read(json));
    const lines = (text: string) =>
      text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { concurrency: number; seq: number });
    const key = (x: { concurrency: number; seq: number }) => x.concurrency * 1e6 + x.seq;
    expect(lines(read(outRaw))).toEqual(lines(read(raw)).sort((a, b) => key(a) - key(b)));
  });

  it('stores a rerank run with --save, and --no-save keeps a sweep out of a configured store', async () => {
    const r = await cli(['sweep', '--url', sim.url, '--endpoint', 'rerank', '--documents', '4', '--query-tokens', '8', ...QUICK, '--save', '--data', data]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('stored as run 2 (complete)');
    const not = await cli([
      'sweep',
      '--url',
      sim.url,
      '--endpoint',
      'embeddings',
      '--batch-size',
      '2',
      '--levels',
      '1',
      '--requests-per-level',
      '2',
      '--no-save',
      '--data',
      data,
    ]);
    expect(not.code, not.stderr).toBe(0);
    expect(not.stderr).not.toContain('stored as run');
    expect(JSON.parse((await cli(['runs', 'list', '--json', '--data', data])).stdout)).toHaveLength(2);
  });

  it("runs list names each run's endpoint and its peak in its own unit, as the result states it", async () => {
    const list = await cli(['runs', 'list', '--data', data]);
    expect(list.code).toBe(0);
    const peak = embedJson.peak!;
    expect(list.stdout).toMatch(/^ID +Status +Started +Server +Model +Endpoint +Levels +Peak\n/);
    expect(list.stdout).toMatch(/\n2 +complete .* rerank +2\/2 +[\d.]+ documents\/s @ c=[12]\n/);
    expect(list.stdout).toMatch(
      new RegExp(`\\n1 +complete .* embeddings +2/2 +${peak.itemsPerS.toFixed(1).replace('.', '\\.')} inputs/s @ c=${peak.concurrency}\\n?$`),
    );
    const json = JSON.parse((await cli(['runs', 'list', '--json', '--data', data])).stdout) as Array<{
      id: number;
      endpoint: string;
      peakItemsPerS: number;
      peakThroughputTokS: null;
    }>;
    expect(json.find((x) => x.id === 1)).toMatchObject({ endpoint: 'embeddings', peakItemsPerS: peak.itemsPerS, peakThroughputTokS: null });
  });

  it("runs show prints the endpoint's own table, failures, the Engine line and capacity at the objective", async () => {
    const show = await cli(['runs', 'show', '1', '--data', data]);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(
      /^run 1 · complete · http:\/\/127\.0\.0\.1:\d+ · model goodput-sim-1 · started .* · embeddings: 4 inputs of 16 tokens per request\n/,
    );
    expect(show.stdout).toMatch(
      /Concurrency +Requests\/s +Inputs\/s +Input tok\/s +Latency p50 \(ms\) +p95 \(ms\) +p99 \(ms\) +Dimension +\$\/1M input tok +Failed +SLO p95 ≤ 5000 ms/,
    );
    expect(show.stdout).toContain(
      `Engine: peak ${embedJson.peak!.itemsPerS.toFixed(1)} inputs/s, ${embedJson.peak!.inputTokensPerS!.toFixed(0)} input tok/s at concurrency ${embedJson.peak!.concurrency}`,
    );
    expect(show.stdout).toContain('Capacity: capacity at latency p95 ≤ 5000 ms');
    expect(show.stdout).not.toContain('TTFT');
    const rerank = await cli(['runs', 'show', '2', '--data', data]);
    expect(rerank.stdout).toContain('rerank: a query of 8 tokens with 4 documents of 16 tokens');
    expect(rerank.stdout).toMatch(/Engine: peak [\d.]+ documents\/s/);
  });

  it('refuses a stored run whose row was edited to break its schema, naming the field, in show and export', async () => {
    const store = await openStore({ kind: 'embedded', dir: data }, { kind: 'cli', command: 'test' });
    try {
      await store.driver.query(`UPDATE levels SET result = jsonb_set(result, '{latencyMs,p95}', '"fast"') WHERE run_id = 2 AND concurrency = 1`);
    } finally {
      await store.close();
    }
    for (const args of [
      ['runs', 'show', '2'],
      ['runs', 'export', '2'],
    ]) {
      const r = await cli([...args, '--data', data]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('goodput: run 2 is stored broken, so it is not shown: levels.0.latencyMs.p95:');
      expect(r.stdout).toBe('');
    }
    // The others still read.
    expect((await cli(['runs', 'show', '1', '--data', data])).code).toBe(0);
    expect((await cli(['runs', 'list', '--data', data])).code).toBe(0);
  });

  it('refuses a bad flag before any store is opened or run begun', async () => {
    const never = join(dir, 'never');
    const r = await cli(['sweep', '--url', sim.url, '--endpoint', 'embeddings', '--save', '--data', never, '--batch-size', '1000000000']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--batch-size: 1000000000 is above the limit');
    expect(existsSync(never)).toBe(false);
  });
});

describe('a saved chat run with images', () => {
  it('keeps what each request carried: the stored spec and levels hold it, runs show names it, export gives it back', async () => {
    const store = join(dir, 'images-db');
    const json = join(dir, 'images.json');
    const r = await cli([
      'sweep',
      '--url',
      sim.url,
      '--levels',
      '1',
      '--requests-per-level',
      '2',
      '--prompt-tokens',
      '16',
      '--output-tokens',
      '8',
      '--images',
      '2',
      '--image-size',
      '64x32',
      '--no-server-metrics',
      '--save',
      '--data',
      store,
      '--json',
      json,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const images = { perRequest: 2, width: 64, height: 32, format: 'png', delivery: 'data' };
    const detail = JSON.parse((await cli(['runs', 'show', '1', '--json', '--data', store])).stdout) as {
      spec: { images?: unknown };
      levels: Array<{ images?: unknown }>;
    };
    expect(detail.spec.images).toEqual(images);
    expect(detail.levels[0]?.images).toEqual(images);
    const show = await cli(['runs', 'show', '1', '--data', store]);
    expect(show.stdout).toContain(
      'images 2 images of 64×32 PNG per request (synthetic, drawn from the seed, sent inline as data URLs) · the server counted 20.0 prompt tokens per request, images included',
    );
    const out = join(dir, 'images-export.json');
    expect((await cli(['runs', 'export', '1', '--out', out, '--data', store])).code).toBe(0);
    const exported = sweepResultSchema.parse(JSON.parse(read(out)));
    expect(exported.levels[0]?.images).toEqual(images);
    expect(exported).toEqual(sweepResultSchema.parse(JSON.parse(read(json))));
  });
});
