/**
 * Three quantizations of one model compared in the report and the page's
 * compare view, at 360 and 1,400 px in Debian's Chromium: long client-bound
 * reasons are badges that keep their rows short (the reason opens on
 * demand), the level column stays in view while the runs' columns scroll,
 * "What differs" lists the model file, precision and quantization, each run
 * is named by them, and the Pareto chart's labels do not overlap. The runs
 * are stored with `goodput runs import` into an embedded store.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../test-support/cli-in-process.js';
import { evidenceResult } from '../test-support/evidence-fixture.js';
import { type Started, runGoodput } from '../test-support/goodput-process.js';
import { measureFit } from '../test-support/page-fit.js';
import { LONG_REASON, MODEL_FILES } from '../test-support/quantization-runs.js';
import { launchChromium, needBuiltPage, startServe } from '../test-support/chromium.js';
import { patient } from '../test-support/patience.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ARTIFACTS = join(ROOT, 'test-artifacts', 'layout');

const dir = mkdtempSync(join(tmpdir(), 'goodput-compare-fit-'));
const data = join(dir, 'db');
const report = join(dir, 'report.html');
let serve: Started | null = null;
let browser: Browser;
let url: string;

beforeAll(async () => {
  needBuiltPage();
  mkdirSync(ARTIFACTS, { recursive: true });
  const levels = [
    { c: 1, ttftMs: 40, tpotMs: 10 },
    { c: 2, ttftMs: 45, tpotMs: 11 },
    { c: 4, ttftMs: 60, tpotMs: 12 },
  ];
  for (const [i, q] of ['none', 'Q8_0', 'F16'].entries()) {
    const account = {
      models: [],
      server: 'llama.cpp',
      version: null,
      props: { modelFile: MODEL_FILES[i] as string, contextTokens: 2048, build: 'b9928' },
      simulator: null,
    };
    const { records, ...r } = evidenceResult({
      levels: levels.map((l) => ({ ...l, tpotMs: l.tpotMs * (1 + i / 10) })),
      quantization: q,
      engine: 'llama.cpp',
      account,
    });
    // Precision declared f32, f32, f16; level 4 client-bound in every run, with the long reason a loaded client gives.
    const contract = r.contract as { model: Record<string, unknown> };
    const result = {
      ...r,
      contract: { ...contract, model: { ...contract.model, precision: i === 2 ? 'f16' : 'f32' } },
      levels: r.levels.map((l) => (l.concurrency === 4 ? { ...l, clientBound: { ...l.clientBound, bound: true, reason: LONG_REASON } } : l)),
    };
    writeFileSync(join(dir, `run-${i + 1}.json`), JSON.stringify(result));
    writeFileSync(join(dir, `run-${i + 1}.jsonl`), (records ?? []).map((x) => `${JSON.stringify(x)}\n`).join(''));
    const out = await cli(['runs', 'import', join(dir, `run-${i + 1}.json`), '--raw', join(dir, `run-${i + 1}.jsonl`), '--data', data]);
    expect(out.code, out.stderr).toBe(0);
  }
  const out = await runGoodput(['report', '1', '2', '3', '--out', report, '--data', data], {}, 60_000);
  expect(out.code, out.stderr).toBe(0);
  ({ serve, url } = await startServe(data));
  browser = await launchChromium();
}, patient(180_000));

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** What the test reads off a page: the compare table's row heights, what differs, the group headers, overlapping chart labels. */
const READ = `(() => {
  const table = document.querySelector('table.compare');
  const rows = [...table.querySelectorAll('tbody tr')].map((r) => r.getBoundingClientRect().height);
  const differs = [...document.querySelectorAll('table.diffs tbody tr')].map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));
  const groups = [...table.querySelectorAll('th.group')].map((h) => h.textContent);
  const svg = [...document.querySelectorAll('figure.chart svg')].find((s) => (s.getAttribute('aria-label') || '').includes('tok/s per server at'));
  const boxes = svg ? [...svg.querySelectorAll('g[aria-label="text"] text')].map((t) => t.getBoundingClientRect()) : [];
  const overlaps = boxes.filter((a, i) => boxes.some((b, j) => j > i && a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)).length;
  return { rows, differs, groups, labels: boxes.length, overlaps };
})()`;

/** Scrolls the compare table's frame to its far right: the level column must still be at its left edge. */
const STICKY = `(() => {
  const wrap = document.querySelector('table.compare').closest('.table-wrap');
  wrap.scrollLeft = wrap.scrollWidth;
  const cell = wrap.querySelector('tbody th[scope="row"]');
  return { scrolled: wrap.scrollLeft, wrapLeft: wrap.getBoundingClientRect().left, cellLeft: cell.getBoundingClientRect().left };
})()`;

async function open(page: Page, name: 'report' | 'compare'): Promise<void> {
  await page.goto(name === 'report' ? pathToFileURL(report).href : `${url}#/compare/1/2/3`);
  await page.locator('table.compare').waitFor({ timeout: patient(30_000) });
  if (name === 'compare')
    await page
      .locator('figure.chart svg[role="img"]')
      .first()
      .waitFor({ timeout: patient(30_000) });
}

describe('three quantizations compared, with long client-bound reasons', () => {
  for (const width of [360, 1400] as const) {
    it(
      `at ${width} px the report and the compare view fit, with short rows, a sticky level column and what differs named`,
      async () => {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        try {
          const page = await context.newPage();
          for (const name of ['report', 'compare'] as const) {
            await open(page, name);
            const fit = await measureFit(page);
            await page.screenshot({ path: join(ARTIFACTS, `quantizations-${name}-${width}px.png`), fullPage: true });
            expect({ name, overflow: fit.overflow, tall: fit.tall, wider: fit.scrollWidth > width }).toEqual({ name, overflow: [], tall: [], wider: false });
            const read = (await page.evaluate(READ)) as { rows: number[]; differs: string[][]; groups: string[]; labels: number; overlaps: number };
            // A row holds a number and a badge: never the 300–700 px a wrapped reason made it.
            expect(Math.max(...read.rows), `${name}: row heights ${read.rows.join(', ')}`).toBeLessThan(80);
            expect(read.differs).toContainEqual(['model file', ...MODEL_FILES]);
            expect(read.differs.map((r) => r[0])).toEqual(expect.arrayContaining(['precision', 'quantization']));
            expect(read.groups[1]).toContain(MODEL_FILES[1]);
            expect(read.groups[1]).toContain('Q8_0');
            expect(read.labels, `${name}: the Pareto chart's labels`).toBeGreaterThan(3);
            expect(read.overlaps, `${name}: overlapping Pareto labels`).toBe(0);
            const sticky = (await page.evaluate(STICKY)) as { scrolled: number; wrapLeft: number; cellLeft: number };
            expect(sticky.scrolled, `${name}: the compare table scrolls at ${width} px`).toBeGreaterThan(0);
            expect(Math.abs(sticky.cellLeft - sticky.wrapLeft), `${name}: the level column stays at the frame's left edge`).toBeLessThan(2);
            // The reason is there on demand: open its badge (the client-bound level's; another level may carry its own).
            const bound = page.locator('table.compare details.reason', { has: page.locator('summary', { hasText: 'client-bound' }) }).first();
            await bound.locator('summary').click();
            expect(await bound.locator('.reason-text').textContent()).toBe(`client-bound: ${LONG_REASON}`);
          }
        } finally {
          await context.close();
        }
      },
      patient(120_000),
    );
  }
});
