/**
 * The share image: a real 1200×630 PNG (IHDR read back), drawn with text
 * (many distinct colours from anti-aliased glyphs, not one flat colour), whose
 * SVG carries the four headline stats with statistic and configuration.
 * Saved as test-artifacts/share-image.png.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { distinctColours, pngInfo } from '../test-support/png.js';
import { receiptPair } from '../test-support/receipt-fixture.js';
import { buildReceipt } from './build-receipt.js';
import { receiptView } from './receipt-view.js';
import { sharePng, shareSvg } from './share-image.js';

function view() {
  const r = buildReceipt({ ...receiptPair(), quality: null, method: 'FP8 dynamic quantization', generator: '0.1.0' });
  if (!r.ok) throw new Error(r.problems.join('\n'));
  return receiptView(r.receipt);
}

describe('share image', () => {
  it('(the colour counter itself: a flat image has one colour, two halves have two)', () => {
    const flat = new Resvg('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#ffffff"/></svg>')
      .render()
      .asPng();
    const halves = new Resvg(
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#ffffff"/><rect width="20" height="20" fill="#1d4ed8"/></svg>',
    )
      .render()
      .asPng();
    expect([distinctColours(flat), distinctColours(halves)]).toEqual([1, 2]);
  });

  it('is a 1200×630 PNG with drawn content', () => {
    const png = sharePng(view());
    expect(pngInfo(png)).toMatchObject({ width: 1200, height: 630, bitDepth: 8 });
    expect(distinctColours(png)).toBeGreaterThan(50);
    // Kept for a person to look at (CI artifact), like the page screenshots.
    const artifacts = fileURLToPath(new URL('../../test-artifacts', import.meta.url));
    mkdirSync(artifacts, { recursive: true });
    writeFileSync(join(artifacts, 'share-image.png'), png);
  });

  it('shows the four headline stats, each with statistic, provenance and configuration, with literal colours and the embedded font', () => {
    const svg = shareSvg(view());
    for (const text of [
      'Peak throughput',
      '360.0 tok/s',
      'peak over the valid levels tested, measured',
      'Single-stream rate',
      '160.0 tok/s',
      'Cost per 1M output tokens',
      '1.54 USD',
      'hourly rate at peak throughput, derived',
      'Quality score',
      'not recorded',
      'optimized: bf16, fp8 quantization, vllm 0.9.1',
      '+100 %, no difference established',
      '−50 %, no difference established',
    ]) {
      expect(svg).toContain(text);
    }
    expect(svg).toContain('font-family="Inter"');
    expect(svg).not.toMatch(/var\(--/);
  });
});
