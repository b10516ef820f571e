/**
 * The quality score measured in the run on an engine without prompt
 * logprobs, from recorded llama.cpp answers: each server is a front that
 * replays llama-server's answers (build b9928, stories260K F32 and Q8_0:
 * next-token top-20 logprobs, /tokenize with pieces; echo answers with none)
 * and forwards everything else to a simulator, which serves the measured
 * runs. `run --repeats 3 --quality-baseline` writes the score, scored by
 * prefix, and `receipt create`, `publish` and `verify` accept it, each
 * recomputing it from its evidence.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { sweepResultSchema } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { llamaQualityReplay } from '../test-support/llama-replay.js';
import { startServer, type TestServer } from '../test-support/scripted-server.js';
import { patient } from '../test-support/patience.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-llama-quality-'));
let sims: SimProcess[] = [];
let fronts: TestServer[] = [];
beforeAll(async () => {
  // Each simulator in its own process, as a server is: its lateness is its own, not this test's event loop.
  const profile = (stepMs: number) => [
    '--prefill-base-ms',
    '2',
    '--prefill-ms-per-token',
    '0',
    '--decode-step-ms',
    String(stepMs),
    '--decode-ms-per-extra-seq',
    '0',
  ];
  sims = await Promise.all([spawnSimProcess(profile(4)), spawnSimProcess([...profile(2), '--quantization-noise', '0.1'])]);
  fronts = await Promise.all([
    startServer(llamaQualityReplay('llama-prefix-scoring-f32.txt', sims[0]?.url)),
    startServer(llamaQualityReplay('llama-prefix-scoring-q8_0.txt', sims[1]?.url)),
  ]);
}, patient(30_000));
afterAll(async () => {
  await Promise.all([...fronts.map((f) => f.close()), ...sims.map((p) => p.stop())]);
});

/** One contract, the weights' quantization being what differs; completions, so the first-token answers are llama-server's too. */
const contractFile = (name: string, url: string, quantization: string) => {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(
    path,
    stringify({
      version: 1,
      name: `llama-${name}`,
      server: { url, endpoint: 'completions' },
      model: { name: 'goodput-sim-1', revision: 'b9928', tokenizer: { kind: 'server' }, precision: 'f32', quantization },
      workload: { prompts: { kind: 'synthetic', tokens: 16 }, outputTokens: 24, cache: { kind: 'cold' }, requestsPerLevel: 4, warmup: 1 },
      decoding: { temperature: 0, topP: 1, seed: 42, ignoreEos: true },
      thinking: 'off',
      load: { pattern: { kind: 'concurrency' }, levels: [1] },
      slo: { ttftMs: { p: 95, max: 5000 } },
      hardware: { label: 'CPU', gpuHourlyUsd: 0.1, priceAsOf: '2026-06-01' },
    }),
  );
  return path;
};

describe('run --repeats 3 --quality-baseline against replayed llama-server answers', () => {
  it(
    'writes the result with a score by prefix scoring, prints it, and receipt create accepts it',
    async () => {
      const [f32, q8] = fronts.map((f) => f.url) as [string, string];
      const b = join(dir, 'f32.json');
      const o = join(dir, 'q8.json');
      const base = await cli(['run', contractFile('f32', f32, 'none'), '--repeats', '3', '--json', b, '--no-save']);
      expect(base.code, base.stderr).toBe(0);
      const r = await cli(['run', contractFile('q8', q8, 'q8_0'), '--repeats', '3', '--quality-baseline', f32, '--json', o, '--no-save']);
      expect(r.code, r.stderr).toBe(0);
      const result = sweepResultSchema.parse(JSON.parse(readFileSync(o, 'utf8')));
      expect(result.repeats).toHaveLength(2);
      expect(result.quality?.runs).toEqual({ baseline: null, candidate: `set:${result.run.repeat?.set}` });
      expect(result.quality?.components.pplDelta).toMatchObject({ provenance: 'measured', method: 'prefix-scoring' });
      const composite = result.quality?.composite ?? -1;
      expect(composite).toBeGreaterThan(0.9);
      expect(composite).toBeLessThan(1);
      // The recorded prefixes were llama-server's: its /tokenize pieces and its next-token answers.
      expect(fronts[1]?.requests.some((q) => q.url === '/tokenize' && q.body.includes('"with_pieces":true'))).toBe(true);
      expect(r.stdout).toMatch(
        new RegExp(
          `^quality 0\\.\\d{4} \\(goodput-quality-v1, perplexity by prefix scoring \\(\\d+ \\+ \\d+ tokens at the tail bound\\); 1\\.0 = no detected degradation on this composite under the disclosed workload\\); measured in this run against ${f32}$`,
          'm',
        ),
      );

      const out = join(dir, 'receipts', 'r.json');
      const receipt = await cli([
        'receipt',
        'create',
        '--baseline',
        b,
        '--optimized',
        o,
        '--method',
        'Q8 weights',
        '--out',
        out,
        '--allow-server-disagreement',
      ]);
      expect(receipt.code, receipt.stderr).toBe(0);
      const facts = (JSON.parse(readFileSync(out, 'utf8')) as { facts: Array<{ id: string; value: unknown; provenance: string }> }).facts;
      expect(facts.find((f) => f.id === 'optimized.quality')).toMatchObject({ value: composite });
      // publish and verify recompute the score from its evidence again.
      const site = join(dir, 'site');
      const published = await cli(['publish', '--receipts', join(dir, 'receipts'), '--out', site]);
      expect(published.code, published.stderr).toBe(0);
      const verified = await cli(['verify', site]);
      expect(verified.code, verified.stderr + verified.stdout).toBe(0);
    },
    patient(60_000),
  );
});
