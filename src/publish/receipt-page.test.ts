/**
 * The published site in Debian's Chromium (playwright-core), opened from disk
 * (file://) with JavaScript off: the index links the receipt; the receipt page
 * shows its title, four headline stats with statistic and configuration, the
 * fact tables, the charts as accessible figures and the quality note; nothing
 * is fetched from anywhere but the site's own folder. Screenshot:
 * test-artifacts/receipt-page.png.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUALITY_SCALE_NOTE, qualityScoreSchema } from '../core/index.js';
import { qualityFixture } from '../test-support/quality-fixture.js';
import { receiptPair } from '../test-support/receipt-fixture.js';
import { type Receipt } from './receipt-schema.js';
import { buildReceipt } from './build-receipt.js';
import { publishSite } from './publish-site.js';
import { launchChromium } from '../test-support/chromium.js';
import { patient } from '../test-support/patience.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ARTIFACTS = join(ROOT, 'test-artifacts');

let browser: Browser;
let page: Page;
let receipt: Receipt;
let site: string;
const requested: string[] = [];

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const built = buildReceipt({
    ...receiptPair('2× Test GPU 24GB'),
    quality: qualityScoreSchema.parse(qualityFixture(0.9712)),
    method: 'FP8 dynamic quantization',
    generator: '0.1.0',
  });
  if (!built.ok) throw new Error(built.problems.join('\n'));
  receipt = built.receipt;
  site = join(mkdtempSync(join(tmpdir(), 'goodput-site-')), 'site');
  const prices = {
    tokenPrices: [
      { provider: 'Example Cloud', model: 'demo-model', inputUsdPer1M: 0.5, outputUsdPer1M: 1.5, sourceUrl: 'https://example.com/pricing', asOf: '2026-06-01' },
    ],
    instancePrices: [],
  };
  const out = await publishSite({ receipts: [receipt], prices, outDir: site, generator: '0.1.0', today: '2026-06-04' });
  if (!out.ok) throw new Error(out.violations.map((v) => v.message).join('\n'));
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, javaScriptEnabled: false });
  page = await context.newPage();
  page.on('request', (r) => requested.push(r.url()));
}, patient(60_000));

afterAll(async () => {
  await browser?.close();
});

describe('the published receipt page (file://, no JavaScript)', () => {
  it('the index lists the receipt, the changelog with both dates, what we do not claim and the price table', async () => {
    await page.goto(pathToFileURL(join(site, 'index.html')).href);
    await expect.poll(() => page.getByRole('heading', { name: 'Benchmark receipts', level: 1 }).count()).toBe(1);
    const row = page.locator('#changelog tbody tr');
    expect(await row.locator('td').allTextContents()).toEqual(['2026-06-04', receipt.title, '2026-06-03', '2026-06-01', '—']);
    expect(await page.locator('#not-claimed li').count()).toBe(4);
    expect(await page.locator('#token-prices tbody td').allTextContents()).toEqual([
      'Example Cloud',
      'demo-model',
      '0.50',
      '1.50',
      'https://example.com/pricing',
      '2026-06-01',
    ]);
    await page.locator('#receipts').getByRole('link', { name: receipt.title }).click();
    await page.waitForURL(/\.html$/);
    expect(page.url()).toBe(pathToFileURL(join(site, `${receipt.id}.html`)).href);
  });

  it('shows the title, and five headline stats each with value, statistic, configuration, standing and change', async () => {
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('demo-model · 2× Test GPU 24GB · 2026-06-03');
    const stats = page.getByRole('list', { name: 'Headline stats' }).getByRole('listitem');
    expect(await stats.count()).toBe(5);
    const texts = (await stats.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(texts[0]).toBe(
      'Peak throughput 360.0 tok/s peak over the valid levels tested, measured optimized: bf16, fp8 quantization, vllm 0.9.1 recomputed from the records, not signed by a measurer higher is better; +100 % against the baseline, no difference established (fewer than 3 runs on a side)',
    );
    // A cost stands on the hourly rate the publisher declared with the run.
    expect(texts[2]).toContain(
      '1.54 USD hourly rate at peak throughput, derived optimized: bf16, fp8 quantization, vllm 0.9.1 declared by the publisher, not signed by a measurer lower is better; −50 %',
    );
    // The score never renders without its scale and evaluator, the headline card included.
    expect(texts[3]).toBe(
      'Quality score 0.9712 score (0–1) composite against the baseline, derived optimized: bf16, fp8 quantization, vllm 0.9.1 ' +
        '1.0 = no detected degradation on this composite under the disclosed workload; evaluator goodput-quality-v1 (defined below) ' +
        'recomputed from the quality evidence, not signed by a measurer higher is better',
    );
  });

  it('shows the fact tables with identical rows for both configurations, each value with its statistic', async () => {
    const table = page.getByRole('table', { name: /^Fact tables/ });
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([
      'Metric',
      'Statistic',
      'Baseline (bf16, no quantization, vllm 0.9.1)',
      'Optimized (bf16, fp8 quantization, vllm 0.9.1)',
      'Change',
    ]);
    expect(await table.getByRole('rowheader').allTextContents()).toEqual([
      'Peak throughput (tok/s)',
      'Goodput (req/s)',
      'SLO attainment (share of requests)',
      'Single-stream rate (tok/s)',
      'TTFT (ms)',
      'TPOT (ms)',
      'Request latency (e2e) (ms)',
      'Failed requests (requests)',
      'GPU hourly rate (USD/h)',
      'Cost per 1M output tokens (USD)',
    ]);
    const ttft = table.getByRole('row', { name: /^TTFT/ });
    expect((await ttft.getByRole('cell').allTextContents()).map((t) => t.trim())).toEqual([
      'p50 at concurrency 1',
      '40.0 (p50 at concurrency 1, measured)',
      '30.0 (p50 at concurrency 1, measured)',
      '−25 %, no difference established (fewer than 3 runs on a side)',
    ]);
  });

  it('draws every chart as a figure with a caption, an SVG image with a summary, and bars or lines for both configurations', async () => {
    const figures = page.locator('figure.chart');
    expect(await figures.count()).toBe(9);
    for (const f of await figures.all()) {
      expect((await f.locator('figcaption').textContent())?.length).toBeGreaterThan(10);
      const svg = f.locator('svg[role="img"]').first();
      expect(await svg.getAttribute('aria-label')).toMatch(/baseline.*optimized/);
      expect((await svg.boundingBox())?.height).toBeGreaterThan(100);
      expect(await f.locator('details table data[data-fact]').count()).toBeGreaterThanOrEqual(2);
    }
    const peak = page.locator('#chart-peak-throughput');
    expect(await peak.locator('figcaption').textContent()).toBe('Peak throughput by configurationtok/s · peak over the valid levels tested · higher is better');
    expect(await peak.getByRole('img').getAttribute('aria-label')).toBe(
      'Peak throughput (peak over the valid levels tested) by configuration; baseline: 180.0 tok/s; optimized: 360.0 tok/s.',
    );
    expect(await peak.locator('rect').count()).toBeGreaterThanOrEqual(2);
  });

  it('draws the Pareto view per GPU with a frontier per configuration, and the capacity answer beside it', async () => {
    const pareto = page.locator('#chart-pareto');
    const svg = pareto.getByRole('img');
    expect(await svg.textContent()).toContain('Output tok/s per GPU');
    expect(await svg.getAttribute('aria-label')).toBe(
      'baseline: 90.0 tok/s per GPU at 90.0 tok/s per user to 50.0 at 100.0; optimized: 180.0 tok/s per GPU at 150.0 tok/s per user to 80.0 at 160.0.',
    );
    // One frontier line per configuration (Plot draws each line mark as a path).
    expect(await pareto.locator('.wide svg g[aria-label="line"] path').count()).toBe(2);
    // The narrow drawing (a phone's) is hidden at this width.
    expect(await pareto.locator('.narrow svg').isVisible()).toBe(false);
    expect(await pareto.locator('figcaption').innerText()).toContain(
      'GPUs serving each configuration (from the hardware label the publisher declared): baseline 2 GPUs; optimized 2 GPUs',
    );
    const answer = page.locator('#pareto .capacity');
    expect(await answer.isVisible()).toBe(true);
    expect(await answer.innerText()).toContain('interpolated between levels 1 and 2');
  });

  it('prints the quality score with its evaluator and scale note', async () => {
    const q = page.getByRole('region', { name: 'Quality' });
    const text = await q.innerText();
    expect(text).toContain('Quality score: 0.9712');
    expect(text).toContain(`Scale: ${QUALITY_SCALE_NOTE}`);
    expect(text).toContain('Evaluator: goodput-quality-v1: composite = 0.7 × exp(−KL)');
  });

  it('loads nothing from outside its folder, links the dataset with its hash, and shows the share image at 1200×630', async () => {
    expect(requested.filter((u) => !u.startsWith(pathToFileURL(site).href))).toEqual([]);
    expect(await page.getByText(/dataset\.json \(sha256:[0-9a-f]{64}\); generated by goodput 0\.1\.0/).count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'receipt-page.png'), fullPage: true });
    await page.goto(pathToFileURL(join(site, `${receipt.id}.png`)).href);
    const size = await page
      .locator('img')
      .evaluate((img) => [(img as unknown as { naturalWidth: number }).naturalWidth, (img as unknown as { naturalHeight: number }).naturalHeight]);
    expect(size).toEqual([1200, 630]);
  });
});
