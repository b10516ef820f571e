/**
 * A disaggregated server and a fleet in the page's compare view, in Debian's
 * Chromium at 360 and 1,400 px: two runs stored with `goodput runs import`,
 * one whose levels carry pools, one whose levels carry targets; the view shows
 * a "Disaggregated pools" and a "Fleet targets" table with each run's cells,
 * their notes, and both fit the window (their frames scroll, no header runs
 * past two lines).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, needBuiltPage, startServe } from '../test-support/chromium.js';
import { cli } from '../test-support/cli-in-process.js';
import { evidencePair } from '../test-support/evidence-fixture.js';
import type { Started } from '../test-support/goodput-process.js';
import { measureFit } from '../test-support/page-fit.js';
import { patient } from '../test-support/patience.js';
import { disaggFixture, targetsFixture } from '../test-support/server-parts.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-compare-parts-page-'));
const data = join(dir, 'db');
let serve: Started | null = null;
let browser: Browser;
let url: string;

beforeAll(async () => {
  needBuiltPage();
  const pair = evidencePair();
  const sides = [
    { ...pair.baseline, levels: pair.baseline.levels.map((l) => ({ ...l, disagg: disaggFixture() })) },
    { ...pair.optimized, levels: pair.optimized.levels.map((l) => ({ ...l, targets: targetsFixture() })) },
  ];
  for (const [i, side] of sides.entries()) {
    const { records, ...result } = side;
    writeFileSync(join(dir, `run-${i + 1}.json`), JSON.stringify(result));
    writeFileSync(join(dir, `run-${i + 1}.jsonl`), (records ?? []).map((x) => `${JSON.stringify(x)}\n`).join(''));
    const out = await cli(['runs', 'import', join(dir, `run-${i + 1}.json`), '--raw', join(dir, `run-${i + 1}.jsonl`), '--data', data]);
    expect(out.code, out.stderr).toBe(0);
  }
  ({ serve, url } = await startServe(data));
  browser = await launchChromium();
}, patient(120_000));

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const READ = `(() => {
  const cells = (sel) => [...document.querySelectorAll(sel + ' tbody tr')].map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));
  const notes = (sel) => [...document.querySelectorAll(sel + ' li')].map((li) => li.textContent);
  const heads = [...document.querySelectorAll('.compare-view h3')].map((h) => h.textContent);
  return { pools: cells('table.pools'), fleet: cells('table.fleet-targets'), poolNotes: notes('ul.pools-notes'), fleetNotes: notes('ul.fleet-targets-notes'), heads };
})()`;

describe("a disaggregated server and a fleet in the page's compare view", () => {
  for (const width of [360, 1400] as const) {
    it(
      `at ${width} px shows the pools and the targets side by side, with their notes, and fits`,
      async () => {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        try {
          const page = await context.newPage();
          await page.goto(`${url}#/compare/1/2`);
          await page.locator('table.fleet-targets').waitFor({ timeout: patient(30_000) });
          const read = (await page.evaluate(READ)) as { pools: string[][]; fleet: string[][]; poolNotes: string[]; fleetNotes: string[]; heads: string[] };
          expect(read.heads).toEqual(expect.arrayContaining(['Disaggregated pools', 'Fleet targets']));
          expect(read.heads.indexOf('Fleet targets')).toBe(read.heads.indexOf('Disaggregated pools') + 1);
          expect(read.pools[0]).toEqual([
            '1',
            '2,000 (1,000 per GPU)',
            '3,000',
            '1.000 / 8.000 (of 100)',
            '12.5 + 40.0 + 31.3 + 36.3 (of 120.0)',
            'not disaggregated',
            '—',
            '—',
            '—',
          ]);
          expect(read.fleet[2]).toEqual(['4', 'one server', '—', '—', '—', '3 / 3 / 2', '0 / 0 / 0', '40.0 / 40.0 / 20.0', '20.0 / 20.0 / 80.0']);
          expect(read.poolNotes).toContain('run 1 at concurrency 4: the router pool has no figures: not found at the start: HTTP 404');
          expect(read.fleetNotes).toContain('run 2 at concurrency 2: http://10.0.0.3:8000 is slow: TTFT p50 80.0 ms against 20.0 ms on the others (4.0×)');
          const fit = await measureFit(page);
          expect({ overflow: fit.overflow, tall: fit.tall, wider: fit.scrollWidth > width }).toEqual({ overflow: [], tall: [], wider: false });
        } finally {
          await context.close();
        }
      },
      patient(120_000),
    );
  }
});
