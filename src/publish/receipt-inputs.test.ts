/**
 * A text-generation receipt whose requests carried images or audio says so:
 * `inputs` in the receipt and dataset.json, built from the contract both runs
 * share, and the page's modality line names them. A receipt of text alone has no
 * such field and reads "text generation" as before.
 */
import { describe, expect, it } from 'vitest';
import { type Contract, contractHash, contractSchema } from '../contract/index.js';
import { receiptPair } from '../test-support/receipt-fixture.js';
import { NO_PRICES } from './prices.js';
import { buildReceipt } from './build-receipt.js';
import { renderSite } from './publish-site.js';

/** The fixture's pair, both runs' contracts given `media` in their workload (one workload on both sides). */
function pairWith(media: Record<string, unknown>) {
  const pair = receiptPair();
  const withMedia = (r: typeof pair.baseline) => {
    const c = r.contract as unknown as Contract;
    const raw = structuredClone(c) as unknown as { workload: Record<string, unknown> };
    const next = contractSchema.parse({ ...raw, workload: { ...raw.workload, ...media } });
    return { ...r, contract: next as unknown as Record<string, unknown>, contractHash: contractHash(next) };
  };
  return { baseline: withMedia(pair.baseline), optimized: withMedia(pair.optimized) };
}

function site(media: Record<string, unknown> | null) {
  const built = buildReceipt({ ...(media === null ? receiptPair() : pairWith(media)), quality: null, method: 'FP8 dynamic quantization', generator: '0.1.0' });
  if (!built.ok) throw new Error(built.problems.join('\n'));
  const out = renderSite([built.receipt], NO_PRICES, '0.1.0');
  expect(out.violations).toEqual([]);
  const text = (name: string) => (out.files.get(name) as Buffer).toString('utf8');
  return {
    receipt: built.receipt,
    page: text(`${built.receipt.id}.html`),
    dataset: JSON.parse(text('dataset.json')) as { receipts: Array<Record<string, unknown>> },
  };
}

describe('a receipt names the images and audio its requests carried', () => {
  it("images and audio: the receipt, the page's modality line and dataset.json say so", () => {
    const s = site({ images: { perRequest: 2, width: 512, height: 512, format: 'jpeg' }, audio: { seconds: 4 } });
    expect(s.receipt.inputs).toEqual(['2 images of 512×512 JPEG per request', '4 s of WAV audio per request']);
    expect(s.page).toContain(
      'Modality: <strong>text generation from text and images and audio</strong> <span class="stat">(each request: 2 images of 512×512 JPEG per request; 4 s of WAV audio per request)</span>',
    );
    expect(s.dataset.receipts[0]).toMatchObject({ modality: 'text generation from text and images and audio', inputs: s.receipt.inputs });
  });
  it('images alone, by URL', () => {
    const s = site({ images: { perRequest: 1, width: 64, height: 32, delivery: 'url' } });
    expect(s.receipt.inputs).toEqual(['1 image of 64×32 PNG by URL per request']);
    expect(s.dataset.receipts[0]?.['modality']).toBe('text generation from text and images');
  });
  it('text alone: no inputs, "text generation" as before', () => {
    const s = site(null);
    expect(s.receipt).not.toHaveProperty('inputs');
    expect(s.page).toContain('Modality: <strong>text generation</strong></p>');
    expect(s.dataset.receipts[0]).not.toHaveProperty('inputs');
    expect(s.dataset.receipts[0]?.['modality']).toBe('text generation');
  });
});
