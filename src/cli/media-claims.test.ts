/**
 * A modality claim stands only on records that show it. Two real runs with
 * images and audio against simulators make a receipt; two real text-only runs
 * whose contracts are edited to claim "2 × 512×512 JPEG per request" or "5 s
 * of audio" (re-hashed with goodput's own code) are refused by `goodput receipt
 * create`: exit 2, the rule and the record named, nothing written.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { Contract, StoredRecord } from '../contract/index.js';
import { type SweepResult, sweepResultSchema } from '../core/index.js';
import { type MediaClaim, mediaClaim, mediaProblem } from '../publish/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { type Forgery, forge } from '../test-support/forger.js';
import { receiptCli } from '../test-support/receipt-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-media-claims-'));
let n = 0;
const sims: SimServer[] = [];

async function runOn(sim: SimServer, media: Record<string, unknown>): Promise<SweepResult> {
  const name = `run-${n++}`;
  const contract = join(dir, `${name}.yaml`);
  writeFileSync(
    contract,
    stringify({
      version: 1,
      server: { url: sim.url, endpoint: 'chat' },
      model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
      workload: { prompts: { kind: 'synthetic', tokens: 24 }, outputTokens: 8, requestsPerLevel: 2, warmup: 1, ...media },
      load: { levels: [1] },
      slo: { ttftMs: { p: 95, max: 5000 } },
      hardware: { label: 'SimGPU', gpuHourlyUsd: 2, priceAsOf: '2026-11-01' },
    }),
  );
  const json = join(dir, `${name}.json`);
  const r = await cli(['run', contract, '--json', json, '--no-save']);
  expect(r.code, r.stderr).toBe(0);
  return sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
}

const { create, refused: refusedPair } = receiptCli(dir, 'a faster decoder');

const MEDIA = { images: { perRequest: 2, width: 64, height: 32 }, audio: { seconds: 1 } };
let media: [SweepResult, SweepResult];
let text: [SweepResult, SweepResult];
beforeAll(async () => {
  const opts = { prefillBaseMs: 1, prefillMsPerToken: 0, decodeMsPerExtraSeq: 0, images: { encoderMsPerImage: 0 } };
  // Slow enough decode steps that each level outlasts the server's lateness buckets.
  sims.push(await startSimulator({ port: 0, ...opts, decodeStepMs: 30 }), await startSimulator({ port: 0, ...opts, decodeStepMs: 15 }));
  const [a, b] = sims as [SimServer, SimServer];
  media = [await runOn(a, MEDIA), await runOn(b, MEDIA)];
  text = [await runOn(a, {}), await runOn(b, {})];
}, 60_000);
afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
});

/** Both sides' contracts edited to claim `claim` (one workload on both sides), every hash recomputed. */
const claiming = (claim: Record<string, unknown>, more: Forgery = {}, server: Record<string, unknown> = {}): [SweepResult, SweepResult] =>
  text.map((r) =>
    forge(r, {
      ...more,
      contract: (c) => {
        Object.assign(c.workload, claim);
        Object.assign(c.server, server);
      },
    }),
  ) as [SweepResult, SweepResult];

const refused = (name: string, sides: [SweepResult, SweepResult]): Promise<string> => refusedPair(name, sides[0], sides[1]);

describe('a modality claim corroborated by the records', () => {
  it('runs that sent images and audio show their bytes and the prompt tokens the server counted, and make a receipt', async () => {
    for (const r of media) {
      for (const rec of (r.records ?? []).filter((x) => !x.warmup)) {
        expect(rec.requestBodyBytes).toBeGreaterThan(2 * 100 + 10_000);
        expect(rec.promptTokens).toBeGreaterThan(24 + 2 * 2);
      }
    }
    for (const rec of text[0].records ?? []) expect(rec.requestBodyBytes).toBeUndefined();
    const out = join(dir, 'good', 'media.json');
    const r = await create('media', media[0], media[1], out);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect((JSON.parse(readFileSync(out, 'utf8')) as { inputs: string[] }).inputs).toEqual([
      '2 images of 64×32 PNG per request',
      '1 s of WAV audio per request',
    ]);
  });

  it('"2 × 512×512 JPEG per request" claimed for runs that sent only text: the server counted no image tokens', async () => {
    const stderr = await refused('images', claiming({ images: { perRequest: 2, width: 512, height: 512, format: 'jpeg' } }));
    expect(stderr).toMatch(
      /evidence\.baseline: run 1 records\[c=1\] record seq \d+: was counted \d+ prompt tokens by the server; with 2 × 512×512 JPEG per request it counts at least 152 \(the text prompt and the media's floor\) \[rule: media-inputs\]/,
    );
  });

  it('"5 s of audio" claimed for runs that sent only text', async () => {
    const stderr = await refused('audio', claiming({ audio: { seconds: 5 } }));
    expect(stderr).toMatch(
      /records\[c=1\] record seq \d+: was counted \d+ prompt tokens by the server; with 5 s of audio per request it counts at least 34 .*\[rule: media-inputs\]/,
    );
  });

  it('the claim with the prompt counts raised to match: the request bodies were too small to carry the images', async () => {
    const raise: Forgery = { records: (rs) => rs.map((x) => ({ ...x, promptTokens: 600, requestBodyBytes: 2_000 })) };
    const stderr = await refused('bytes', claiming({ images: { perRequest: 2, width: 512, height: 512, format: 'jpeg' } }, raise));
    expect(stderr).toMatch(
      /records\[c=1\] record seq \d+: sent a 2000-byte body; 2 × 512×512 JPEG per request, sent inline, take at least \d+ bytes \[rule: media-inputs\]/,
    );
  });

  it('images by URL on records with no server prompt count: nothing shows them (a receipt of images by URL cannot ship its address, so the rule is checked on the records)', () => {
    const contract = forge(text[0], {
      contract: (c) => {
        Object.assign(c.workload, { images: { perRequest: 1, width: 512, height: 512, delivery: 'url' } });
        Object.assign(c.server, { imageBaseUrl: 'http://192.0.2.7:8090' });
      },
    }).contract as unknown as Contract;
    const claim = mediaClaim(contract, true);
    expect(claim).toEqual({ what: '1 × 512×512 PNG', minBodyBytes: null, minPromptTokens: 24 + 64 });
    const rec = (text[0].records ?? []).find((x) => !x.warmup) as StoredRecord;
    expect(mediaProblem({ ...rec, promptTokens: null }, claim as MediaClaim)).toBe(
      "records neither the body it sent nor the server's prompt count; nothing shows the 1 × 512×512 PNG claimed per request were sent",
    );
    expect(mediaProblem({ ...rec, promptTokens: 24 + 64 }, claim as MediaClaim)).toBeNull();
  });
});
