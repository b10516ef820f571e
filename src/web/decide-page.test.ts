/**
 * The decision in the page's compare view: a self-hosted simulator run and a
 * provider-priced simulator run, stored, compared at #/compare/1/2, show the
 * rows, break-even and assumptions `goodput decide 1 2 --json` gives, and
 * the HTML report of the same two runs shows them too. Real processes, a real
 * store, the simulator over loopback, Debian's Chromium.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseHTML } from 'linkedom';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Decision } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { type Started, startGoodput } from '../test-support/goodput-process.js';
import { patient } from '../test-support/patience.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHROMIUM = process.env['GOODPUT_CHROMIUM'] ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const dir = mkdtempSync(join(tmpdir(), 'goodput-decide-page-'));
const data = join(dir, 'db');
let sim: SimServer;
let serve: Started | null = null;
let browser: Browser;
let url: string;
let decision: Decision;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/web-app/index.html'))) throw new Error('the page is not built: run `npm run build` before this test (npm test does)');
  sim = await startSimulator({ port: 0, prefillBaseMs: 2, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0 });
  const prices = join(dir, 'prices.json');
  writeFileSync(
    prices,
    JSON.stringify({
      tokenPrices: [
        {
          provider: 'simcloud',
          model: 'goodput-sim-1',
          inputUsdPer1M: 3,
          cachedInputUsdPer1M: 0.3,
          outputUsdPer1M: 15,
          sourceUrl: 'https://example.com/pricing',
          asOf: '2026-06-01',
        },
      ],
    }),
  );
  const quick = ['--url', sim.url, '--levels', '1,2', '--requests-per-level', '4', '--warmup', '0', '--output-tokens', '16', '--prompt-tokens', '8'];
  for (const flags of [
    ['--hourly-cost', '2'],
    ['--provider-prices', prices, '--provider-price', 'simcloud/goodput-sim-1'],
  ]) {
    const r = await cli(['sweep', ...quick, '--client-budget-ms', '1000', ...flags, '--data', data]);
    expect(r.code, r.stderr).toBe(0);
  }
  const d = await cli(['decide', '1', '2', '--json', '--data', data]);
  expect(d.code, d.stderr).toBe(0);
  decision = JSON.parse(d.stdout) as Decision;
  serve = startGoodput(['serve', '--port', '0', '--data', data]);
  url = (await serve.waitFor(/goodput serve: (http:\/\/127\.0\.0\.1:\d+\/)/))[1] as string;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}, patient(180_000));

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the decision in the compare view and the report', () => {
  it(
    'shows the figures goodput decide prints: both costs per successful 1M, the break-even utilisation and volume, every assumption',
    async () => {
      const cost = decision.rows.find((r) => r[0] === 'cost per successful 1M output tokens');
      expect(cost?.[1]).toMatch(/^\$[\d.]+$/);
      expect(cost?.[2]).toMatch(/^\$[\d.]+$/);
      expect(decision.breakEven.verdict).toMatch(/utilisation|full use/);
      const expected = decision.rows.map((r) => [...r]);
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      try {
        const page = await context.newPage();
        await page.goto(`${url}#/compare/1/2`);
        const table = page.locator('#decision-table');
        await table.waitFor({ timeout: patient(30_000) });
        expect(await table.locator('thead th').allTextContents()).toEqual(['Figure', 'self-hosted (run 1)', 'provider (run 2)']);
        const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent ?? '')));
        expect(rows).toEqual(expected);
        expect(await page.locator('#decision-break-even').textContent()).toBe(`break-even: ${decision.breakEven.verdict}`);
        expect(await page.locator('#decision-assumptions li').allTextContents()).toEqual(decision.assumptions);
      } finally {
        await context.close();
      }
      const out = join(dir, 'report.html');
      const r = await cli(['report', '1', '2', '--data', data, '--out', out]);
      expect(r.code, r.stderr).toBe(0);
      const { document } = parseHTML(readFileSync(out, 'utf8'));
      const reportRows = [...document.querySelectorAll('#decision-table tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent ?? ''));
      expect(reportRows).toEqual(expected);
      expect(document.querySelector('#decision-break-even')?.textContent).toBe(`break-even: ${decision.breakEven.verdict}`);
      expect([...document.querySelectorAll('#decision-assumptions li')].map((li) => li.textContent)).toEqual(decision.assumptions);
    },
    patient(90_000),
  );
});
