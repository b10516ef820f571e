// Hand-edited receipts, evidence and site histories, one violation each: every
// one is refused, naming the field or number and the rule, and the untouched
// receipt recomputes. A receipt's numbers are recomputed from its evidence, so
// an edit anywhere shows up as a difference.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { QualityScore, SweepResult } from '../core/index.js';
import { evidencePair, evidenceResult } from '../test-support/evidence-fixture.js';
import { measuredQualityFixture } from '../test-support/quality-fixture.js';
import { goodReceipt, packReceipt, type ReceiptDir } from '../test-support/receipt-dir.js';
import { RECEIPT_EDITS } from '../test-support/receipt-edits.js';
import { publishSite } from './publish-site.js';
import { NO_PRICES } from './prices.js';
import { recomputeReceipt } from './receipt-file.js';
import type { Rule } from './refusal.js';

const TODAY = '2026-07-01';
/** The score goodput writes for evidencePair: per-prompt evidence, both runs named. */
const mq = () => measuredQualityFixture(evidencePair());
const root = mkdtempSync(join(tmpdir(), 'goodput-forgery-'));
let good: ReceiptDir;
beforeAll(() => {
  good = goodReceipt(join(root, 'good.json'));
});

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function refusalsOf(text: string, dir = root): Promise<string[]> {
  const r = await recomputeReceipt(text, dir, TODAY);
  return r.ok ? [] : r.refusals.map((x) => x.message);
}

describe('a hand-edited receipt is refused, naming the field and the rule', () => {
  it('the untouched receipt recomputes to exactly what it states', async () => {
    expect(await refusalsOf(good.text)).toEqual([]);
  });

  for (const [what, edit, names, rule] of RECEIPT_EDITS) {
    it(what, async () => {
      const doc = JSON.parse(good.text) as Doc;
      edit(doc);
      const messages = await refusalsOf(JSON.stringify(doc));
      const hit = messages.find((m) => m.includes(names) && m.endsWith(`[rule: ${rule}]`));
      expect(hit, messages.join('\n')).toBeDefined();
    });
  }

  it('a key stated twice (the second would win in JSON.parse)', async () => {
    const text = good.text.replace('"hardware": "Test GPU 24GB",', '"hardware": "Test GPU 24GB",\n  "hardware": "H200",');
    expect(await refusalsOf(text)).toEqual([expect.stringMatching(/^\(receipt\): states the key hardware twice.*\[rule: no-duplicate-keys\]$/)]);
  });

  it('text that is not JSON, or not an object', async () => {
    expect(await refusalsOf('{"receiptVersion": 2,')).toEqual([expect.stringMatching(/^\(receipt\): is not valid JSON.*\[rule: schema\]$/)]);
    expect(await refusalsOf('[]')).toEqual([expect.stringMatching(/^\(top level\): .*\[rule: schema\]$/)]);
  });
});

describe("the Pareto view's per-GPU facts are recomputed like every other", () => {
  const gpus = { label: '4× Test GPU 24GB' };
  let dir: ReceiptDir;
  beforeAll(() => {
    mkdirSync(join(root, 'per-gpu'), { recursive: true });
    const pair = evidencePair({ baseline: gpus, optimized: gpus });
    dir = packReceipt(join(root, 'per-gpu', 'r.json'), { ...pair, quality: measuredQualityFixture(pair) });
  });
  const fact = (d: Doc, id: string): Doc => d.facts.find((f: Doc) => f.id === id);
  const edited = async (edit: (d: Doc) => void) => {
    const doc = JSON.parse(dir.text) as Doc;
    edit(doc);
    return refusalsOf(JSON.stringify(doc), join(dir.file, '..'));
  };

  it("the untouched receipt states the GPU count as recorded and each level's throughput per GPU as derived from it", async () => {
    expect(await refusalsOf(dir.text, join(dir.file, '..'))).toEqual([]);
    const doc = JSON.parse(dir.text) as Doc;
    expect([fact(doc, 'optimized.gpuCount').value, fact(doc, 'optimized.gpuCount').provenance]).toEqual([4, 'recorded']);
    const perGpu = fact(doc, 'optimized.c2.throughputPerGpu');
    expect([perGpu.value, perGpu.provenance, perGpu.derivedFrom]).toEqual([
      fact(doc, 'optimized.c2.throughput').value / 4,
      'derived',
      ['optimized.c2.throughput', 'optimized.gpuCount'],
    ]);
  });

  it('a per-GPU throughput raised by hand is refused, naming it', async () => {
    const messages = await edited((d) => {
      fact(d, 'optimized.c2.throughputPerGpu').value *= 2;
    });
    expect(
      messages.find((m) => m.includes('facts[optimized.c2.throughputPerGpu].value: states') && m.endsWith('[rule: stated-equals-recomputed]')),
      messages.join('\n'),
    ).toBeDefined();
  });

  it("a GPU count halved with every per-GPU figure doubled to match is refused: the count comes from the run's hardware label", async () => {
    const messages = await edited((d) => {
      fact(d, 'optimized.gpuCount').value = 2;
      for (const f of d.facts as Doc[]) if (f.id.startsWith('optimized.') && f.metric === 'throughputPerGpu') f.value *= 2;
    });
    expect(
      messages.find((m) => m.includes('facts[optimized.gpuCount].value: states 2') && m.endsWith('[rule: stated-equals-recomputed]')),
      messages.join('\n'),
    ).toBeDefined();
  });
});

/** A receipt over edited evidence, in its own folder; `over` replaces one side before packing. */
function withEvidence(name: string, over: Partial<{ baseline: SweepResult; optimized: SweepResult; quality: QualityScore | null }>): ReceiptDir {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  return packReceipt(join(dir, 'r.json'), { ...evidencePair(), quality: mq(), ...over });
}
const withoutRecomputing = (d: ReceiptDir) => refusalsOf(d.text, join(d.file, '..'));
const daysBefore = (at: string | null, days: number) => new Date(Date.parse(at ?? '') - days * 86_400_000).toISOString();

describe('edited evidence is refused, naming the number and the rule', () => {
  const pair = evidencePair();
  const cases: Array<[string, () => ReceiptDir, string, Rule]> = [
    [
      'a level summary edited (its records give another figure)',
      () =>
        withEvidence('summary', {
          optimized: { ...pair.optimized, levels: pair.optimized.levels.map((l, i) => (i === 1 ? { ...l, throughputTokS: 900 } : l)) },
        }),
      'evidence.optimized: run 1 levels[c=2].throughputTokS: states 900, its records give',
      'records-reproduce',
    ],
    [
      'a card edited',
      () => withEvidence('card', { baseline: { ...pair.baseline, cards: { ...pair.baseline.cards, model: pair.optimized.cards.model } } }),
      'evidence.baseline: run 1 cards.model',
      'records-reproduce',
    ],
    [
      'records edited (their hash no longer matches)',
      () =>
        withEvidence('records', {
          optimized: { ...pair.optimized, records: pair.optimized.records?.map((r, i) => (i === 3 ? { ...r, outputTokens: 99 } : r)) },
        }),
      'evidence.optimized: run 1 recordsSha256: states',
      'records-hash',
    ],
    [
      'records without a hash',
      () => withEvidence('nohash', { optimized: { ...pair.optimized, recordsSha256: undefined } }),
      'evidence.optimized: run 1 records: are not in the result',
      'records-reproduce',
    ],
    [
      'a contract edited (its hash no longer matches)',
      () =>
        withEvidence('contract', { baseline: { ...pair.baseline, contract: { ...pair.baseline.contract, version: 1, slo: { ttftMs: { p: 95, max: 900 } } } } }),
      'evidence.baseline: contractHash: states',
      'contract-hash',
    ],
    [
      'a run that did not complete',
      () => withEvidence('stopped', { optimized: { ...pair.optimized, run: { ...pair.optimized.run, status: 'stopped', stopReason: 'interrupted' } } }),
      'evidence.optimized: run 1 status: is stopped (interrupted)',
      'run-complete',
    ],
    [
      'an optimized run of a different model',
      () =>
        withEvidence('model', {
          optimized: evidenceResult({ quantization: 'fp8', model: 'other-model', levels: [{ c: 1, ttftMs: 30, tpotMs: 5 }], fingerprint: 'b'.repeat(64) }),
        }),
      'the models differ: the baseline serves "demo-model" at revision "r1" and the optimized run "other-model"',
      'one-model',
    ],
    [
      'another revision of the model',
      () =>
        withEvidence('revision', {
          optimized: evidenceResult({ quantization: 'fp8', revision: 'r2', levels: [{ c: 1, ttftMs: 30, tpotMs: 5 }], fingerprint: 'b'.repeat(64) }),
        }),
      'at revision "r1" and the optimized run "demo-model" at revision "r2"',
      'one-model',
    ],
    [
      'a run on another GPU',
      () =>
        withEvidence('gpu', {
          optimized: evidenceResult({ quantization: 'fp8', label: 'Other GPU', levels: [{ c: 1, ttftMs: 30, tpotMs: 5 }], fingerprint: 'b'.repeat(64) }),
        }),
      'the GPUs differ',
      'same-gpu',
    ],
    [
      'a run measured in the future',
      () =>
        withEvidence('future', {
          optimized: evidenceResult({
            quantization: 'fp8',
            startedAt: '2026-09-01T00:00:00.000Z',
            levels: [
              { c: 1, ttftMs: 30, tpotMs: 5 },
              { c: 2, ttftMs: 32, tpotMs: 5.5 },
              { c: 4, ttftMs: 40, tpotMs: 7 },
            ],
            fingerprint: 'b'.repeat(64),
          }),
        }),
      'configurations.optimized.measuredAt: 2026-09-01 is after the publishing day 2026-07-01',
      'date',
    ],
    [
      'a quality score from other servers',
      () =>
        withEvidence('qfp', {
          quality: {
            ...mq(),
            compared: {
              ...(mq().compared as NonNullable<QualityScore['compared']>),
              baseline: { model: 'demo-model', fingerprint: 'c'.repeat(64), engine: 'vllm', engineVersion: '0.9.1' },
            },
          },
        }),
      'evidence.quality: compared.baseline.fingerprint: is "cccc',
      'quality-belongs',
    ],
    [
      'a quality score of another model',
      () =>
        withEvidence('qmodel', {
          quality: {
            ...mq(),
            compared: {
              ...(mq().compared as NonNullable<QualityScore['compared']>),
              candidate: { model: 'other-model', fingerprint: 'b'.repeat(64), engine: 'vllm', engineVersion: '0.9.1' },
            },
          },
        }),
      'evidence.quality: compared.candidate.model: is "other-model", but the optimized run recorded "demo-model"',
      'quality-belongs',
    ],
    [
      'a quality score of another engine version',
      () =>
        withEvidence('qengine', {
          quality: {
            ...mq(),
            compared: {
              ...(mq().compared as NonNullable<QualityScore['compared']>),
              candidate: { model: 'demo-model', fingerprint: 'b'.repeat(64), engine: 'vllm', engineVersion: '0.10.0' },
            },
          },
        }),
      'evidence.quality: compared.candidate.engineVersion',
      'quality-belongs',
    ],
    [
      'a quality score that says nothing of what it compared',
      () => withEvidence('qnone', { quality: { ...mq(), compared: undefined } }),
      'evidence.quality: compared: is absent',
      'quality-belongs',
    ],
    [
      'a run backdated 200 days, its start moved and its end left (a stale GPU rate would no longer be flagged)',
      () =>
        withEvidence('backdated', { baseline: { ...pair.baseline, run: { ...pair.baseline.run, startedAt: daysBefore(pair.baseline.run.startedAt, 200) } } }),
      `evidence.baseline: run 1 run.startedAt: ${daysBefore(pair.baseline.run.startedAt, 200)} is 200.0 days before the run's end ${pair.baseline.run.endedAt}, more than the limit of 7 days`,
      'date',
    ],
    [
      'a run that ends before it starts',
      () =>
        withEvidence('reversed', { optimized: { ...pair.optimized, run: { ...pair.optimized.run, endedAt: daysBefore(pair.optimized.run.startedAt, 1) } } }),
      `evidence.optimized: run 1 run.endedAt: ${daysBefore(pair.optimized.run.startedAt, 1)} is before the run's start ${pair.optimized.run.startedAt}`,
      'date',
    ],
    [
      'a run start that is not an instant',
      () => withEvidence('notinstant', { baseline: { ...pair.baseline, run: { ...pair.baseline.run, startedAt: '2026-06-02' } } }),
      'evidence.baseline: run 1 run.startedAt: "2026-06-02" is not an ISO instant',
      'date',
    ],
    [
      'a run ending after the publishing day',
      () => withEvidence('endslater', { baseline: { ...pair.baseline, run: { ...pair.baseline.run, endedAt: '2026-07-02T00:00:00.000Z' } } }),
      'evidence.baseline: run 1 run.endedAt: 2026-07-02T00:00:00.000Z is after the publishing day 2026-07-01',
      'date',
    ],
    [
      'a quality score measured in the future',
      () =>
        withEvidence('qfuture', {
          quality: { ...mq(), compared: { ...(mq().compared as NonNullable<QualityScore['compared']>), measuredAt: '2026-12-01T00:00:00.000Z' } },
        }),
      'evidence.quality: compared.measuredAt: 2026-12-01 is after the publishing day',
      'date',
    ],
    [
      'a quality score whose composite does not follow from its parts',
      () => withEvidence('qcomposite', { quality: { ...mq(), composite: 0.99 } }),
      'evidence.quality: ',
      'schema',
    ],
  ];
  for (const [what, make, names, rule] of cases) {
    it(what, async () => {
      const messages = await withoutRecomputing(make());
      expect(
        messages.find((m) => m.includes(names) && m.endsWith(`[rule: ${rule}]`)),
        messages.join('\n'),
      ).toBeDefined();
    });
  }

  it('an evidence file edited after the receipt named it', async () => {
    const d = withEvidence('bytes', {});
    const path = join(d.file, '..', 'evidence', `${d.refs.baseline}.json.gz`);
    writeFileSync(path, gzipSync(Buffer.from(JSON.stringify({ ...pair.baseline, warnings: [] }) + ' ')));
    const messages = await withoutRecomputing(d);
    expect(messages).toEqual([
      expect.stringMatching(
        new RegExp(
          `^evidence\\.baseline: names ${d.refs.baseline}, but the file's content hashes to [0-9a-f]{64}; the evidence was edited \\[rule: evidence-hash\\]$`,
        ),
      ),
    ]);
  });

  it('an evidence file that is not gzip', async () => {
    const d = withEvidence('notgz', {});
    writeFileSync(join(d.file, '..', 'evidence', `${d.refs.optimized}.json.gz`), '{}');
    expect(await withoutRecomputing(d)).toEqual([expect.stringMatching(/^evidence\.optimized: .* is not a gzip file .*\[rule: evidence-file\]$/)]);
  });

  it('evidence with a key stated twice, under its own correct hash', async () => {
    const d = withEvidence('dupkey', {});
    const plain = JSON.stringify(mq()).replace('"n":2', '"n":2,"n":2');
    const forged = packReceipt(join(root, 'dupkey', 'r2.json'), { ...evidencePair(), quality: null });
    const doc = JSON.parse(forged.text) as Doc;
    const { createHash } = await import('node:crypto');
    const sha = createHash('sha256').update(plain).digest('hex');
    writeFileSync(join(root, 'dupkey', 'evidence', `${sha}.json.gz`), gzipSync(plain));
    doc.evidence.quality = sha;
    expect(d.refs.quality).not.toBe(sha);
    const messages = await refusalsOf(JSON.stringify(doc), join(root, 'dupkey'));
    expect(messages).toEqual([expect.stringMatching(/^evidence\.quality: .* states the key n twice.*\[rule: no-duplicate-keys\]$/)]);
  });
});

describe('a forged site history is refused before anything is written', () => {
  const publish = (dir: string, today = TODAY) => publishSite({ receipts: [good.receipt], prices: NO_PRICES, outDir: dir, generator: '0.1.0', today });
  const forge = async (name: string, edit: (changelog: Doc[]) => void) => {
    const dir = join(root, `site-${name}`);
    expect((await publish(dir, '2026-06-10')).ok).toBe(true);
    const dataset = JSON.parse(readFileSync(join(dir, 'dataset.json'), 'utf8')) as Doc;
    edit(dataset.changelog);
    writeFileSync(join(dir, 'dataset.json'), JSON.stringify(dataset));
    const out = await publish(dir);
    expect(out.ok).toBe(false);
    expect(readFileSync(join(dir, 'dataset.json'), 'utf8')).toBe(JSON.stringify(dataset));
    return out.ok ? [] : out.problems;
  };
  const entry = (over: Doc) => ({
    receipt: 'ghost',
    title: 'Ghost',
    page: 'ghost.html',
    addedOn: '2026-06-05',
    measuredAt: '2026-06-01',
    pricesCapturedAt: null,
    withdrawnOn: null,
    ...over,
  });

  it('an entry for a receipt that never existed', async () => {
    expect(
      await forge('ghost', (c) => {
        c.push(entry({}));
      }),
    ).toEqual([
      expect.stringMatching(/changelog\[1\] \(ghost\): is listed as published, but the site holds no receipts\/ghost\.json.*\[rule: changelog-history\]$/),
    ]);
  });
  it('an entry added before it was measured', async () => {
    expect(
      await forge('early', (c) => {
        (c[0] as Doc).addedOn = '2026-05-01';
      }),
    ).toEqual([expect.stringMatching(/changelog\[0\] .*: was added on 2026-05-01, before it was measured \(2026-06-03\).*\[rule: changelog-history\]$/)]);
  });
  it('an entry added in the future', async () => {
    expect(
      await forge('future', (c) => {
        (c[0] as Doc).addedOn = '2026-08-01';
      }),
    ).toEqual([expect.stringMatching(/changelog\[0\] .*\.addedOn: 2026-08-01 is after the publishing day 2026-07-01 \[rule: changelog-history\]$/)]);
  });
  it('an entry on an impossible day', async () => {
    expect(
      await forge('impossible', (c) => {
        (c[0] as Doc).addedOn = '2026-06-31';
      }),
    ).toEqual(expect.arrayContaining([expect.stringMatching(/\.addedOn: "2026-06-31" is not a calendar date \[rule: changelog-history\]$/)]));
  });
  it("an entry whose title is not its receipt's", async () => {
    expect(
      await forge('title', (c) => {
        (c[0] as Doc).title = 'The fastest ever';
      }),
    ).toEqual([
      expect.stringMatching(
        /states "The fastest ever" measured 2026-06-03, but the receipt recomputes to "demo-model on Test GPU 24GB: FP8 dynamic quantization".*\[rule: changelog-history\]$/,
      ),
    ]);
  });
  it('an entry withdrawn before it was added', async () => {
    expect(
      await forge('withdrawn', (c) => {
        c.push(entry({ withdrawnOn: '2026-06-01', addedOn: '2026-06-05' }));
      }),
    ).toEqual([expect.stringMatching(/changelog\[1\] \(ghost\): was withdrawn on 2026-06-01, before it was added.*\[rule: changelog-history\]$/)]);
  });
});

describe('price files are checked as they reach the page', () => {
  const row = (over: Doc) => ({
    tokenPrices: [
      {
        provider: 'Example Cloud',
        model: 'demo-model',
        inputUsdPer1M: 0.5,
        outputUsdPer1M: 1.5,
        sourceUrl: 'https://example.com/p',
        asOf: '2026-06-01',
        ...over,
      },
    ],
    instancePrices: [],
  });
  const publishWith = (name: string, prices: Doc) =>
    publishSite({ receipts: [good.receipt], prices: prices as never, outDir: join(root, `prices-${name}`), generator: '0.1.0', today: TODAY });
  it('a price read after the publishing day', async () => {
    const out = await publishWith('future', row({ asOf: '2026-07-02' }));
    expect(out.ok ? [] : out.problems).toEqual([
      expect.stringMatching(/^--prices: tokenPrices\.0\.asOf: 2026-07-02 is after the publishing day 2026-07-01 \[rule: date\]$/),
    ]);
  });
  it('a provider name with a look-alike letter', async () => {
    const out = await publishWith('lookalike', row({ provider: 'Ex\u0430mple Cloud' }));
    expect(out.ok ? [] : out.problems).toEqual([expect.stringMatching(/^--prices: tokenPrices\.0\.provider: holds "\u0430".*\[rule: no-confusables\]$/)]);
  });
});
