/**
 * A receipt of runs whose images were sent by URL: the public copy withholds
 * the server's address (and so where it fetched the images from), each level
 * keeps what identifies the files goodput's image server offered it, and the
 * receipt says the image base URL was withheld. Two real runs against
 * simulators make a receipt that publishes, verifies and is reproduced (the
 * image base URL asked for a server off this machine); an edited image hash,
 * re-hashed with goodput's own code, is refused naming the field.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type SweepResult, sweepResultSchema } from '../core/index.js';
import type { ClaimCheck } from '../publish/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { forge } from '../test-support/forger.js';
import { EXIT } from './exit-codes.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-image-url-'));
const sims: SimServer[] = [];
let runs: [SweepResult, SweepResult];

async function runOn(sim: SimServer, name: string): Promise<SweepResult> {
  const contract = join(dir, `${name}.yaml`);
  writeFileSync(
    contract,
    stringify({
      version: 1,
      server: { url: sim.url, endpoint: 'chat' },
      model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
      workload: {
        prompts: { kind: 'synthetic', tokens: 24 },
        outputTokens: 8,
        requestsPerLevel: 3,
        warmup: 1,
        images: { perRequest: 2, width: 64, height: 32, delivery: 'url' },
      },
      load: { levels: [1, 2] },
      slo: { ttftMs: { p: 95, max: 5000 } },
      hardware: { label: 'SimGPU', gpuHourlyUsd: 2, priceAsOf: '2026-11-01' },
    }),
  );
  const json = join(dir, `${name}.json`);
  const r = await cli(['run', contract, '--json', json, '--no-save']);
  expect(r.code, r.stderr).toBe(0);
  return sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
}

const write = (name: string, body: unknown) => {
  const p = join(dir, name);
  writeFileSync(p, JSON.stringify(body));
  return p;
};
const create = (name: string, sides: [SweepResult, SweepResult], out: string) =>
  cli([
    'receipt',
    'create',
    '--baseline',
    write(`${name}-b.json`, sides[0]),
    '--optimized',
    write(`${name}-o.json`, sides[1]),
    '--method',
    'a faster decoder',
    '--out',
    out,
  ]);

beforeAll(async () => {
  const opts = { prefillBaseMs: 1, prefillMsPerToken: 0, decodeMsPerExtraSeq: 0, images: { encoderMsPerImage: 0 } };
  // Slow enough decode steps that each level outlasts the server's lateness buckets.
  sims.push(await startSimulator({ port: 0, ...opts, decodeStepMs: 30 }), await startSimulator({ port: 0, ...opts, decodeStepMs: 15 }));
  runs = [await runOn(sims[0] as SimServer, 'baseline'), await runOn(sims[1] as SimServer, 'optimized')];
}, 60_000);
afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
});

describe('a receipt of images sent by URL', () => {
  it('each level of the run states the files its image server offered', () => {
    for (const l of runs[0].levels) {
      expect(l.imageFiles?.files).toBe(2 * (l.warmupRequests + l.requests));
      expect(l.imageFiles?.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    // Each level draws its own images: the second starts where the first ended.
    expect(runs[0].levels[0]?.imageFiles?.sha256).not.toBe(runs[0].levels[1]?.imageFiles?.sha256);
  });

  it('is made without the address, says the image base URL was withheld, publishes and verifies', async () => {
    const receipts = join(dir, 'receipts');
    const made = await create('good', runs, join(receipts, 'good.json'));
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    const receipt = JSON.parse(readFileSync(join(receipts, 'good.json'), 'utf8')) as { inputs: string[]; limitations: string[] };
    expect(receipt.inputs).toEqual(['2 images of 64×32 PNG by URL per request']);
    expect(receipt.limitations).toContain(
      "The images were sent by URL: the image base URL the servers fetched them from is withheld. Each level's evidence names the files goodput's image server offered (count, bytes, SHA-256), which the contract's seed redraws.",
    );
    const evidence = readdirSync(join(receipts, 'evidence')).map((f) => gunzipSync(readFileSync(join(receipts, 'evidence', f))).toString('utf8'));
    expect(evidence.length).toBe(2);
    for (const e of evidence) {
      expect(e).not.toContain('127.0.0.1');
      expect(e).toMatch(/"imageFiles":\{"files":8,"bytes":\d+,"sha256":"[0-9a-f]{64}"\}/);
    }
    const site = join(dir, 'site');
    const published = await cli(['publish', '--receipts', receipts, '--out', site]);
    expect(published.stderr).toBe('');
    expect(published.code).toBe(0);
    const verified = await cli(['verify', site]);
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
  });

  it("is reproduced on the simulators: the images redrawn from the seed, the contract hashes the receipt's", async () => {
    const json = join(dir, 'claims.json');
    const sides = ['--baseline-url', (sims[0] as SimServer).url, '--optimized-url', (sims[1] as SimServer).url];
    const r = await cli(['reproduce', join(dir, 'receipts', 'good.json'), ...sides, '--json', json]);
    // Verdicts rest on the wall clock of tiny runs (the timing pass judges them); that every claim gets one does not.
    expect([EXIT.ok, EXIT.notReproduced], r.stderr).toContain(r.code);
    const doc = JSON.parse(readFileSync(json, 'utf8')) as {
      claims: ClaimCheck[];
      contractHashes: Record<string, { published: string; reproduced: string }>;
    };
    for (const s of ['baseline', 'optimized']) expect(doc.contractHashes[s]?.reproduced).toBe(doc.contractHashes[s]?.published);
    expect(doc.claims.map((c) => c.id)).toEqual(expect.arrayContaining(['optimized.c1.throughput', 'optimized.c2.throughput']));
    const remote = await cli([
      'reproduce',
      join(dir, 'receipts', 'good.json'),
      '--baseline-url',
      'http://192.0.2.1:8000',
      '--optimized-url',
      'http://192.0.2.2:8000',
    ]);
    expect(remote.code).toBe(EXIT.usage);
    expect(remote.stderr).toContain('give --image-base-url http://HOST:PORT');
  });

  it('an edited image hash, every other hash recomputed, is refused naming the field', async () => {
    const edited = forge(runs[1], {
      levels: (ls) => ls.map((l) => (l.concurrency === 2 && l.imageFiles ? { ...l, imageFiles: { ...l.imageFiles, sha256: 'f'.repeat(64) } } : l)),
    });
    const out = join(dir, 'never', 'edited.json');
    const r = await create('edited', [runs[0], edited], out);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `evidence.optimized: run 1 levels[c=2].imageFiles.sha256: states ${'f'.repeat(64)}, the images the contract draws from seed 42 give ${runs[1].levels[1]?.imageFiles?.sha256}; the evidence was edited [rule: media-inputs]`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('a level of images by URL that states no files is refused', async () => {
    const silent = forge(runs[0], { levels: (ls) => ls.map(({ imageFiles: _files, ...l }) => l) });
    const r = await create('silent', [silent, runs[1]], join(dir, 'never', 'silent.json'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'evidence.baseline: run 1 levels[c=1].imageFiles: is absent: a run of images by URL states which files its image server offered, or nothing shows they were sent [rule: media-inputs]',
    );
  });
});
