/**
 * The run page in Debian's Chromium against a real `goodput serve`: a stored
 * `replay --speed 1,2,4` run is shown on its speeds (the table's first column
 * is Speed, the chart's x axis carries 1, 2 and 4, not the peak in flight),
 * and a run whose server died while the page watched it shows its stop
 * reason once, not once in a banner and again in the status line.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimProcess } from '../sim/index.js';
import { type Started, runGoodput } from '../test-support/goodput-process.js';
import { desktopPage, launchChromium, needBuiltPage, startServe, steadySim, visible } from '../test-support/chromium.js';
import { patient } from '../test-support/patience.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-run-page-'));
const data = join(dir, 'db');
let sim: SimProcess;
let dying: SimProcess | null = null;
let serve: Started;
let browser: Browser;
let page: Page;
let url: string;
/** `?token=…`: the write key serve printed with its address. */
let key = '';

beforeAll(async () => {
  needBuiltPage();
  sim = await steadySim(2, 1);
  // Four evenly spaced requests: each is done before the next arrives at every speed, so the peak in flight is 1 throughout.
  const trace = join(dir, 'trace.jsonl');
  writeFileSync(
    trace,
    Array.from({ length: 4 }, (_, i) => JSON.stringify({ timestamp: i * 100, input_length: 32, output_length: 8, hash_ids: [i] })).join('\n') + '\n',
  );
  const r = await runGoodput(
    ['replay', trace, '--url', sim.url, '--speed', '1,2,4', '--save', '--data', data, '--no-server-metrics', '--client-budget-ms', '1000'],
    {},
    90_000,
  );
  expect(r.code, r.stderr).toBe(0);
  ({ serve, url, key } = await startServe(data));
  browser = await launchChromium();
  page = await desktopPage(browser);
}, patient(180_000));

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
  await sim?.stop();
  await dying?.stop().catch(() => undefined);
});

describe('the run page', () => {
  it(
    'shows a replay at speeds 1, 2, 4 on its speeds: Speed column, speeds on the x axis',
    async () => {
      await page.goto(`${url}#/runs/1`);
      const table = page.getByRole('table', { name: /^Per level, a replay of a recorded trace/ });
      await visible(table, 30_000);
      expect((await table.getByRole('columnheader').allTextContents())[0]).toBe('Speed');
      const chart = page.locator('figure.chart').first();
      await visible(chart);
      const svg = chart.getByRole('img');
      await expect.poll(() => svg.locator('text').allTextContents(), { timeout: patient(10_000) }).toContain('Speed (log₂ scale)');
      // Plot draws the x ticks in the group whose aria-label is "x-axis tick label".
      const ticks = await svg.locator('g[aria-label="x-axis tick label"] text').allTextContents();
      expect(ticks).toEqual(['1', '2', '4']);
      expect(await svg.getAttribute('aria-label')).toMatch(/at speed 1×/);
      expect(await svg.locator('text').allTextContents()).not.toContain('Concurrency (log₂ scale)');
    },
    patient(60_000),
  );

  it(
    'a run whose server died while the page watched shows its stop reason once',
    async () => {
      // 2 ms a token, 256 tokens: each request takes about half a second, so the page is following when the server dies.
      dying = await steadySim(2, 2, ['--die-after', '3']);
      // Opened as serve printed it: the page keeps the write key its writes need.
      await page.goto(`${url}${key}`);
      await page.getByText('Register a server', { exact: true }).click();
      await page.getByLabel('Name', { exact: true }).fill('dying');
      await page.getByLabel('Base URL', { exact: true }).fill(dying.url);
      await page.getByRole('button', { name: 'Register server' }).click();
      await visible(page.getByText('Registered dying: running.'));
      await page.getByRole('combobox', { name: 'Server', exact: true }).selectOption({ label: 'dying — running' });
      await page.getByRole('textbox', { name: 'Concurrency levels' }).fill('1, 2');
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      await page.waitForURL(/#\/runs\/2$/);
      await visible(page.getByRole('progressbar', { name: 'Levels' }), 30_000);
      await visible(page.getByRole('heading', { name: /^Run 2 the server failed$/ }), 60_000);
      const stored = (await (await fetch(`${url}api/runs/2`)).json()) as { stopReason: string | null };
      expect(stored.stopReason).toBeTruthy();
      const reason = stored.stopReason as string;
      // The heading comes from the stored run, after the end event set the status line: both are on the page now.
      await visible(page.locator('p.banner', { hasText: reason }));
      const text = await page.locator('body').innerText();
      expect(text.split(reason).length - 1, text).toBe(1);
    },
    patient(120_000),
  );
});
