/**
 * Contracts with images and audio as a user runs them (`goodput run`, a real
 * process, the simulator over loopback): images as a matrix axis, one cell per
 * setting, each counted by the simulator; audio in every request; both in the hash.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { sweepResultSchema } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { runGoodput } from '../test-support/goodput-process.js';
import { patient } from '../test-support/patience.js';

let sim: SimServer;
const dir = mkdtempSync(join(tmpdir(), 'goodput-contract-images-'));
let n = 0;
const contractFile = (workload: Record<string, unknown>) => {
  const path = join(dir, `contract-${n++}.yaml`);
  writeFileSync(
    path,
    stringify({
      version: 1,
      server: { url: sim.url },
      model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
      workload: { prompts: { kind: 'synthetic', tokens: 24 }, outputTokens: 16, requestsPerLevel: 2, warmup: 1, ...workload },
      load: { levels: [1] },
      slo: { ttftMs: { p: 95, max: 5000 } },
      hardware: { label: 'SimGPU' },
    }),
  );
  return path;
};

beforeAll(async () => {
  sim = await startSimulator({ prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0, images: { encoderMsPerImage: 0 } });
});
afterAll(async () => {
  await sim.close();
});

describe('goodput run with images and audio', () => {
  it(
    'runs a cell per image setting, each with the prompt tokens the simulator counts, and names the images in the cell labels',
    async () => {
      const file = contractFile({
        images: [
          { perRequest: 2, width: 64, height: 32 },
          { perRequest: 2, width: 512, height: 512, format: 'jpeg', delivery: 'url' },
        ],
      });
      const fetched = sim.stats().imagesFetched;
      const r = await runGoodput(['run', file, '--json', '-'], {}, 120_000);
      expect(r.code, r.stderr).toBe(0);
      const result = sweepResultSchema.parse(JSON.parse(r.stdout));
      const cells = result.matrix?.cells ?? [];
      expect(cells.map((c) => c.key.images)).toEqual(['2 images of 64×32 PNG per request', '2 images of 512×512 JPEG by URL per request']);
      // 24 words, and ceil(w/32) × ceil(h/32) tokens per image: 2 × 2, then 2 × 256.
      expect(cells.map((c) => c.levels[0]?.promptTokens.mean)).toEqual([24 + 2 * 2, 24 + 2 * 256]);
      expect(cells.map((c) => c.levels[0]?.failed)).toEqual([0, 0]);
      expect(cells.map((c) => c.levels[0]?.images?.format)).toEqual(['png', 'jpeg']);
      // The URL cell's images were fetched: a warm-up and 2 requests of 2 images.
      expect(sim.stats().imagesFetched - fetched).toBe(6);
      expect(result.matrix?.order).toMatch(/then images in the order listed/);
      expect(result.matrix?.table.rows.map((row) => row[1])).toEqual([
        'synthetic 24 tokens + 2 images of 64×32 PNG per request',
        'synthetic 24 tokens + 2 images of 512×512 JPEG by URL per request',
      ]);
      const text = await runGoodput(['run', file], {}, 120_000);
      expect(text.stdout).toMatch(/cell 1 synthetic 24 tokens · 16 out · cold · 2 images of 512×512 JPEG by URL per request: 1→/);
    },
    patient(180_000),
  );

  it(
    "sends the contract's audio with every request and a cell without images when the list says none",
    async () => {
      const r = await runGoodput(
        ['run', contractFile({ audio: { seconds: 2 }, images: ['none', { perRequest: 1, width: 32, height: 32 }] }), '--json', '-'],
        {},
        120_000,
      );
      expect(r.code, r.stderr).toBe(0);
      const result = sweepResultSchema.parse(JSON.parse(r.stdout));
      const cells = result.matrix?.cells ?? [];
      expect(cells.map((c) => c.key.images)).toEqual([undefined, '1 image of 32×32 PNG per request']);
      // 2 s of audio at 25 tokens a second in both cells, and one image token in the second.
      expect(cells.map((c) => c.levels[0]?.promptTokens.mean)).toEqual([24 + 50, 24 + 50 + 1]);
      expect(cells.every((c) => c.levels[0]?.audio?.seconds === 2)).toBe(true);
      expect(result.contract).toMatchObject({ workload: { audio: { seconds: 2, format: 'wav' } } });
    },
    patient(180_000),
  );
});
