/**
 * A receipt page read on a phone (360 px) and a desktop (1,400 px) in
 * Chromium, JavaScript off, with a fact table of long values (repeats, so
 * each change carries its interval and the means it comes from): every fact
 * table value is on screen without scrolling sideways, nothing else runs
 * past the window, and the Pareto chart's text is at least 10 px as drawn.
 * Screenshots: test-artifacts/layout/receipt-{facts,pareto}-<width>.png.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evidencePair } from '../test-support/evidence-fixture.js';
import { measureFit, offscreen, smallestSvgText } from '../test-support/page-fit.js';
import { buildReceipt } from './build-receipt.js';
import { FACT_TABLE_ROWS } from './fact.js';
import { receiptPage } from './render-receipt-page.js';
import { receiptView } from './receipt-view.js';
import { launchChromium } from '../test-support/chromium.js';
import { patient } from '../test-support/patience.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ARTIFACTS = join(ROOT, 'test-artifacts', 'layout');

let browser: Browser;
let pageUrl: string;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const long = { label: '8× Example Accelerator 141GB HBM3e', repeats: 3, spread: 0.3 };
  const built = buildReceipt({
    ...evidencePair({ baseline: long, optimized: long }),
    quality: null,
    method: 'FP8 dynamic quantization of weights and KV cache, speculative decoding',
    generator: '0.1.0',
  });
  if (!built.ok) throw new Error(built.problems.join('; '));
  // Long values: every fact-table figure in the millions, its runs apart (the page alone is rendered: no gate recomputes them).
  const table = new Set<string>(FACT_TABLE_ROWS.flatMap((k) => [`baseline.${k}`, `optimized.${k}`]));
  const big = (v: number | null) => (v === null ? null : v * 1_234_567.891 + 0.123456);
  const receipt = { ...built.receipt, facts: built.receipt.facts.map((f) => (table.has(f.id) ? { ...f, value: big(f.value), runs: f.runs?.map(big) } : f)) };
  const site = join(mkdtempSync(join(tmpdir(), 'goodput-receipt-layout-')), 'site');
  mkdirSync(site);
  writeFileSync(join(site, `${receipt.id}.html`), receiptPage(receiptView(receipt), '0'.repeat(64), '0.1.0', []));
  pageUrl = pathToFileURL(join(site, `${receipt.id}.html`)).href;
  browser = await launchChromium();
}, patient(60_000));

afterAll(async () => {
  await browser?.close();
});

describe('a receipt page at 360 and 1,400 px', () => {
  for (const width of [360, 1400]) {
    it(
      `at ${width} px: every fact table value on screen, nothing past the window, the Pareto chart's text at least 10 px`,
      async () => {
        const context = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: false });
        try {
          const page = await context.newPage();
          await page.goto(pageUrl);
          expect(await page.locator('#facts data').count()).toBeGreaterThan(20);
          expect(await page.locator('#facts').innerText()).toMatch(/\d{1,3},\d{3},\d{3}/);
          expect(await offscreen(page, '#facts td, #facts th[scope="row"], #facts data')).toEqual([]);
          const fit = await measureFit(page);
          expect(fit.overflow).toEqual([]);
          expect(fit.tall).toEqual([]);
          expect(fit.scrollWidth).toBeLessThanOrEqual(width);
          const text = await smallestSvgText(page, '#chart-pareto');
          expect(text).not.toBeNull();
          expect(text as number).toBeGreaterThanOrEqual(10);
          await page.locator('#facts').screenshot({ path: join(ARTIFACTS, `receipt-facts-${width}.png`) });
          await page.locator('#chart-pareto').screenshot({ path: join(ARTIFACTS, `receipt-pareto-${width}.png`) });
        } finally {
          await context.close();
        }
      },
      patient(60_000),
    );
  }
});
