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
import { qualityFixture } from '../test-support/quality-fixture.js';
import { goodReceipt, packReceipt, type ReceiptDir } from '../test-support/receipt-dir.js';
import { publishSite } from './publish-site.js';
import { NO_PRICES } from './prices.js';
import { recomputeReceipt } from './receipt-file.js';
import type { Rule } from './refusal.js';

const TODAY = '2026-07-01';
const root = mkdtempSync(join(tmpdir(), 'goodput-forgery-'));
let good: ReceiptDir;
beforeAll(() => { good = goodReceipt(join(root, 'good.json')); });

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const fact = (d: Doc, id: string): Doc => d.facts.find((f: Doc) => f.id === id);

async function refusalsOf(text: string, dir = root): Promise<string[]> {
  const r = await recomputeReceipt(text, dir, TODAY);
  return r.ok ? [] : r.refusals.map((x) => x.message);
}

/** An edit of the receipt document, and what its refusal must say. */
const edits: Array<[string, (d: Doc) => void, string, Rule]> = [
  ['a TTFT raised by hand', (d) => { fact(d, 'optimized.ttftSingle').value = 40; }, 'facts[optimized.ttftSingle].value: states 40', 'stated-equals-recomputed'],
  ['the cost relabelled measured with a made-up value', (d) => { Object.assign(fact(d, 'optimized.costPer1M'), { provenance: 'measured', value: 0.1 }); }, 'facts[optimized.costPer1M].value', 'stated-equals-recomputed'],
  ['a peak above its own curve', (d) => { fact(d, 'optimized.peakThroughput').value = 900; }, 'facts[optimized.peakThroughput].value: states 900', 'stated-equals-recomputed'],
  ['a curve point plotting 900 tok/s', (d) => { fact(d, 'optimized.c2.throughput').value = 900; }, 'facts[optimized.c2.throughput].value: states 900', 'stated-equals-recomputed'],
  ['a curve point marked invalid', (d) => { d.curves.optimized[2].invalid = true; }, 'curves.optimized[2].invalid: states true', 'stated-equals-recomputed'],
  ['a curve point marked client-bound', (d) => { d.curves.baseline[0].clientBound = true; }, 'curves.baseline[0].clientBound', 'stated-equals-recomputed'],
  ['a curve point at another concurrency', (d) => { d.curves.optimized[1].concurrency = 3; }, 'curves.optimized[1].concurrency: states 3', 'stated-equals-recomputed'],
  ['a curve point removed', (d) => { d.curves.optimized.pop(); }, 'curves.optimized.length: states 2', 'stated-equals-recomputed'],
  ['a bare "avg" statistic', (d) => { fact(d, 'baseline.ttftSingle').statistic = 'avg'; }, 'facts[baseline.ttftSingle].statistic: states "avg"', 'stated-equals-recomputed'],
  ['a unit changed', (d) => { fact(d, 'optimized.tpotSingle').unit = 's'; }, 'facts[optimized.tpotSingle].unit', 'stated-equals-recomputed'],
  ['a label changed', (d) => { fact(d, 'optimized.tpotSingle').label = 'Speed'; }, 'facts[optimized.tpotSingle].label', 'stated-equals-recomputed'],
  ['a number shown with more digits', (d) => { fact(d, 'optimized.peakThroughput').digits = 6; }, 'facts[optimized.peakThroughput].digits', 'stated-equals-recomputed'],
  ['a derivation emptied', (d) => { fact(d, 'optimized.costPer1M').derivedFrom = []; }, 'facts[optimized.costPer1M].derivedFrom.length', 'stated-equals-recomputed'],
  ['a fact moved to the other configuration', (d) => { fact(d, 'optimized.ttftSingle').configuration = 'baseline'; }, 'facts[optimized.ttftSingle].configuration', 'stated-equals-recomputed'],
  ['a fact appended', (d) => { d.facts.push({ ...fact(d, 'optimized.quality'), id: 'optimized.quality2' }); }, 'facts.length', 'stated-equals-recomputed'],
  ['a second quality score', (d) => { d.facts.push({ ...fact(d, 'optimized.quality'), value: 0.99 }); }, 'facts.length', 'stated-equals-recomputed'],
  ['quality 1.45', (d) => { fact(d, 'optimized.quality').value = 1.45; }, 'facts[optimized.quality].value: states 1.45', 'stated-equals-recomputed'],
  ['a negative KL', (d) => { fact(d, 'optimized.qualityKl').value = -0.5; }, 'facts[optimized.qualityKl].value: states -0.5', 'stated-equals-recomputed'],
  ['the failures hidden', (d) => { fact(d, 'baseline.failedTotal').value = null; }, 'facts[baseline.failedTotal].value: states null', 'stated-equals-recomputed'],
  ['a headline swapped to another number', (d) => { d.headlines[1].factId = 'optimized.ttftSingle'; }, 'headlines[1].factId', 'stated-equals-recomputed'],
  ['a headline compared against another baseline', (d) => { d.headlines[0].baselineFactId = 'baseline.c1.throughput'; }, 'headlines[0].baselineFactId', 'stated-equals-recomputed'],
  ['a direction stated by hand', (d) => { d.headlines[2].direction = 'higher is better'; }, 'headlines[2].direction: states "higher is better", the evidence gives (absent)', 'stated-equals-recomputed'],
  ['a chart plotting another number', (d) => { d.charts[0].factIds = ['baseline.c1.throughput', 'optimized.peakThroughput']; }, 'charts[peak-throughput].factIds[0]', 'stated-equals-recomputed'],
  ['a chart retitled', (d) => { d.charts[2].title = 'TTFT, lower'; }, 'charts[ttft-single].title', 'stated-equals-recomputed'],
  ['the scale note rewritten', (d) => { d.quality.scaleNote = 'perfect quality, verified'; }, 'quality.scaleNote: states "perfect quality, verified"', 'stated-equals-recomputed'],
  ['the evaluator definition rewritten', (d) => { d.quality.evaluator = 'our own'; }, 'quality.evaluator', 'stated-equals-recomputed'],
  ['the evaluator id changed', (d) => { d.quality.evaluatorId = 'goodput-quality-v9'; }, 'quality.evaluatorId', 'stated-equals-recomputed'],
  ['the quality line rewritten', (d) => { d.quality.line = 'quality 1.0000'; }, 'quality.line', 'stated-equals-recomputed'],
  ['the limitations emptied', (d) => { d.limitations = []; }, 'limitations.length: states 0', 'stated-equals-recomputed'],
  ['a limitation softened', (d) => { d.limitations[0] = 'Run with care.'; }, 'limitations[0]: states "Run with care."', 'stated-equals-recomputed'],
  ['the cost exclusions removed', (d) => { d.costBasis.text = 'The GPU cost.'; }, 'costBasis.text', 'stated-equals-recomputed'],
  ['the price date moved', (d) => { d.costBasis.priceAsOf = '2026-06-20'; }, 'costBasis.priceAsOf', 'stated-equals-recomputed'],
  ['the workload lines emptied', (d) => { d.workload.lines = []; }, 'workload.lines.length: states 0', 'stated-equals-recomputed'],
  ['a workload line rewritten', (d) => { d.workload.lines[1] = 'load: {"levels":[1,2,4,8],"pattern":{"kind":"concurrency"}}'; }, 'workload.lines[1]', 'stated-equals-recomputed'],
  ['the workload hash replaced', (d) => { d.workload.hash = 'c'.repeat(64); }, 'workload.hash', 'stated-equals-recomputed'],
  ['a configuration identity rewritten', (d) => { d.configurations.optimized.identity = 'fp4, vllm 1.0'; }, 'configurations.optimized.identity', 'stated-equals-recomputed'],
  ['an engine renamed', (d) => { d.configurations.baseline.engine = 'vllm 0.5.0'; }, 'configurations.baseline.engine', 'stated-equals-recomputed'],
  ['a contract hash replaced', (d) => { d.configurations.baseline.contractHash = 'd'.repeat(64); }, 'configurations.baseline.contractHash', 'stated-equals-recomputed'],
  ['a date in the future', (d) => { d.measuredAt = '2027-01-01'; }, 'measuredAt: states "2027-01-01"', 'stated-equals-recomputed'],
  ['an impossible date', (d) => { d.configurations.optimized.measuredAt = '2026-02-30'; }, 'configurations.optimized.measuredAt: states "2026-02-30"', 'stated-equals-recomputed'],
  ['the id changed', (d) => { d.id = 'best-ever'; }, 'id: states "best-ever"', 'stated-equals-recomputed'],
  ['the model renamed', (d) => { d.model = 'bigger-model'; }, 'model: states "bigger-model"', 'stated-equals-recomputed'],
  ['the hardware renamed', (d) => { d.hardware = 'H100'; }, 'hardware: states "H100"', 'stated-equals-recomputed'],
  ['the receipt version changed', (d) => { d.receiptVersion = 1; }, 'receiptVersion: must be 2', 'schema'],
  ['a generator that is not a version', (d) => { d.generator = 'goodput <script>'; }, 'generator: must be a goodput version', 'schema'],
  ['an evidence reference that is not a hash', (d) => { d.evidence.baseline = 'latest'; }, 'evidence.baseline: must be a sha256', 'schema'],
  ['an evidence reference to a missing file', (d) => { d.evidence.quality = 'e'.repeat(64); }, `evidence.quality: names evidence/${'e'.repeat(64)}.json.gz, which is not beside the receipt`, 'evidence-file'],
  ['an extra evidence key', (d) => { d.evidence.extra = 'e'.repeat(64); }, 'evidence', 'schema'],
  ['both sides pointed at one run', (d) => { d.evidence.optimized = d.evidence.baseline; }, 'the baseline and the optimized run are the same run', 'same-workload'],
  ['a title with a URL', (d) => { d.title = 'See https://example.com/results'; }, 'title: holds a URL', 'no-internal-identifiers'],
  ['a title with an IP address', (d) => { d.title = 'Served from 10.0.0.7'; }, 'title: holds an IP address', 'no-internal-identifiers'],
  ['a title with host:port', (d) => { d.title = 'FP8 on gpu01:8000'; }, 'title: holds a host:port', 'no-internal-identifiers'],
  ['a title with an internal hostname', (d) => { d.title = 'FP8 on gpu-node-7.prod.corp'; }, 'title: holds a hostname', 'no-internal-identifiers'],
  ['a title with a single-label machine name', (d) => { d.title = 'FP8 on node17'; }, 'title: holds a machine name', 'no-internal-identifiers'],
  ['a method with a bucket', (d) => { d.configurations.optimized.method = 'weights from s3://team-bucket/fp8'; }, 'configurations.optimized.method: holds a URL', 'no-internal-identifiers'],
  ['a method with a Hugging Face token', (d) => { d.configurations.optimized.method = 'FP8 via hf_abcdefghijklmnopqrstuv'; }, 'configurations.optimized.method: holds a Hugging Face token', 'no-internal-identifiers'],
  ['a method with an API key', (d) => { d.configurations.baseline.method = 'stock, key sk-proj-abcdefghijklmnop'; }, 'configurations.baseline.method: holds an API key', 'no-internal-identifiers'],
  ['a method with a bearer token', (d) => { d.configurations.baseline.method = 'stock; Bearer abc.def'; }, 'configurations.baseline.method: holds a bearer token', 'no-internal-identifiers'],
  ['a method claiming 3.2x', (d) => { d.configurations.optimized.method = 'FP8, 3.2x faster than vLLM'; }, 'configurations.optimized.method: claims a figure ("3.2x")', 'no-numeric-claims'],
  ['a title claiming a percentage', (d) => { d.title = 'FP8 is 40% cheaper'; }, 'title: claims a figure ("40%")', 'no-numeric-claims'],
  ['a title claiming a latency', (d) => { d.title = 'FP8 answers in 20 ms'; }, 'title: claims a figure ("20 ms")', 'no-numeric-claims'],
  ['a title claiming a price', (d) => { d.title = 'FP8 for $0.10'; }, 'title: claims a figure ("$0")', 'no-numeric-claims'],
  ['a zero-width space', (d) => { d.title = 'FP8\u200b quantization'; }, 'title: holds the invisible or control character U+200B', 'no-control-characters'],
  ['a bidi override', (d) => { d.configurations.optimized.method = 'FP8 \u202equantization'; }, 'U+202E', 'no-control-characters'],
  ['an escape sequence', (d) => { d.title = 'FP8 \u001b[2J'; }, 'U+001B', 'no-control-characters'],
  ['a Cyrillic look-alike', (d) => { d.title = 'FP8 qu\u0430ntization'; }, 'title: holds "\u0430" (U+0430)', 'no-confusables'],
  ['fullwidth letters', (d) => { d.title = 'ＦＰ8 quantization'; }, 'title: holds "Ｆ" (U+FF26)', 'no-confusables'],
  ['a title past its limit', (d) => { d.title = `FP8 ${'quantization '.repeat(12)}`; }, 'title: is 160 characters, above the limit of 120', 'text-length'],
  ['an empty method', (d) => { d.configurations.optimized.method = '  '; }, 'configurations.optimized.method: is empty', 'text-length'],
];

describe('a hand-edited receipt is refused, naming the field and the rule', () => {
  it('the untouched receipt recomputes to exactly what it states', async () => {
    expect(await refusalsOf(good.text)).toEqual([]);
  });

  for (const [what, edit, names, rule] of edits) {
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

/** A receipt over edited evidence, in its own folder; `over` replaces one side before packing. */
function withEvidence(name: string, over: Partial<{ baseline: SweepResult; optimized: SweepResult; quality: QualityScore | null }>): ReceiptDir {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  return packReceipt(join(dir, 'r.json'), { ...evidencePair(), quality: qualityFixture(), ...over });
}
const withoutRecomputing = (d: ReceiptDir) => refusalsOf(d.text, join(d.file, '..'));

describe('edited evidence is refused, naming the number and the rule', () => {
  const pair = evidencePair();
  const cases: Array<[string, () => ReceiptDir, string, Rule]> = [
    ['a level summary edited (its records give another figure)', () => withEvidence('summary', { optimized: { ...pair.optimized, levels: pair.optimized.levels.map((l, i) => (i === 1 ? { ...l, throughputTokS: 900 } : l)) } }),
      'evidence.optimized: run 1 levels[c=2].throughputTokS: states 900, its records give', 'records-reproduce'],
    ['a card edited', () => withEvidence('card', { baseline: { ...pair.baseline, cards: { ...pair.baseline.cards, model: pair.optimized.cards.model } } }), 'evidence.baseline: run 1 cards.model', 'records-reproduce'],
    ['records edited (their hash no longer matches)', () => withEvidence('records', { optimized: { ...pair.optimized, records: pair.optimized.records?.map((r, i) => (i === 3 ? { ...r, outputTokens: 99 } : r)) } }),
      'evidence.optimized: run 1 recordsSha256: states', 'records-hash'],
    ['records without a hash', () => withEvidence('nohash', { optimized: { ...pair.optimized, recordsSha256: undefined } }), 'evidence.optimized: run 1 records: are not in the result', 'records-reproduce'],
    ['a contract edited (its hash no longer matches)', () => withEvidence('contract', { baseline: { ...pair.baseline, contract: { ...pair.baseline.contract, version: 1, slo: { ttftMs: { p: 95, max: 900 } } } } }),
      'evidence.baseline: contractHash: states', 'contract-hash'],
    ['a run that did not complete', () => withEvidence('stopped', { optimized: { ...pair.optimized, run: { ...pair.optimized.run, status: 'stopped', stopReason: 'interrupted' } } }),
      'evidence.optimized: run 1 status: is stopped (interrupted)', 'run-complete'],
    ['an optimized run of a different model', () => withEvidence('model', { optimized: evidenceResult({ quantization: 'fp8', model: 'other-model', levels: [{ c: 1, ttftMs: 30, tpotMs: 5 }], fingerprint: 'b'.repeat(64) }) }),
      'the models differ: the baseline serves "demo-model" at revision "r1" and the optimized run "other-model"', 'one-model'],
    ['another revision of the model', () => withEvidence('revision', { optimized: evidenceResult({ quantization: 'fp8', revision: 'r2', levels: [{ c: 1, ttftMs: 30, tpotMs: 5 }], fingerprint: 'b'.repeat(64) }) }),
      'at revision "r1" and the optimized run "demo-model" at revision "r2"', 'one-model'],
    ['a run on another GPU', () => withEvidence('gpu', { optimized: evidenceResult({ quantization: 'fp8', label: 'Other GPU', levels: [{ c: 1, ttftMs: 30, tpotMs: 5 }], fingerprint: 'b'.repeat(64) }) }),
      'the GPUs differ', 'same-gpu'],
    ['a run measured in the future', () => withEvidence('future', { optimized: evidenceResult({ quantization: 'fp8', startedAt: '2026-09-01T00:00:00.000Z', levels: [{ c: 1, ttftMs: 30, tpotMs: 5 }, { c: 2, ttftMs: 32, tpotMs: 5.5 }, { c: 4, ttftMs: 40, tpotMs: 7 }], fingerprint: 'b'.repeat(64) }) }),
      'configurations.optimized.measuredAt: 2026-09-01 is after the publishing day 2026-07-01', 'date'],
    ['a quality score from other servers', () => withEvidence('qfp', { quality: { ...qualityFixture(), compared: { ...(qualityFixture().compared as NonNullable<QualityScore['compared']>), baseline: { model: 'demo-model', fingerprint: 'c'.repeat(64), engine: 'vllm', engineVersion: '0.9.1' } } } }),
      'evidence.quality: compared.baseline.fingerprint: is "cccc', 'quality-belongs'],
    ['a quality score of another model', () => withEvidence('qmodel', { quality: { ...qualityFixture(), compared: { ...(qualityFixture().compared as NonNullable<QualityScore['compared']>), candidate: { model: 'other-model', fingerprint: 'b'.repeat(64), engine: 'vllm', engineVersion: '0.9.1' } } } }),
      'evidence.quality: compared.candidate.model: is "other-model", but the optimized run recorded "demo-model"', 'quality-belongs'],
    ['a quality score of another engine version', () => withEvidence('qengine', { quality: { ...qualityFixture(), compared: { ...(qualityFixture().compared as NonNullable<QualityScore['compared']>), candidate: { model: 'demo-model', fingerprint: 'b'.repeat(64), engine: 'vllm', engineVersion: '0.10.0' } } } }),
      'evidence.quality: compared.candidate.engineVersion', 'quality-belongs'],
    ['a quality score that says nothing of what it compared', () => withEvidence('qnone', { quality: { ...qualityFixture(), compared: undefined } }), 'evidence.quality: compared: is absent', 'quality-belongs'],
    ['a quality score measured in the future', () => withEvidence('qfuture', { quality: { ...qualityFixture(), compared: { ...(qualityFixture().compared as NonNullable<QualityScore['compared']>), measuredAt: '2026-12-01T00:00:00.000Z' } } }),
      'evidence.quality: compared.measuredAt: 2026-12-01 is after the publishing day', 'date'],
    ['a quality score whose composite does not follow from its parts', () => withEvidence('qcomposite', { quality: { ...qualityFixture(), composite: 0.99 } }), 'evidence.quality: ', 'schema'],
  ];
  for (const [what, make, names, rule] of cases) {
    it(what, async () => {
      const messages = await withoutRecomputing(make());
      expect(messages.find((m) => m.includes(names) && m.endsWith(`[rule: ${rule}]`)), messages.join('\n')).toBeDefined();
    });
  }

  it('an evidence file edited after the receipt named it', async () => {
    const d = withEvidence('bytes', {});
    const path = join(d.file, '..', 'evidence', `${d.refs.baseline}.json.gz`);
    writeFileSync(path, gzipSync(Buffer.from(JSON.stringify({ ...pair.baseline, warnings: [] }) + ' ')));
    const messages = await withoutRecomputing(d);
    expect(messages).toEqual([expect.stringMatching(new RegExp(`^evidence\\.baseline: names ${d.refs.baseline}, but the file's content hashes to [0-9a-f]{64}; the evidence was edited \\[rule: evidence-hash\\]$`))]);
  });

  it('an evidence file that is not gzip', async () => {
    const d = withEvidence('notgz', {});
    writeFileSync(join(d.file, '..', 'evidence', `${d.refs.optimized}.json.gz`), '{}');
    expect(await withoutRecomputing(d)).toEqual([expect.stringMatching(/^evidence\.optimized: .* is not a gzip file .*\[rule: evidence-file\]$/)]);
  });

  it('evidence with a key stated twice, under its own correct hash', async () => {
    const d = withEvidence('dupkey', {});
    const plain = JSON.stringify(qualityFixture()).replace('"n":2', '"n":2,"n":2');
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
  const entry = (over: Doc) => ({ receipt: 'ghost', title: 'Ghost', page: 'ghost.html', addedOn: '2026-06-05', measuredAt: '2026-06-01', pricesCapturedAt: null, withdrawnOn: null, ...over });

  it('an entry for a receipt that never existed', async () => {
    expect(await forge('ghost', (c) => { c.push(entry({})); })).toEqual([expect.stringMatching(/changelog\[1\] \(ghost\): is listed as published, but the site holds no receipts\/ghost\.json.*\[rule: changelog-history\]$/)]);
  });
  it('an entry added before it was measured', async () => {
    expect(await forge('early', (c) => { (c[0] as Doc).addedOn = '2026-05-01'; })).toEqual([expect.stringMatching(/changelog\[0\] .*: was added on 2026-05-01, before it was measured \(2026-06-03\).*\[rule: changelog-history\]$/)]);
  });
  it('an entry added in the future', async () => {
    expect(await forge('future', (c) => { (c[0] as Doc).addedOn = '2026-08-01'; })).toEqual([expect.stringMatching(/changelog\[0\] .*\.addedOn: 2026-08-01 is after the publishing day 2026-07-01 \[rule: changelog-history\]$/)]);
  });
  it('an entry on an impossible day', async () => {
    expect(await forge('impossible', (c) => { (c[0] as Doc).addedOn = '2026-06-31'; })).toEqual(expect.arrayContaining([expect.stringMatching(/\.addedOn: "2026-06-31" is not a calendar date \[rule: changelog-history\]$/)]));
  });
  it('an entry whose title is not its receipt\'s', async () => {
    expect(await forge('title', (c) => { (c[0] as Doc).title = 'The fastest ever'; })).toEqual([expect.stringMatching(/states "The fastest ever" measured 2026-06-03, but the receipt recomputes to "demo-model on Test GPU 24GB: FP8 dynamic quantization".*\[rule: changelog-history\]$/)]);
  });
  it('an entry withdrawn before it was added', async () => {
    expect(await forge('withdrawn', (c) => { c.push(entry({ withdrawnOn: '2026-06-01', addedOn: '2026-06-05' })); })).toEqual([expect.stringMatching(/changelog\[1\] \(ghost\): was withdrawn on 2026-06-01, before it was added.*\[rule: changelog-history\]$/)]);
  });
});

describe('price files are checked as they reach the page', () => {
  const row = (over: Doc) => ({ tokenPrices: [{ provider: 'Example Cloud', model: 'demo-model', inputUsdPer1M: 0.5, outputUsdPer1M: 1.5, sourceUrl: 'https://example.com/p', asOf: '2026-06-01', ...over }], instancePrices: [] });
  const publishWith = (name: string, prices: Doc) => publishSite({ receipts: [good.receipt], prices: prices as never, outDir: join(root, `prices-${name}`), generator: '0.1.0', today: TODAY });
  it('a price read after the publishing day', async () => {
    const out = await publishWith('future', row({ asOf: '2026-07-02' }));
    expect(out.ok ? [] : out.problems).toEqual([expect.stringMatching(/^--prices: tokenPrices\.0\.asOf: 2026-07-02 is after the publishing day 2026-07-01 \[rule: date\]$/)]);
  });
  it('a provider name with a look-alike letter', async () => {
    const out = await publishWith('lookalike', row({ provider: 'Ex\u0430mple Cloud' }));
    expect(out.ok ? [] : out.problems).toEqual([expect.stringMatching(/^--prices: tokenPrices\.0\.provider: holds "\u0430".*\[rule: no-confusables\]$/)]);
  });
});
