/**
 * Looking at a trace before replaying it: on gamma arrivals generated here
 * (seeded, the sweep's own gamma sampler) the analysis recovers the burstiness
 * it was made with, as the fitted shape and as the CV of the gaps; rate,
 * lengths and prefix hits are counted as written; and an anonymised copy keeps
 * the schedule, the lengths and the shared-block structure while no id of the
 * original survives.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gammaOffsetsNs } from './arrival.js';
import { analyseTrace, gammaShapeMle } from './trace-analyse.js';
import { anonymiseTrace } from './trace-anonymise.js';
import { readTrace } from './trace-read.js';
import { replayParts } from './trace-replay.js';
import { traceBlocks } from './trace-prompt.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-analyse-'));
let n = 0;
const file = (text: string) => {
  const p = join(dir, `t${n++}.jsonl`);
  writeFileSync(p, text);
  return p;
};

describe('trace analyse', () => {
  for (const shape of [0.25, 0.5, 1, 3]) {
    it(`recovers the burstiness of a seeded gamma trace of shape ${shape} within 10 %`, async () => {
      const offsets = gammaOffsetsNs(20, 5000, shape, 11);
      const text = offsets.map((ns, i) => JSON.stringify({ t: ns / 1e9, promptTokens: 10 + (i % 7), outputTokens: 5 })).join('\n');
      const a = analyseTrace(await readTrace(file(text)));
      expect(a.requests).toBe(5000);
      expect(Math.abs((a.gaps.gammaShape as number) / shape - 1)).toBeLessThan(0.1);
      expect(Math.abs((a.gaps.cv as number) / (1 / Math.sqrt(shape)) - 1)).toBeLessThan(0.1);
      expect(Math.abs(a.meanRps / 20 - 1)).toBeLessThan(0.1);
    });
  }

  it('counts rate per bucket, lengths, zero gaps and perfect-cache prefix hits', async () => {
    const rows = [
      { timestamp: 0, input_length: 1000, output_length: 10, hash_ids: [7, 8] },
      { timestamp: 0, input_length: 1500, output_length: 20, hash_ids: [7, 8, 9] },
      { timestamp: 1500, input_length: 600, output_length: 30, hash_ids: [7, 4] },
      { timestamp: 2500, input_length: 100, output_length: 40, hash_ids: [8] },
    ];
    const a = analyseTrace(await readTrace(file(rows.map((r) => JSON.stringify(r)).join('\n'))), { bucketS: 1 });
    expect(a.rate).toEqual({ bucketS: 1, requests: [2, 1, 1] });
    expect(a.gaps).toMatchObject({ count: 3, zero: 1 });
    expect(a.promptTokens).toMatchObject({ min: 100, max: 1500, mean: 800 });
    // Request 2 hits 7 and 8; request 3 hits 7; request 4's 8 was never a first block: no hit.
    expect(a.prefix).toEqual({ blocks: 8, hitBlocks: 3, hitShare: 3 / 8, requestsWithHits: 2 });
  });

  it('fits no shape to fewer than two gaps above zero', () => {
    expect(gammaShapeMle([5])).toBeNull();
    expect(gammaShapeMle([5, 5])).toBeNull();
  });
});

describe('trace anonymise', () => {
  it('keeps the schedule, lengths and shared blocks, replaces every id and drops the text; same seed, same bytes', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => ({
      timestamp: 1_700_000_000_000 + i * 37.5,
      input_length: 300 + (i % 5) * 100,
      output_length: 8 + (i % 3),
      hash_ids: [100 + (i % 4), 200 + (i % 6), 10_000 + i].slice(0, Math.ceil((300 + (i % 5) * 100) / 512) + 1),
    }));
    const original = await readTrace(file(rows.map((r) => JSON.stringify(r)).join('\n')));
    const text = anonymiseTrace(original, 42);
    expect(anonymiseTrace(original, 42)).toBe(text);
    expect(anonymiseTrace(original, 43)).not.toBe(text);
    const copy = await readTrace(file(text));
    const [a, b] = [replayParts(original, { blockTokens: 512, maxConcurrency: null }), replayParts(copy, { blockTokens: 512, maxConcurrency: null })];
    expect(b.arrival).toMatchObject({ offsetsMs: (a.arrival as { offsetsMs: number[] }).offsetsMs });
    const reqs = (p: typeof a.prompts) => (p as { requests: Array<{ p: number; o: number; h?: number[] }> }).requests;
    expect(reqs(b.prompts).map((r) => [r.p, r.o])).toEqual(reqs(a.prompts).map((r) => [r.p, r.o]));
    // The same blocks shared: block keys equal in the copy exactly where they were in the original.
    const keys = (p: typeof a.prompts) => reqs(p).flatMap((r, i) => traceBlocks(r, 512, i).map((k) => k.key));
    const [ka, kb] = [keys(a.prompts), keys(b.prompts)];
    for (let i = 0; i < ka.length; i += 7) for (let j = 0; j < ka.length; j += 5) expect(ka[i] === ka[j]).toBe(kb[i] === kb[j]);
    expect(analyseTrace(copy).prefix).toEqual(analyseTrace(original).prefix);
    const originalIds = new Set(rows.flatMap((r) => r.hash_ids));
    expect(copy.requests.flatMap((r) => r.hashIds ?? []).filter((id) => originalIds.has(id))).toEqual([]);
    expect(text).not.toContain('1700000000000');
  });
});
