/**
 * Quality in `goodput compare` and `goodput report`, as a user gets there:
 * real processes, simulators over loopback. Each candidate simulator adds its
 * own quantization noise to the logits; `goodput run --quality-baseline`
 * scores it against one noiseless simulator and keeps the score in the result.
 * A change within the scores' own noise is "no difference established"; one
 * past it is worse (or better, reversed); scores of another baseline, or on
 * one side only, are not compared.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type SimServer, startSimulator } from '../sim/index.js';
import { runGoodput } from '../test-support/goodput-process.js';
import { patient } from '../test-support/patience.js';

const goodput = (args: string[]) => runGoodput(args, {}, 120_000);
const simAt = (quantizationNoise: number) =>
  startSimulator({ port: 0, prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 0.5, decodeMsPerExtraSeq: 0, quantizationNoise });

let dir: string;
const sims: SimServer[] = [];
const file = (name: string) => join(dir, name);

/** One run of `url` scored against `baseline` (or not scored), written to `name`. */
async function runTo(name: string, url: string, baseline: string | null): Promise<void> {
  const contract = {
    version: 1,
    server: { url },
    model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
    workload: { prompts: { kind: 'synthetic', tokens: 24 }, outputTokens: 8, requestsPerLevel: 3, warmup: 0 },
    load: { levels: [1] },
    slo: { ttftMs: { p: 95, max: 2000 }, tpotMs: { p: 50, max: 1000 } },
    hardware: { label: 'SimGPU 80GB', gpuHourlyUsd: 6.5, priceAsOf: '2025-06-01', utilisation: 0.55, utilisationAsOf: '2025-06-01' },
  };
  const path = file(`${name}.yaml`);
  writeFileSync(path, stringify(contract));
  const r = await goodput([
    'run',
    path,
    '--json',
    file(`${name}.json`),
    '--raw',
    file(`${name}.jsonl`),
    ...(baseline === null ? [] : ['--quality-baseline', baseline]),
  ]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).not.toMatch(/no quality score/);
}

type Verdict = { label: string; verdict: string; noise: number | null; difference: { diff: number; lo: number; hi: number; verdict: string } | null };
const compareJson = async (...names: string[]) => {
  const r = await goodput(['compare', ...names.map((n) => file(`${n}.json`)), '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { quality: { scores: string[]; verdicts: Verdict[] } | null };
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'goodput-compare-quality-'));
  const [base, otherBase, q20, q21, q30] = await Promise.all([simAt(0), simAt(0.05), simAt(0.2), simAt(0.21), simAt(0.3)]);
  sims.push(base, otherBase, q20, q21, q30);
  // Sequential: each run measures its server alone.
  await runTo('q20', q20.url, base.url);
  await runTo('q21', q21.url, base.url);
  await runTo('q30', q30.url, base.url);
  await runTo('q20-other-baseline', q20.url, otherBase.url);
  await runTo('q20-unscored', q20.url, null);
  await runTo('q30-unscored', q30.url, null);
}, patient(600_000));
afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('goodput compare: quality scores kept by goodput run --quality-baseline', () => {
  it("a change within the scores' own noise is no difference established; one past it is worse, and better reversed", async () => {
    const c = await compareJson('q20', 'q21', 'q30');
    expect(c.quality?.scores).toHaveLength(3);
    for (const s of c.quality?.scores ?? []) expect(s).toMatch(/^0\.9\d{3} ± 0\.00\d{2} \(32 prompts\)$/);
    const [near, far] = c.quality?.verdicts ?? [];
    // 0.2 against 0.21: a real but tiny change, smaller than the noise either score records.
    expect(near?.difference?.diff).toBeLessThan(0);
    expect(Math.abs(near?.difference?.diff ?? 1)).toBeLessThanOrEqual(near?.noise ?? 0);
    expect(near?.verdict).toMatch(/^no difference established \(/);
    // 0.2 against 0.3: past the noise, and the interval excludes zero.
    expect(Math.abs(far?.difference?.diff ?? 0)).toBeGreaterThan(far?.noise ?? Infinity);
    expect(far?.difference?.hi).toBeLessThan(0);
    expect(far?.verdict).toBe('worse');
    const reversed = await compareJson('q30', 'q20');
    expect(reversed.quality?.verdicts[0]?.verdict).toBe('better');
    expect(reversed.quality?.verdicts[0]?.difference?.diff).toBeCloseTo(-(far?.difference?.diff ?? 0), 10);
  });

  it('prints the quality rows in the terminal, the noise beside each change', async () => {
    const r = await goodput(['compare', file('q20.json'), file('q21.json'), file('q30.json')]);
    expect(r.code, r.stderr).toBe(0);
    // Lines longer than the terminal's 120 columns wrap with a hanging indent: read them whole.
    const flat = r.stdout.replace(/\n +/g, ' ');
    const quality = flat.slice(flat.indexOf('Quality (goodput run --quality-baseline'));
    expect(flat.indexOf('Quality (goodput run')).toBeGreaterThan(flat.indexOf('B against A'));
    expect(quality).toMatch(/ q20\.json: 0\.98\d{2} ± 0\.00\d{2} \(32 prompts\) q21\.json: /);
    expect(quality).toMatch(
      / q21\.json against q20\.json: −0\.00\d{2}, 95 % interval −0\.\d{4} to \+0\.\d{4} over the prompts \(the scores' own noise ±0\.00\d{2}\): no difference established \(/,
    );
    expect(quality).toMatch(
      / q30\.json against q20\.json: −0\.0\d{3}, 95 % interval −0\.\d{4} to −0\.\d{4} over the prompts \(the scores' own noise ±0\.00\d{2}\): worse\n/,
    );
  });

  it('says so, and compares nothing, when only one side carries a score or the baselines differ', async () => {
    const one = await compareJson('q20', 'q20-unscored');
    expect(one.quality?.scores[1]).toBe('no quality score in this run');
    expect(one.quality?.verdicts[0]).toMatchObject({
      difference: null,
      verdict:
        'not compared: only q20.json carries a quality score (q20-unscored.json was not run with --quality-baseline), so there is nothing to compare it with',
    });
    const other = await compareJson('q20', 'q20-other-baseline');
    expect(other.quality?.verdicts[0]?.difference).toBeNull();
    expect(other.quality?.verdicts[0]?.verdict).toMatch(
      /^not compared: the two scores were measured against different baselines: goodput-sim-1 \(fingerprint [0-9a-f]{12}, server [0-9a-f]{12}\) vs goodput-sim-1 \(fingerprint [0-9a-f]{12}, server [0-9a-f]{12}\), so they do not measure the same thing$/,
    );
    const none = await compareJson('q20-unscored', 'q30-unscored');
    expect(none.quality).toBeNull();
  });

  it('a stored run keeps its score: goodput compare of stored ids gives the same verdict (the page reads the same stored result)', async () => {
    const data = file('db');
    for (const name of ['q20', 'q30']) {
      const r = await goodput(['runs', 'import', file(`${name}.json`), '--raw', file(`${name}.jsonl`), '--data', data]);
      expect(r.code, r.stderr).toBe(0);
    }
    const r = await goodput(['compare', '1', '2', '--data', data, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const stored = JSON.parse(r.stdout) as { quality: { verdicts: Verdict[] } | null };
    const files = await compareJson('q20', 'q30');
    expect(stored.quality?.verdicts[0]?.verdict).toBe('worse');
    expect(stored.quality?.verdicts[0]?.difference).toEqual(files.quality?.verdicts[0]?.difference);
  });

  it('goodput report carries the same quality rows, in Markdown and in the one-file HTML', async () => {
    const args = [file('q20.json'), file('q21.json'), file('q30.json')];
    const md = await goodput(['report', ...args, '--format', 'md']);
    expect(md.code, md.stderr).toBe(0);
    const table = md.stdout.slice(md.stdout.indexOf('### Quality'));
    expect(table).toMatch(/\| q20\.json \| 0\.98\d{2} ± 0\.00\d{2} \(32 prompts\) \| baseline \|/);
    expect(table).toMatch(/\| q21\.json \| [^|]+ \| −0\.00\d{2}, [^|]+: no difference established \([^|]+\) \|/);
    expect(table).toMatch(/\| q30\.json \| [^|]+ \| −0\.0\d{3}, [^|]+: worse \|/);
    const out = file('report.html');
    const html = await goodput(['report', ...args, '--out', out]);
    expect(html.code, html.stderr).toBe(0);
    const page = readFileSync(out, 'utf8');
    expect(page).toMatch(/<h3>Quality<\/h3>.*<table class="deltas quality-compare">/s);
    expect(page).toMatch(/verdict-no-difference-established"><span class="verdict">no difference established \(/);
    expect(page).toMatch(/verdict-worse"><span class="verdict">worse<\/span>/);
  });
});
