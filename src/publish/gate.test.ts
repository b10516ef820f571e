/**
 * The provenance gate, one test per rule: a receipt (or price table, or
 * dataset) that breaks the rule is refused with a message naming the number
 * and the rule, and nothing is rendered. A clean receipt passes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { qualityScoreSchema } from '../core/index.js';
import { qualityFixture } from '../test-support/quality-fixture.js';
import { receiptPair } from '../test-support/receipt-fixture.js';
import { type Fact } from './fact.js';
import { NO_PRICES, type Prices } from './prices.js';
import { type Receipt } from './receipt-schema.js';
import { type SiteView, siteView } from './site-view.js';
import { buildReceipt } from './build-receipt.js';
import { datasetOf } from './dataset.js';
import { gateDataset, runGate } from './gate.js';
import { receiptNumbers } from './receipt-view.js';
import { renderSite } from './publish-site.js';

let good: Receipt;
beforeAll(() => {
  const r = buildReceipt({ ...receiptPair(), quality: qualityScoreSchema.parse(qualityFixture()), method: 'FP8 dynamic quantization', generator: '0.1.0' });
  if (!r.ok) throw new Error(r.problems.join('\n'));
  good = r.receipt;
});

const PRICES: Prices = {
  tokenPrices: [
    { provider: 'Example Cloud', model: 'demo-model', inputUsdPer1M: 0.5, outputUsdPer1M: 1.5, sourceUrl: 'https://example.com/pricing', asOf: '2026-06-01' },
  ],
  instancePrices: [
    { provider: 'Example Cloud', sku: 'example-8gpu', gpus: 8, usdPerHourWholeInstance: 40, sourceUrl: 'https://example.com/instances', asOf: '2026-06-01' },
  ],
};

const copy = (): Receipt => structuredClone(good);
const withFact = (id: string, change: (f: Fact) => void): Receipt => {
  const r = copy();
  change(r.facts.find((f) => f.id === id) as Fact);
  return r;
};
/** The gate's messages for one receipt, after checking that nothing renders. */
function refused(r: Receipt, prices: Prices = NO_PRICES): string[] {
  const out = renderSite([r], prices, '0.1.0');
  expect(out.files.size).toBe(0);
  return out.violations.map((v) => v.message);
}
const ID = () => good.id;

describe('the provenance gate', () => {
  it('passes a clean receipt with cited prices', () => {
    const out = renderSite([good], PRICES, '0.1.0');
    expect(out.violations).toEqual([]);
    expect([...out.files.keys()]).toEqual(['dataset.json', 'index.html', `${good.id}.html`, `${good.id}.png`]);
  });

  it('provenance: a number flagged "not recorded" that still has a value is refused', () => {
    const r = withFact('baseline.e2eSingle', (f) => {
      f.provenance = 'not recorded';
    });
    expect(refused(r)).toEqual([
      `${ID()}: baseline.e2eSingle (Request latency (e2e), baseline): has a value but is flagged "not recorded"; only measured or derived numbers ship [rule: provenance]`,
    ]);
  });

  it('provenance: a null "not recorded" number passes and renders as not recorded', () => {
    const r = withFact('baseline.e2eSingle', (f) => {
      f.value = null;
      f.provenance = 'not recorded';
    });
    const out = renderSite([r], NO_PRICES, '0.1.0');
    expect(out.violations).toEqual([]);
    expect(String(out.files.get(`${good.id}.html`))).toContain(
      `data-fact="${good.id}/baseline.e2eSingle" data-statistic="p50 at concurrency 1" data-provenance="not recorded" data-configuration="baseline: bf16, no quantization, vllm 0.9.1">not recorded</data>`,
    );
  });

  it('derived numbers must name measured sources', () => {
    const r = withFact('optimized.costPer1M', (f) => {
      f.derivedFrom = ['optimized.listPrice'];
    });
    expect(refused(r)).toEqual([
      `${ID()}: optimized.costPer1M (Cost per 1M output tokens, optimized): is derived from optimized.listPrice, which is not a measured number of this receipt [rule: derived-sources]`,
    ]);
    const none = withFact('optimized.costPer1M', (f) => {
      delete f.derivedFrom;
    });
    expect(refused(none)).toEqual([
      `${ID()}: optimized.costPer1M (Cost per 1M output tokens, optimized): is derived but names no source [rule: derived-sources]`,
    ]);
  });

  it('the workload must be reconstructable: both hashes present and the same workload on both sides', () => {
    const r = copy();
    r.configurations.optimized.contractHash = null;
    expect(refused(r)).toEqual([
      `${ID()}: every optimized number: has no verified contract hash and workload hash, so its workload cannot be reconstructed [rule: workload-reconstructable]`,
    ]);
    const mixed = copy();
    mixed.configurations.optimized.workloadHash = 'f'.repeat(64);
    expect(refused(mixed)).toEqual([
      `${ID()}: every number: the baseline and optimized workloads differ; both sides must run the same load test [rule: workload-reconstructable]`,
      `${ID()}: every optimized number: has workloadHash ${'f'.repeat(64)}, but the receipt's workload lines hash to ${good.workload.hash}; the workload was edited [rule: workload-reconstructable]`,
    ]);
  });

  it('workload-reconstructable: a contract or workload hash that is not 64 lowercase hex digits is refused', () => {
    const r = copy();
    r.configurations.baseline.contractHash = 'abc123';
    r.configurations.optimized.contractHash = (good.configurations.optimized.contractHash as string).toUpperCase();
    expect(refused(r)).toEqual([
      `${ID()}: every baseline number: has contractHash "abc123", which is not a sha256 (64 lowercase hex digits) [rule: workload-reconstructable]`,
      `${ID()}: every optimized number: has contractHash "${(good.configurations.optimized.contractHash as string).toUpperCase()}", which is not a sha256 (64 lowercase hex digits) [rule: workload-reconstructable]`,
    ]);
  });

  it('workload-reconstructable: the workload lines must hash back to the workload hash of the receipt and of both configurations', () => {
    const edited = copy();
    edited.workload.lines = edited.workload.lines.map((l) => (l.startsWith('workload: ') ? l.replace('"outputTokens":[64]', '"outputTokens":[128]') : l));
    expect(edited.workload.lines).not.toEqual(good.workload.lines);
    const messages = refused(edited);
    expect(messages).toHaveLength(3);
    expect(messages[0]).toMatch(
      new RegExp(
        `^${ID()}: workload: its lines hash to [0-9a-f]{64}, not to the stated workload hash ${good.workload.hash}; the workload was edited \\[rule: workload-reconstructable\\]$`,
      ),
    );
    expect(messages.slice(1)).toEqual(
      ['baseline', 'optimized'].map((k) =>
        expect.stringMatching(
          new RegExp(`^${ID()}: every ${k} number: has workloadHash ${good.workload.hash}, but the receipt's workload lines hash to [0-9a-f]{64}`),
        ),
      ),
    );
    const garbled = copy();
    garbled.workload.lines = [...good.workload.lines.slice(1), 'load {"levels":[1,2]}'];
    expect(refused(garbled)).toEqual([
      `${ID()}: workload: line ${good.workload.lines.length} ("load {\\"levels\\":[1,2]}") is not "<section>: <json>" for a section of workload, load, decoding, thinking, slo, endpoint, so the workload cannot be rebuilt from the receipt [rule: workload-reconstructable]`,
    ]);
    const unparsable = copy();
    unparsable.workload.lines = unparsable.workload.lines.map((l) => (l.startsWith('load: ') ? `${l}}` : l));
    expect(refused(unparsable)).toEqual([expect.stringMatching(/: workload: line \d+ \(load\) is not valid JSON, so the workload cannot be rebuilt/)]);
  });

  it('workload-reconstructable: recomputes from whatever the lines hold (no path assumed), so a consistently restated workload passes', async () => {
    const { canonicalJson } = await import('../core/index.js');
    const { sha256Hex } = await import('../workload/index.js');
    const r = copy();
    const workload = { prompts: { kind: 'synthetic', tokens: 32 }, outputTokens: 96, requestsPerLevel: 8 };
    r.workload.lines = [`workload: ${canonicalJson(workload)}`, 'load: {"levels":[1,2]}'];
    const hash = sha256Hex(canonicalJson({ workload, load: { levels: [1, 2] } }));
    r.workload.hash = hash;
    r.configurations.baseline.workloadHash = hash;
    r.configurations.optimized.workloadHash = hash;
    expect(renderSite([r], NO_PRICES, '0.1.0').violations).toEqual([]);
  });

  it('derived-sources: a derived number must recompute from its sources, within 1e-6 relative', () => {
    const cost = good.facts.find((f) => f.id === 'optimized.costPer1M') as Fact;
    expect(cost.value).toBeCloseTo((2 / (360 * 3600)) * 1e6, 9);
    const edited = withFact('optimized.costPer1M', (f) => {
      f.value = 1.23;
    });
    expect(refused(edited)).toEqual([
      `${ID()}: optimized.costPer1M (Cost per 1M output tokens, optimized): is 1.23, but its sources (optimized.hourlyRate = 2, optimized.peakThroughput = 360) give ${cost.value}; a derived number must recompute from them [rule: derived-sources]`,
    ]);
    const rounding = withFact('optimized.costPer1M', (f) => {
      f.value = (f.value as number) * (1 + 5e-7);
    });
    expect(renderSite([rounding], NO_PRICES, '0.1.0').violations).toEqual([]);
    const source = withFact('baseline.peakThroughput', (f) => {
      f.value = 200;
    });
    expect(refused(source)).toEqual([
      expect.stringMatching(
        /: baseline\.costPer1M \(Cost per 1M output tokens, baseline\): is 3\.08\d*, but its sources \(baseline\.hourlyRate = 2, baseline\.peakThroughput = 200\) give 2\.77\d*;/,
      ),
    ]);
    const crossed = withFact('optimized.costPer1M', (f) => {
      f.derivedFrom = ['optimized.hourlyRate', 'baseline.peakThroughput'];
    });
    expect(refused(crossed)).toEqual([
      `${ID()}: optimized.costPer1M (Cost per 1M output tokens, optimized): must be derived from exactly one peakThroughput of the optimized configuration; it names optimized.hourlyRate, baseline.peakThroughput [rule: derived-sources]`,
    ]);
  });

  it('derived-sources: the quality composite must recompute from its KL and perplexity components', () => {
    const q = good.facts.find((f) => f.id === 'optimized.quality') as Fact;
    expect(q.value).toBe(0.97);
    const edited = withFact('optimized.quality', (f) => {
      f.value = 0.99;
    });
    expect(refused(edited)).toEqual([
      expect.stringMatching(
        /: optimized\.quality \(Quality score, optimized\): is 0\.99, but its sources \(optimized\.qualityKl = 0\.03, optimized\.qualityPplDelta = 0\.03\d*\) give 0\.(97|969)\d*; a derived number must recompute from them \[rule: derived-sources\]$/,
      ),
    ]);
    const kl = withFact('optimized.qualityKl', (f) => {
      f.value = 3e-7;
    });
    expect(refused(kl)).toEqual([expect.stringMatching(/: optimized\.quality \(Quality score, optimized\): is 0\.97, but its sources .* give 0\.99/)]);
  });

  it('derived-sources: a derived number with no known derivation is refused', () => {
    const r = withFact('baseline.c2.perRequest', (f) => {
      f.provenance = 'derived';
      f.derivedFrom = ['baseline.c2.throughput'];
    });
    expect(refused(r)).toEqual([
      `${ID()}: baseline.c2.perRequest (Per-request rate, baseline): is derived, but perRequest has no known derivation, so it cannot be checked against its sources [rule: derived-sources]`,
    ]);
  });

  it('unique-ids: two facts with one id are refused', () => {
    const r = copy();
    const twin = { ...(r.facts.find((f) => f.id === 'baseline.c2.throughput') as Fact), value: 999 };
    r.facts.push(twin);
    expect(refused(r)).toEqual([`${ID()}: baseline.c2.throughput: is the id of 2 facts; each number of a receipt has its own id [rule: unique-ids]`]);
  });

  it('the statistic must be named: a bare "avg" is refused', () => {
    const r = withFact('baseline.c1.perRequest', (f) => {
      f.statistic = 'avg';
    });
    expect(refused(r)).toEqual([
      `${ID()}: baseline.c1.perRequest (Per-request rate, baseline): has no named statistic ("avg"); say which, e.g. "p50 at concurrency 1" [rule: statistic-named]`,
    ]);
  });

  it('every number is labelled with its configuration: an unnamed configuration is refused for each of its numbers', () => {
    const r = copy();
    r.configurations.baseline.identity = '';
    const messages = refused(r);
    const baselineFacts = good.facts.filter((f) => f.configuration === 'baseline');
    expect(messages).toHaveLength(baselineFacts.length);
    expect(messages[0]).toBe(
      `${ID()}: baseline.peakThroughput (Peak throughput, baseline): belongs to the baseline configuration, which has no identity or method stated [rule: configuration-labelled]`,
    );
  });

  it('a change is claimed only between identically defined statistics: request latency p50 against TTFT p50 is refused', () => {
    const r = copy();
    r.headlines[1] = { factId: 'optimized.ttftSingle', baselineFactId: 'baseline.e2eSingle' };
    expect(refused(r)).toEqual([
      `${ID()}: optimized.ttftSingle (TTFT, optimized): is claimed as a change against baseline.e2eSingle (Request latency (e2e), p50 at concurrency 1), a differently defined statistic; a change is stated only between one definition on both sides [rule: same-definition]`,
    ]);
  });

  it('both fact tables have the same rows: a figure dropped from one side is refused', () => {
    const r = copy();
    r.facts = r.facts.filter((f) => f.id !== 'optimized.tpotSingle');
    r.charts = r.charts.filter((c) => c.id !== 'tpot-single');
    expect(refused(r)).toEqual([
      `${ID()}: optimized.tpotSingle: is missing; both fact tables carry every row, a missing value as "not recorded" [rule: same-rows]`,
    ]);
  });

  it('a chart holds one statistic family on one scale', () => {
    const r = copy();
    r.charts[0] = { id: 'mixed', title: 'Mixed', factIds: ['baseline.ttftSingle', 'optimized.e2eSingle'] };
    expect(refused(r)).toEqual([
      `${ID()}: optimized.e2eSingle (Request latency (e2e), optimized): shares chart mixed with baseline.ttftSingle, but is defined differently (Request latency (e2e), p50 at concurrency 1, ms vs TTFT, p50 at concurrency 1, ms); a chart holds one statistic on one scale [rule: one-family-per-chart]`,
    ]);
  });

  it('list prices never go on a chart', () => {
    const r = copy();
    r.charts[4] = { id: 'cost', title: 'Cost', factIds: ['baseline.costPer1M', 'optimized.costPer1M', 'prices/token/0/output'] };
    expect(refused(r, PRICES)).toEqual([
      `${ID()}: chart cost: prices/token/0/output: is a list price; list prices live in their own tables, never on a measured chart [rule: no-prices-on-charts]`,
    ]);
  });

  it('a quality score never ships without its evaluator and scale note', () => {
    const r = copy();
    if (r.quality) r.quality.scaleNote = '';
    expect(refused(r)).toEqual([
      `${ID()}: optimized.quality (Quality score, optimized): is a quality score without its evaluator and scale note [rule: quality-evaluator]`,
    ]);
  });

  it('the dataset carries no internal identifiers: server URLs, hostnames, API keys, run ids', () => {
    const r = copy();
    r.configurations.optimized.method = 'FP8 on http://10.0.0.7:8000 with key sk-abcdef123456, stored run 12';
    const messages = refused(r);
    expect(messages).toEqual([
      `dataset.json .receipts[0].configurations.optimized.method: contains a URL ("http://10.0.0.7:8000"); internal identifiers never ship [rule: no-internal-identifiers]`,
      `dataset.json .receipts[0].configurations.optimized.method: contains an IP address ("10.0.0.7:8000"); internal identifiers never ship [rule: no-internal-identifiers]`,
      `dataset.json .receipts[0].configurations.optimized.method: contains an API key ("sk-abcdef123456"); internal identifiers never ship [rule: no-internal-identifiers]`,
      `dataset.json .receipts[0].configurations.optimized.method: contains a stored run id ("stored run 12"); internal identifiers never ship [rule: no-internal-identifiers]`,
    ]);
    expect(runGate({ receipts: [], prices: NO_PRICES, dataset: { runs: [{ url: 'x' }] } }).map((v) => v.message)).toEqual([
      'dataset.json .runs[0].url: is an internal identifier field [rule: no-internal-identifiers]',
    ]);
  });

  it('every price row cites an http(s) source and an as-of date', () => {
    const prices: Prices = {
      ...PRICES,
      tokenPrices: [{ ...(PRICES.tokenPrices[0] as Prices['tokenPrices'][number]), sourceUrl: 'ftp://example.com/p', asOf: 'June' }],
    };
    expect(refused(good, prices)).toEqual([
      'prices token row 1 (Example Cloud demo-model): has no http(s) source URL ("ftp://example.com/p") [rule: price-cited]',
      'prices token row 1 (Example Cloud demo-model): has no as-of date ("June") [rule: price-cited]',
    ]);
  });

  it('the dataset the gate checks is the one the pages are rendered from', () => {
    const site = siteView([good], PRICES, '0.1.0');
    expect(runGate({ receipts: [good], prices: PRICES, dataset: datasetOf(site) })).toEqual([]);
    // A note put into the rendered view (not the receipt: the quality section prints it beside the KL) reaches the dataset the gate checks, and is caught there.
    const view = site.receipts[0] as SiteView['receipts'][number];
    const kl = view.quality.findIndex((n) => n.id.endsWith('/optimized.qualityKl'));
    view.quality[kl] = { ...(view.quality[kl] as SiteView['receipts'][number]['quality'][number]), note: 'measured on http://10.0.0.7:8000' };
    const at = receiptNumbers(view).findIndex((n) => n.id.endsWith('/optimized.qualityKl'));
    expect(gateDataset(datasetOf(site)).map((x) => x.message)).toEqual([
      `dataset.json .receipts[0].numbers[${at}].note: contains a URL ("http://10.0.0.7:8000"); internal identifiers never ship [rule: no-internal-identifiers]`,
      `dataset.json .receipts[0].numbers[${at}].note: contains an IP address ("10.0.0.7:8000"); internal identifiers never ship [rule: no-internal-identifiers]`,
    ]);
    // A title with an internal URL is in the view the page prints, so the dataset gate refuses the whole site.
    const r = copy();
    r.title = 'FP8 on localhost';
    const titled = siteView([r], PRICES, '0.1.0');
    expect(titled.receipts[0]?.receipt.title).toBe('FP8 on localhost');
    // Both places the pages print it: the receipt page's title and the index's changelog.
    const hostname = ['.changelog[0].title', '.receipts[0].title'].map(
      (path) => `dataset.json ${path}: contains a hostname ("localhost"); internal identifiers never ship [rule: no-internal-identifiers]`,
    );
    expect(gateDataset(datasetOf(titled)).map((x) => x.message)).toEqual(hostname);
    expect(refused(r)).toEqual(hostname);
  });
});
