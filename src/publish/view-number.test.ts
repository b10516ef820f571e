/**
 * Numbers as printed: a small non-zero measured value (a first-token KL of
 * 3e-7 nats) keeps its significant digits instead of printing as zero, on the
 * page and in dataset.json alike.
 */
import { describe, expect, it } from 'vitest';
import { KL_WEIGHT, qualityScoreSchema } from '../core/index.js';
import { qualityFixture } from '../test-support/quality-fixture.js';
import { receiptPair } from '../test-support/receipt-fixture.js';
import { NO_PRICES } from './prices.js';
import { buildReceipt } from './build-receipt.js';
import { renderSite } from './publish-site.js';
import { factText } from './view-number.js';

describe('factText', () => {
  it('prints a non-zero value below its digits with significant digits, never as zero', () => {
    expect(factText({ metric: 'qualityKl', value: 3e-7, digits: 6 })).toBe('3.000e-7');
    expect(factText({ metric: 'qualityPplDelta', value: -2.5e-5, digits: 4 })).toBe('-2.500e-5');
    expect(factText({ metric: 'throughput', value: 0.04, digits: 1 })).toBe('4.000e-2');
  });

  it('keeps the fixed digits where they hold the value, and zero as zero', () => {
    expect(factText({ metric: 'qualityKl', value: 0.03, digits: 6 })).toBe('0.030000');
    expect(factText({ metric: 'qualityKl', value: 1e-6, digits: 6 })).toBe('0.000001');
    expect(factText({ metric: 'qualityKl', value: 0, digits: 6 })).toBe('0.000000');
    expect(factText({ metric: 'throughput', value: 1234.56, digits: 1 })).toBe('1,234.6');
    expect(factText({ metric: 'quality', value: 0.99996, digits: 4 })).toBe('0.9999');
  });

  it('a receipt with a KL of 3e-7 nats shows it on the page and in dataset.json as 3.000e-7', () => {
    const composite = 1 - KL_WEIGHT * (1 - Math.exp(-3e-7));
    const built = buildReceipt({
      ...receiptPair(),
      quality: qualityScoreSchema.parse(qualityFixture(composite)),
      method: 'FP8 dynamic quantization',
      generator: '0.1.0',
    });
    if (!built.ok) throw new Error(built.problems.join('\n'));
    const r = built.receipt;
    expect(r.facts.find((f) => f.id === 'optimized.qualityKl')?.value).toBeCloseTo(3e-7, 12);
    const site = renderSite([r], NO_PRICES, '0.1.0');
    expect(site.violations).toEqual([]);
    const page = String(site.files.get(`${r.id}.html`));
    expect(page).toMatch(new RegExp(`data-fact="${r.id}/optimized.qualityKl"[^>]*>3\\.000e-7 nats</data>`));
    expect(page).not.toContain('>0.000000');
    const dataset = JSON.parse(String(site.files.get('dataset.json'))) as { receipts: Array<{ numbers: Array<{ id: string; text: string }> }> };
    expect(dataset.receipts[0]?.numbers.find((n) => n.id === `${r.id}/optimized.qualityKl`)?.text).toBe('3.000e-7');
  });
});
