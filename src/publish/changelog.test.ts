/**
 * The changelog over three publishes into one folder: an addition keeps the
 * day it was added and the price date it came with; a receipt left out is
 * withdrawn that day, not forgotten; an unreadable history is refused.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contract, level, receiptPair, resultOf } from '../test-support/receipt-fixture.js';
import { type Prices } from './prices.js';
import { type Receipt } from './receipt-schema.js';
import { buildReceipt } from './build-receipt.js';
import { publishSite } from './publish-site.js';

const prices = (asOf: string): Prices => ({
  tokenPrices: [{ provider: 'Example Cloud', model: 'demo-model', inputUsdPer1M: 0.5, outputUsdPer1M: 1.5, sourceUrl: 'https://example.com/pricing', asOf }],
  instancePrices: [],
});

function receipts(): [Receipt, Receipt] {
  const pair = receiptPair();
  const a = buildReceipt({ ...pair, quality: null, method: 'FP8 dynamic quantization', generator: '0.1.0' });
  const int4 = resultOf(contract({ quantization: 'int4' }), [
    level({ c: 1, tokS: 150, perReq: 150, ttft: [32, 45], tpot: 6.5, e2e: 450 }),
    level({ c: 2, tokS: 280, perReq: 140, ttft: [36, 50], tpot: 7, e2e: 480 }),
  ]);
  const b = buildReceipt({ baseline: pair.baseline, optimized: int4, quality: null, method: 'INT4 weight-only', generator: '0.1.0' });
  if (!a.ok || !b.ok) throw new Error('fixture receipts refused');
  return [a.receipt, b.receipt];
}

const changelog = (dir: string) => (JSON.parse(readFileSync(join(dir, 'dataset.json'), 'utf8')) as { changelog: unknown[] }).changelog;

describe('the changelog is a history', () => {
  it("keeps each addition's day and price date, adds new receipts, and withdraws those left out", async () => {
    const [a, b] = receipts();
    const dir = join(mkdtempSync(join(tmpdir(), 'goodput-changelog-')), 'site');
    expect((await publishSite({ receipts: [a], prices: prices('2026-06-01'), outDir: dir, generator: '0.1.0', today: '2026-06-05' })).ok).toBe(true);
    expect((await publishSite({ receipts: [a, b], prices: prices('2026-07-01'), outDir: dir, generator: '0.1.0', today: '2026-07-02' })).ok).toBe(true);
    expect(changelog(dir)).toEqual([
      {
        receipt: b.id,
        title: b.title,
        page: `${b.id}.html`,
        addedOn: '2026-07-02',
        measuredAt: b.measuredAt,
        pricesCapturedAt: '2026-07-01',
        withdrawnOn: null,
      },
      {
        receipt: a.id,
        title: a.title,
        page: `${a.id}.html`,
        addedOn: '2026-06-05',
        measuredAt: a.measuredAt,
        pricesCapturedAt: '2026-06-01',
        withdrawnOn: null,
      },
    ]);
    expect((await publishSite({ receipts: [b], prices: prices('2026-07-01'), outDir: dir, generator: '0.1.0', today: '2026-08-01' })).ok).toBe(true);
    expect(changelog(dir)).toMatchObject([
      { receipt: b.id, withdrawnOn: null },
      { receipt: a.id, addedOn: '2026-06-05', withdrawnOn: '2026-08-01' },
    ]);
    const index = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(index).toContain(`<td>2026-06-05</td><td>${a.title}</td>`); // no link: its page is gone
    expect(index).toContain(`<a href="${b.id}.html">${b.title}</a>`);
  });

  it('checks a carried title by the allow-list: the default title passes, a claim planted in a withdrawn entry is refused', async () => {
    const [a, b] = receipts();
    const dir = join(mkdtempSync(join(tmpdir(), 'goodput-changelog-title-')), 'site');
    expect((await publishSite({ receipts: [a], prices: prices('2026-06-01'), outDir: dir, generator: '0.1.0', today: '2026-06-05' })).ok).toBe(true);
    // a is withdrawn: its default title (model on a GPU label with a memory size) is carried forward.
    expect(a.title).toMatch(/ on .*\d.*: /);
    expect((await publishSite({ receipts: [b], prices: prices('2026-06-01'), outDir: dir, generator: '0.1.0', today: '2026-06-06' })).ok).toBe(true);
    const dataset = readFileSync(join(dir, 'dataset.json'), 'utf8');
    for (const [i, forged] of [
      'Three times faster than before',
      `demo-model on Test GPU 24GB: ${'3'}x faster`,
      'demo-model on Test GPU: halved latency',
    ].entries()) {
      writeFileSync(join(dir, 'dataset.json'), dataset.replace(JSON.stringify(a.title), JSON.stringify(forged)));
      const planted = readFileSync(join(dir, 'dataset.json'), 'utf8');
      const out = await publishSite({ receipts: [b], prices: prices('2026-06-01'), outDir: dir, generator: '0.1.0', today: '2026-06-07' });
      expect(out.ok, `case ${i}`).toBe(false);
      expect(
        out.ok === false && out.problems.find((p) => p.includes(`(${a.id}).title: `) && p.endsWith('[rule: allow-list]')),
        out.ok === false ? out.problems.join('\n') : '',
      ).toBeDefined();
      expect(readFileSync(join(dir, 'dataset.json'), 'utf8')).toBe(planted);
    }
  });

  it("refuses, writing nothing, when the site's dataset.json holds no readable changelog", async () => {
    const [a] = receipts();
    const dir = mkdtempSync(join(tmpdir(), 'goodput-changelog-bad-'));
    writeFileSync(join(dir, 'dataset.json'), '{"changelog": [{"receipt": "x"}]}');
    const out = await publishSite({ receipts: [a], prices: prices('2026-06-01'), outDir: dir, generator: '0.1.0', today: '2026-06-05' });
    expect(out.ok === false && out.problems).toEqual([
      expect.stringMatching(
        /^--out: .*dataset\.json has no valid changelog \(changelog\.0\.title: .*\), so the site's changelog cannot be carried forward; move the old site away/,
      ),
    ]);
    expect(readFileSync(join(dir, 'dataset.json'), 'utf8')).toBe('{"changelog": [{"receipt": "x"}]}');
  });
});
