/**
 * `goodput receipt create` and `goodput publish` in process: a receipt and a
 * site from good input; every kind of bad input refused with exit code 2, one
 * line per problem, and nothing written (and a previous site left as it was).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newKeyPair, parseKey, receiptSchema, signedResult } from '../publish/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { measuredQualityFixture } from '../test-support/quality-fixture.js';
import { evidencePair, evidenceResult } from '../test-support/evidence-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-receipt-cli-'));
const file = (name: string, body: unknown) => {
  const p = join(dir, name);
  writeFileSync(p, typeof body === 'string' ? body : JSON.stringify(body));
  return p;
};
const pair = evidencePair();
const OPT_BASE = {
  levels: [
    { c: 1, ttftMs: 40, tpotMs: 10 },
    { c: 2, ttftMs: 45, tpotMs: 11 },
    { c: 4, ttftMs: 60, tpotMs: 14 },
  ],
  fingerprint: 'a'.repeat(64),
};
const OPT_LEVELS = [
  { c: 1, ttftMs: 30, tpotMs: 5 },
  { c: 2, ttftMs: 32, tpotMs: 5.5 },
  { c: 4, ttftMs: 40, tpotMs: 7 },
];
const optimizedWith = (over: Parameters<typeof evidenceResult>[0] extends infer S ? Partial<S> : never) =>
  evidenceResult({ quantization: 'fp8', levels: OPT_LEVELS, startedAt: '2026-06-03T09:00:00.000Z', fingerprint: 'b'.repeat(64), ...over });
const baseline = file('baseline.json', pair.baseline);
const optimized = file('optimized.json', pair.optimized);
const measured = measuredQualityFixture(pair);
/** A fresh Ed25519 key, as goodput keys create makes one. */
const runKey = () => {
  const k = parseKey(newKeyPair().privatePem, 'private');
  if (!k.ok) throw new Error(k.problem);
  return k.key;
};
const quality = file('quality.json', measured);
const PRICES = `tokenPrices:\n  - { provider: Example Cloud, model: demo-model, inputUsdPer1M: 0.5, outputUsdPer1M: 1.5, sourceUrl: "https://example.com/pricing", asOf: 2026-06-01 }\n`;
const prices = file('prices.yaml', PRICES);

const create = (args: string[], out: string) => cli(['receipt', 'create', '--method', 'FP8 dynamic quantization', '--out', out, ...args]);

let sim: SimProcess;
beforeAll(async () => {
  sim = await spawnSimProcess(['--prefill-base-ms', '2', '--prefill-ms-per-token', '0', '--decode-step-ms', '1', '--decode-ms-per-extra-seq', '0']);
});
afterAll(async () => {
  await sim.stop();
});

describe('goodput receipt create', () => {
  it('writes a receipt from two result files and a quality score', async () => {
    const out = join(dir, 'receipts', 'r1.json');
    const r = await create(['--baseline', baseline, '--optimized', optimized, '--quality', quality], out);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const receipt = receiptSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(r.stdout).toBe(`receipt ${receipt.id} written to ${out}\n`);
    expect(receipt.facts.find((f) => f.id === 'optimized.quality')?.value).toBe(measured.composite);
    expect(readFileSync(out, 'utf8')).not.toContain('127.0.0.1');
    // The evidence lies beside the receipt, by content hash, with the servers' addresses and the command withheld.
    const refs = (JSON.parse(readFileSync(out, 'utf8')) as { evidence: Record<string, string> }).evidence;
    const shipped = readdirSync(join(dir, 'receipts', 'evidence')).sort();
    expect(shipped).toEqual([refs.baseline, refs.optimized, refs.quality].map((h) => `${h}.json.gz`).sort());
    for (const name of shipped) expect(gunzipSync(readFileSync(join(dir, 'receipts', 'evidence', name))).toString()).not.toContain('127.0.0.1');
  });

  const cases: Array<[string, () => string[], RegExp[]]> = [
    ['a missing file', () => ['--baseline', join(dir, 'nope.json'), '--optimized', optimized], [/^ {2}--baseline: .*nope\.json does not exist$/m]],
    [
      'invalid JSON',
      () => ['--baseline', baseline, '--optimized', file('bad.json', '{"schemaVersion":')],
      [/^ {2}--optimized: .*bad\.json is not valid JSON/m],
    ],
    [
      'a schema violation, naming the field',
      () => [
        '--baseline',
        file('schema.json', { ...pair.baseline, levels: [{ ...pair.baseline.levels[0], throughputTokS: 'fast' }] }),
        '--optimized',
        optimized,
      ],
      [/^ {2}--baseline: .*schema\.json: levels\.0\.throughputTokS: /m],
    ],
    [
      'a run without a contract',
      () => ['--baseline', baseline, '--optimized', file('nocontract.json', { ...pair.optimized, contract: null })],
      [/^ {2}optimized: the run carries no contract/m],
    ],
    [
      'runs with different workloads',
      () => ['--baseline', baseline, '--optimized', file('w.json', optimizedWith({ outputTokens: 32 }))],
      [/^ {2}the workloads differ: workload\.outputTokens\[0\] is 16 on the baseline and 32 on the optimized run$/m],
    ],
    [
      'runs with different endpoints (chat and completions)',
      () => ['--baseline', baseline, '--optimized', file('e.json', optimizedWith({ endpoint: 'completions' }))],
      [/^ {2}the workloads differ: endpoint is "chat" on the baseline and "completions" on the optimized run$/m],
    ],
    [
      'runs of two different models, naming both',
      () => ['--baseline', baseline, '--optimized', file('m.json', optimizedWith({ model: 'other-model' }))],
      [/^ {2}the models differ: the baseline serves "demo-model" at revision "r1" and the optimized run "other-model" at revision "r1"/m],
    ],
    [
      'runs on different GPUs',
      () => ['--baseline', baseline, '--optimized', file('g.json', optimizedWith({ label: 'Other GPU' }))],
      [/^ {2}the GPUs differ: hardware\.label is "Test GPU 24GB" on the baseline and "Other GPU" on the optimized run/m],
    ],
    [
      'runs priced at different hourly rates',
      () => ['--baseline', baseline, '--optimized', file('rate.json', optimizedWith({ hourly: 1 }))],
      [/^ {2}the hourly rates differ: \$2\/h on the baseline and \$1\/h on the optimized run/m],
    ],
    [
      'a result without its raw records (nothing to recompute from)',
      () => ['--baseline', baseline, '--optimized', file('norec.json', { ...pair.optimized, records: undefined, recordsSha256: undefined })],
      [/^ {2}evidence\.optimized: run 1 records: are not in the result, so its level summaries cannot be recomputed.*\[rule: records-reproduce\]$/m],
    ],
    [
      'a result whose summary was edited (its records give another figure)',
      () => [
        '--baseline',
        baseline,
        '--optimized',
        file('edited.json', { ...pair.optimized, levels: pair.optimized.levels.map((l, i) => (i === 1 ? { ...l, throughputTokS: 900 } : l)) }),
      ],
      [/^ {2}evidence\.optimized: run 1 levels\[c=2\]\.throughputTokS: states 900, its records give .*\[rule: records-reproduce\]$/m],
    ],
    [
      'a quality score from other servers',
      () => [
        '--baseline',
        baseline,
        '--optimized',
        optimized,
        '--quality',
        file('qother.json', {
          ...measured,
          compared: { ...measured.compared, candidate: { model: 'demo-model', fingerprint: 'c'.repeat(64), engine: 'vllm', engineVersion: '0.9.1' } },
        }),
      ],
      [/^ {2}evidence\.quality: compared\.candidate\.fingerprint: is "c{64}", but the optimized run recorded "b{64}".*\[rule: quality-belongs\]$/m],
    ],
    [
      'a title that states a figure and names a host',
      () => ['--baseline', baseline, '--optimized', optimized, '--title', 'FP8 is 3.2x faster on gpu-node-7.prod.corp'],
      [/^ {2}title: holds a hostname .*\[rule: no-internal-identifiers\]$/m, /^ {2}title: claims a figure \("3\.2x"\).*\[rule: no-numeric-claims\]$/m],
    ],
    // The allow-list of identity labels now refuses the path before the gate would (the gate still does: gate.test.ts).
    [
      'a receipt the gate would refuse (a model served under a file path)',
      () => [
        '--baseline',
        file('pb.json', evidenceResult({ ...OPT_BASE, model: '/mnt/models/demo' })),
        '--optimized',
        file('po.json', optimizedWith({ model: '/mnt/models/demo' })),
      ],
      [/^ {2}evidence\.baseline: contract\.model\.name: "\/mnt\/models\/demo" is not a name token .*\[rule: allow-list\]$/m],
    ],
    [
      'a run signed by goodput run --sign whose result was edited after signing',
      () => {
        const signed = file('signed-b.json', pair.baseline);
        writeFileSync(`${signed}.dsse.json`, signedResult(Buffer.from('another result'), runKey(), 'a'.repeat(64)));
        return ['--baseline', signed, '--optimized', optimized];
      },
      [/^ {2}--baseline: .*signed-b\.json\.dsse\.json: signs a file of \d+ bytes .*the result was changed after signing \[rule: signature\]$/m],
    ],
    [
      'a quality file without its scale note, and a missing run, both reported',
      () => ['--baseline', join(dir, 'gone.json'), '--optimized', optimized, '--quality', file('q.json', { ...measured, scaleNote: '' })],
      [/^ {2}--quality: .*q\.json: scaleNote: the scale note must be stated$/m, /^ {2}--baseline: .*gone\.json does not exist$/m],
    ],
  ];
  for (const [what, args, messages] of cases) {
    it(`refuses ${what}: exit 2, one line per problem, nothing written`, async () => {
      const out = join(dir, `refused-${what.replace(/\W+/g, '-')}.json`);
      const r = await create(args(), out);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^goodput: no receipt written:\n/);
      for (const m of messages) expect(r.stderr).toMatch(m);
      expect(existsSync(out)).toBe(false);
    });
  }

  it('reads a stored run by id through --data, and refuses it when it has no contract', async () => {
    const data = join(dir, 'db');
    const swept = await cli([
      'sweep',
      '--url',
      sim.url,
      '--levels',
      '1',
      '--requests-per-level',
      '2',
      '--output-tokens',
      '16',
      '--prompt-tokens',
      '8',
      '--data',
      data,
    ]);
    expect(swept.code).toBe(0);
    const out = join(dir, 'stored.json');
    const r = await create(['--baseline', '1', '--optimized', optimized, '--data', data], out);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('  baseline: the run carries no contract, so its workload cannot be reconstructed');
    expect(existsSync(out)).toBe(false);
    const missing = await create(['--baseline', '99', '--optimized', optimized, '--data', data], out);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/99/);
  });
});

describe('goodput publish', () => {
  let receiptFile: string;
  beforeAll(async () => {
    receiptFile = join(dir, 'publish-receipts', 'r.json');
    expect((await create(['--baseline', baseline, '--optimized', optimized, '--quality', quality], receiptFile)).code).toBe(0);
  });

  it('writes the site from a directory of receipts and a price file', async () => {
    const out = join(dir, 'site');
    const r = await cli(['publish', '--receipts', join(dir, 'publish-receipts'), '--prices', prices, '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const id = receiptSchema.parse(JSON.parse(readFileSync(receiptFile, 'utf8'))).id;
    expect(readdirSync(out).sort()).toEqual(['dataset.json', 'evidence', `${id}.html`, `${id}.png`, 'index.html', 'prices.json', 'receipts'].sort());
    expect(readdirSync(join(out, 'receipts'))).toEqual([`${id}.json`]);
    expect(readdirSync(join(out, 'evidence'))).toHaveLength(3);
  });

  it('refuses a receipt whose stated numbers differ from its evidence, naming each, and leaves the previous site untouched', async () => {
    const out = join(dir, 'site-kept');
    expect((await cli(['publish', '--receipts', receiptFile, '--out', out])).code).toBe(0);
    const before = readFileSync(join(out, 'dataset.json'), 'utf8');
    const receipt = JSON.parse(readFileSync(receiptFile, 'utf8')) as { facts: Array<{ id: string; statistic: string; provenance: string }> };
    const f1 = receipt.facts.find((f) => f.id === 'baseline.ttftSingle');
    const f2 = receipt.facts.find((f) => f.id === 'optimized.peakThroughput');
    if (f1) f1.statistic = 'avg';
    if (f2) f2.provenance = 'not recorded';
    // Beside the receipt, so its evidence folder is found.
    const bad = join(dir, 'publish-receipts', 'bad-receipt.json');
    writeFileSync(bad, JSON.stringify(receipt));
    const r = await cli(['publish', '--receipts', bad, '--out', out]);
    rmSync(bad);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^goodput: nothing published:\n/);
    expect(r.stderr).toMatch(
      /^ {2}--receipts: .*bad-receipt\.json: facts\[baseline\.ttftSingle\]\.statistic: states "avg", the evidence gives "p50 at concurrency 1" \[rule: stated-equals-recomputed\]$/m,
    );
    expect(r.stderr).toMatch(
      /^ {2}--receipts: .*bad-receipt\.json: facts\[optimized\.peakThroughput\]\.provenance: states "not recorded", the evidence gives "measured" \[rule: stated-equals-recomputed\]$/m,
    );
    expect(readFileSync(join(out, 'dataset.json'), 'utf8')).toBe(before);
    expect(readdirSync(dir).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });

  const refusals: Array<[string, () => string[], RegExp]> = [
    [
      'an uncited price row',
      () => ['--prices', file('p.yaml', 'tokenPrices:\n  - { provider: X, model: m, inputUsdPer1M: 1, outputUsdPer1M: 2, asOf: 2026-06-01 }\n')],
      /^ {2}--prices: .*p\.yaml: tokenPrices\.0\.sourceUrl: /m,
    ],
    [
      'a blended price (one rate for input and output)',
      () => [
        '--prices',
        file('b.yaml', 'tokenPrices:\n  - { provider: X, model: m, blendedUsdPer1M: 1, sourceUrl: "https://example.com", asOf: 2026-06-01 }\n'),
      ],
      /^ {2}--prices: .*b\.yaml: tokenPrices\.0\.inputUsdPer1M: inputUsdPer1M must be a number/m,
    ],
    [
      'a receipt file of the version that carried no evidence',
      () => ['--receipts', file('notreceipt.json', { receiptVersion: 1 })],
      /^ {2}--receipts: .*notreceipt\.json: receiptVersion: must be 2: receipts carry their evidence now/m,
    ],
    [
      'an empty receipts directory',
      () => {
        const d = join(dir, 'empty');
        mkdirSync(d, { recursive: true });
        return ['--receipts', d];
      },
      /^ {2}--receipts: .*empty holds no \.json receipt$/m,
    ],
  ];
  for (const [what, args, message] of refusals) {
    it(`refuses ${what}: exit 2, nothing written`, async () => {
      const out = join(dir, `site-${what.replace(/\W+/g, '-')}`);
      const a = args();
      const r = await cli(['publish', ...(a.includes('--receipts') ? [] : ['--receipts', receiptFile]), ...a, '--out', out]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^goodput: nothing published:\n/);
      expect(r.stderr).toMatch(message);
      expect(existsSync(out)).toBe(false);
    });
  }

  it('refuses to replace a folder that is not a published site', async () => {
    const out = join(dir, 'not-a-site');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'notes.txt'), 'mine');
    const r = await cli(['publish', '--receipts', receiptFile, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `goodput: nothing published:\n  --out: ${out} is not empty and holds no published site (no dataset.json); choose an empty or new directory\n`,
    );
    expect(readdirSync(out)).toEqual(['notes.txt']);
  });

  it('refuses an --out under a regular file as a usage error (exit 2, no stack trace, no gate wording), writing nothing', async () => {
    const parent = join(dir, 'out-parent');
    mkdirSync(parent, { recursive: true });
    const blocker = join(parent, 'FILE');
    writeFileSync(blocker, 'not a folder');
    for (const out of [join(blocker, 'site'), join(blocker, 'deeper', 'site')]) {
      const r = await cli(['publish', '--receipts', receiptFile, '--out', out]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`goodput: nothing published:\n  --out: cannot write the site to ${out}: a part of the path is a file, not a directory\n`);
      expect(r.stderr).not.toMatch(/refused 0|\n\s+at /);
    }
    expect(readFileSync(blocker, 'utf8')).toBe('not a folder');
    expect(readdirSync(parent)).toEqual(['FILE']);
  });
});
