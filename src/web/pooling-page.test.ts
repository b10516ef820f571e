/**
 * An embeddings run on the page, in Debian's Chromium against a real
 * `goodput serve`: the sweep runs while serve holds the embedded store (so it
 * is stored through serve's API, as another process stores its run), then the
 * run page shows an Engine card and a chart carrying the stored JSON's numbers,
 * a Latency card, capacity at the objective, no TTFT chart, and the history row
 * in inputs/s; at 360 and 1,400 px wide nothing runs past the window.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PoolingResult } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { type Started, runGoodput } from '../test-support/goodput-process.js';
import { measureFit } from '../test-support/page-fit.js';
import { num } from './index.js';
import { desktopPage, launchChromium, needBuiltPage, startServe, visible } from '../test-support/chromium.js';
import { patient } from '../test-support/patience.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-pooling-page-'));
const data = join(dir, 'db');
let sim: SimProcess;
let serve: Started;
let browser: Browser;
let url: string;
/** `?token=…`: the write key serve printed with its address. */
let key = '';
let result: PoolingResult;

beforeAll(async () => {
  needBuiltPage();
  sim = await spawnSimProcess(['--embedding-dimension', '32', '--pooling-ms-per-token', '0.0005']);
  ({ serve, url, key } = await startServe(data));
  const r = await runGoodput(
    [
      'sweep',
      '--url',
      sim.url,
      '--endpoint',
      'embeddings',
      '--levels',
      '1,2,4',
      '--batch-size',
      '4',
      '--prompt-tokens',
      '16',
      // A generous client budget: the cards asserted below need a peak, and a busy machine's loop delay would bind these sub-ms levels.
      '--requests-per-level',
      '8',
      '--latency-slo',
      'p95:5000',
      '--client-budget-ms',
      '1000',
      '--save',
      '--data',
      data,
      '--json',
      '-',
    ],
    {},
    90_000,
  );
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toContain('stored as run 1 (complete) in the store of goodput serve');
  result = JSON.parse(r.stdout) as PoolingResult;
  browser = await launchChromium();
}, patient(180_000));

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
  await sim?.stop();
});

describe('an embeddings run on the page', () => {
  it(
    "the Engine card, the chart and the table carry the stored JSON's numbers; no TTFT chart",
    async () => {
      const stored = (await (await fetch(`${url}api/runs/1/result`)).json()) as PoolingResult;
      expect(stored).toEqual(result);
      const page = await desktopPage(browser);
      await page.goto(`${url}#/runs/1`);
      const engine = page.getByRole('region', { name: 'Engine' });
      await visible(engine, 30_000);
      const peak = result.peak!;
      const fact = (card: Locator, label: string) => card.locator('dl > div', { has: page.locator('dt', { hasText: label }) }).locator('dd');
      expect(await fact(engine, 'Peak inputs/s').textContent()).toBe(num(peak.itemsPerS));
      expect(await fact(engine, 'Input tok/s at the peak').textContent()).toBe(num(peak.inputTokensPerS, 0));
      expect(await fact(engine, 'At concurrency').textContent()).toBe(String(peak.concurrency));
      const at = result.levels.find((l) => l.concurrency === peak.concurrency)!;
      const latency = page.getByRole('region', { name: 'Latency' });
      expect(await fact(latency, 'p99').textContent()).toBe(`${num(at.latencyMs!.p99)} ms`);
      await visible(page.locator('p.capacity', { hasText: result.capacity!.statement }));

      // The items/s chart: its x ticks are the levels, its summary and data table carry the JSON's rates.
      const chart = page.locator('figure.chart', { hasText: 'Inputs/s against concurrency' });
      await visible(chart);
      const svg = chart.getByRole('img');
      await expect.poll(() => svg.locator('g[aria-label="x-axis tick label"] text').allTextContents(), { timeout: patient(10_000) }).toEqual(['1', '2', '4']);
      expect(await svg.getAttribute('aria-label')).toContain(`peaks at ${num(peak.itemsPerS)} inputs/s at concurrency ${peak.concurrency}`);
      const cells = await chart
        .locator('details table tbody tr')
        .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td, th')].map((c) => c.textContent)));
      expect(cells).toEqual(result.levels.map((l) => [String(l.concurrency), num(l.itemsPerS), num(l.inputTokensPerS, 0)]));
      await visible(page.locator('figure.chart', { hasText: 'Latency against concurrency' }));
      expect(await page.locator('figure.chart').count()).toBe(2);
      expect(await page.locator('body').innerText()).not.toMatch(/TTFT|Time to first token/);

      const table = page.getByRole('table', { name: /^Per level, embeddings: 4 inputs of 16 tokens per request/ });
      expect(await table.locator('tbody tr').count()).toBe(3);
      await page.goto(`${url}#/`);
      const history = page.getByRole('table', { name: /^Past runs/ });
      await visible(history);
      expect(await history.locator('tbody tr').first().innerText()).toContain(`${num(peak.itemsPerS)} inputs/s @ c=${peak.concurrency}`);
    },
    patient(90_000),
  );

  for (const width of [360, 1400]) {
    it(
      `nothing runs past the window at ${width} px`,
      async () => {
        const page = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
        await page.goto(`${url}#/runs/1`);
        await visible(page.getByRole('region', { name: 'Engine' }), 30_000);
        await visible(page.locator('figure.chart svg').nth(1));
        const m = await measureFit(page);
        expect(m.overflow).toEqual([]);
        expect(m.tall).toEqual([]);
        expect(m.scrollWidth).toBeLessThanOrEqual(width);
      },
      patient(60_000),
    );
  }
});

describe('starting an embeddings sweep from the page', () => {
  it(
    'the Start form takes the endpoint, its own fields and their errors, and the run opens on its Engine card',
    async () => {
      const added = await fetch(`${url}api/servers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key.slice('?token='.length)}` },
        body: JSON.stringify({ name: 'sim', baseUrl: sim.url }),
      });
      expect(added.status, await added.clone().text()).toBeLessThan(300);
      const page = await desktopPage(browser);
      await page.goto(`${url}${key}#/`);
      await page.getByRole('button', { name: 'Check status' }).click();
      await expect.poll(() => page.locator('#server-status').textContent(), { timeout: patient(15_000) }).toMatch(/^running/);
      await page.getByLabel('Endpoint').selectOption('embeddings');
      // Text-only fields give way to the endpoint's own.
      expect(await page.locator('#output-tokens').count()).toBe(0);
      expect(await page.locator('#baseline-rate').count()).toBe(0);
      await page.getByLabel('Concurrency levels').fill('1, 2');
      await page.getByLabel('Inputs per request').fill('0');
      await page.getByLabel('Tokens per input').fill('16');
      await page.getByRole('button', { name: 'Start' }).click();
      await expect.poll(() => page.locator('#items-error').textContent()).toBe('Inputs per request must be a positive whole number, e.g. 16.');
      expect(await page.getByLabel('Inputs per request').getAttribute('aria-invalid')).toBe('true');
      await page.getByLabel('Inputs per request').fill('3');
      await page.getByRole('button', { name: 'Start' }).click();
      const engine = page.getByRole('region', { name: 'Engine' });
      await visible(engine, 60_000);
      await expect.poll(() => page.url(), { timeout: patient(10_000) }).toMatch(/#\/runs\/(\d+)$/);
      const id = /#\/runs\/(\d+)$/.exec(page.url())?.[1];
      const detail = (await (await fetch(`${url}api/runs/${id}`)).json()) as {
        spec: { endpoint: string; itemsPerRequest: number; itemTokens: number; levels: number[] };
      };
      expect(detail.spec).toMatchObject({ endpoint: 'embeddings', itemsPerRequest: 3, itemTokens: 16, levels: [1, 2] });
      await expect
        .poll(async () => ((await (await fetch(`${url}api/runs/${id}`)).json()) as { status: string }).status, { timeout: patient(60_000) })
        .toBe('complete');
      const stored = (await (await fetch(`${url}api/runs/${id}/result`)).json()) as PoolingResult;
      expect(stored.levels.map((l) => l.concurrency)).toEqual([1, 2]);
      await page.reload();
      const fact = engine.locator('dl > div', { has: page.locator('dt', { hasText: 'Peak inputs/s' }) }).locator('dd');
      if (stored.peak !== null) await expect.poll(() => fact.textContent(), { timeout: patient(15_000) }).toBe(num(stored.peak.itemsPerS));
      // On a loaded machine every level can be client-bound (the page's sweeps take the default budget): then the card says why, level by level.
      else
        await expect
          .poll(() => engine.locator('p.hint').textContent(), { timeout: patient(15_000) })
          .toMatch(/^Not available: no level counts \(left out: 1, .+; 2, .+\)\.$/);
    },
    patient(150_000),
  );
});
