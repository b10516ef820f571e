/**
 * `goodput runs show` of a run stored with the quality score `goodput run
 * --quality-baseline` measured: the score's line, read from the store, is the
 * one the run's result file holds; a run stored without a score shows none.
 * Real simulators over loopback (the candidate adds quantization noise), an
 * embedded store in a temporary folder.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { qualityScoreLine, sweepResultSchema } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { patient } from '../test-support/patience.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-runs-show-quality-'));
const data = join(dir, 'data');
const sims: SimServer[] = [];

beforeAll(async () => {
  const simAt = (quantizationNoise: number) =>
    startSimulator({ port: 0, prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 0.5, decodeMsPerExtraSeq: 0, quantizationNoise });
  sims.push(...(await Promise.all([simAt(0), simAt(0.2)])));
}, patient(30_000));
afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a one-level contract against the candidate simulator, stored and written to `name`.json, scored against the baseline or not. */
async function storedRun(name: string, scored: boolean): Promise<string> {
  const [base, cand] = sims as [SimServer, SimServer];
  const path = join(dir, `${name}.yaml`);
  writeFileSync(
    path,
    stringify({
      version: 1,
      server: { url: cand.url },
      model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
      workload: { prompts: { kind: 'synthetic', tokens: 24 }, outputTokens: 8, requestsPerLevel: 3, warmup: 0 },
      load: { levels: [1] },
      slo: { ttftMs: { p: 95, max: 2000 } },
      hardware: { label: 'SimGPU 80GB', gpuHourlyUsd: 6.5, priceAsOf: '2025-06-01' },
    }),
  );
  const json = join(dir, `${name}.json`);
  const r = await cli(['run', path, '--json', json, '--save', '--data', data, ...(scored ? ['--quality-baseline', base.url] : [])]);
  expect(r.code, r.stderr).toBe(0);
  return json;
}

describe('runs show of a run stored with its in-run quality score', () => {
  it(
    'prints the score the result file holds; a run without one prints none',
    async () => {
      const result = sweepResultSchema.parse(JSON.parse(readFileSync(await storedRun('scored', true), 'utf8')));
      await storedRun('unscored', false);
      const quality = result.quality;
      expect(quality?.composite).toBeGreaterThan(0);
      const shown = await cli(['runs', 'show', '1', '--data', data]);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain(`\n${qualityScoreLine(quality as NonNullable<typeof quality>)}; measured in the run (goodput run --quality-baseline)\n`);
      const json = await cli(['runs', 'show', '1', '--json', '--data', data]);
      expect(JSON.parse(json.stdout).extras.quality).toEqual(quality);
      const other = await cli(['runs', 'show', '2', '--data', data]);
      expect(other.code, other.stderr).toBe(0);
      expect(other.stdout).not.toMatch(/^quality /m);
    },
    patient(120_000),
  );
});
