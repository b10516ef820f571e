/**
 * Pages and dataset.json cannot drift: every number marked on any page is in
 * the dataset with the same value, statistic and provenance, every number in
 * the dataset is marked on a page, and the dataset holds no JSON number
 * outside such an entry.
 */
import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';
import { qualityScoreSchema } from '../core/index.js';
import { qualityFixture } from '../test-support/quality-fixture.js';
import { contract, level, receiptPair, resultOf } from '../test-support/receipt-fixture.js';
import { type Prices, type Receipt, buildReceipt, renderSite } from './index.js';

interface Entry { id: string; value: number | null; text: string; statistic: string; provenance: string; configuration: string | null }

const PRICES: Prices = {
  tokenPrices: [{ provider: 'Example Cloud', model: 'demo-model', inputUsdPer1M: 0.5, outputUsdPer1M: 1.5, sourceUrl: 'https://example.com/pricing', asOf: '2026-06-01' }],
  instancePrices: [{ provider: 'Example Cloud', sku: 'example-8gpu', gpus: 8, usdPerHourWholeInstance: 40, sourceUrl: 'https://example.com/instances', asOf: '2026-06-02' }],
};

let pages: Map<string, Entry[]>;
let dataset: Entry[];
let strayNumbers: string[];

function receipts(): Receipt[] {
  const pair = receiptPair();
  const one = buildReceipt({ ...pair, quality: qualityScoreSchema.parse(qualityFixture()), method: 'FP8 dynamic quantization', generator: '0.1.0' });
  // A second receipt with an invalid single-stream level: its not-recorded numbers must drift-check too.
  const broken = resultOf(contract({ quantization: 'int4' }), [
    level({ c: 1, tokS: 120, perReq: 120, ttft: [35, 50], tpot: 8, e2e: 540, failed: 1 }), level({ c: 2, tokS: 200, perReq: 100, ttft: [40, 60], tpot: 9, e2e: 600 }),
  ]);
  const two = buildReceipt({ baseline: pair.baseline, optimized: broken, quality: null, method: 'INT4 weight-only', generator: '0.1.0' });
  if (!one.ok || !two.ok) throw new Error('fixture receipts refused');
  return [one.receipt, two.receipt];
}

function walk(x: unknown, path: string, out: Entry[], stray: string[]): void {
  if (typeof x === 'number') stray.push(path);
  else if (Array.isArray(x)) x.forEach((v, i) => walk(v, `${path}[${i}]`, out, stray));
  else if (x !== null && typeof x === 'object') {
    const o = x as Record<string, unknown>;
    if ('value' in o && 'statistic' in o && 'provenance' in o) {
      out.push({ id: String(o.id), value: o.value as number | null, text: String(o.text), statistic: String(o.statistic), provenance: String(o.provenance), configuration: (o.configuration as string | null) ?? null });
      return;
    }
    for (const [k, v] of Object.entries(o)) walk(v, `${path}.${k}`, out, stray);
  }
}

beforeAll(() => {
  const site = renderSite(receipts(), PRICES, '0.1.0');
  expect(site.violations).toEqual([]);
  pages = new Map();
  for (const [name, body] of site.files) {
    if (!name.endsWith('.html')) continue;
    const { document } = parseHTML(String(body));
    pages.set(name, [...document.querySelectorAll('data[data-fact]')].map((d) => ({
      id: d.getAttribute('data-fact') as string, value: d.getAttribute('value') === '' ? null : Number(d.getAttribute('value')),
      text: d.textContent ?? '', statistic: d.getAttribute('data-statistic') as string, provenance: d.getAttribute('data-provenance') as string,
      configuration: d.getAttribute('data-configuration'),
    })));
  }
  dataset = [];
  strayNumbers = [];
  walk(JSON.parse(String(site.files.get('dataset.json'))), '', dataset, strayNumbers);
});

const key = (e: Entry) => JSON.stringify([e.id, e.value, e.statistic, e.provenance, e.configuration]);

describe('pages and dataset.json', () => {
  it('render numbers at all: both receipt pages and the index carry marked numbers', () => {
    expect(pages.size).toBe(3);
    for (const [name, entries] of pages) expect(entries.length, name).toBeGreaterThan(name === 'index.html' ? 3 : 40);
    expect(dataset.some((e) => e.value === null && e.provenance === 'not recorded')).toBe(true);
  });

  it('every number on a page is in dataset.json with the same value, statistic, provenance and configuration', () => {
    const inDataset = new Set(dataset.map(key));
    const missing = [...pages].flatMap(([name, entries]) => entries.filter((e) => !inDataset.has(key(e))).map((e) => `${name}: ${e.id}`));
    expect(missing).toEqual([]);
  });

  it('every number in dataset.json is on a page', () => {
    const shown = new Set([...pages.values()].flatMap((entries) => entries.map(key)));
    expect(dataset.filter((e) => !shown.has(key(e))).map((e) => e.id)).toEqual([]);
  });

  it('the dataset has no number outside a labelled entry, and each entry has a named statistic and a provenance', () => {
    expect(strayNumbers).toEqual([]);
    for (const e of dataset) {
      expect(e.statistic.trim(), e.id).not.toBe('');
      expect(['measured', 'derived', 'not recorded', 'recorded', 'list price']).toContain(e.provenance);
      expect(e.text === 'not recorded').toBe(e.value === null);
    }
  });

  it('list prices appear only on the index, in tables, never inside a chart', () => {
    const prices = [...pages].flatMap(([name, entries]) => entries.filter((e) => e.id.startsWith('prices/')).map(() => name));
    expect(new Set(prices)).toEqual(new Set(['index.html']));
  });
});
