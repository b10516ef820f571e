/**
 * The page's compare view with repeat sets of stored runs
 * (#/compare/1+2+3/4+5+6), as `goodput compare 1+2+3 4+5+6` takes them, and
 * the quality row the stored runs carry: real processes, a real store, the
 * simulators over loopback, Debian's Chromium.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type SimServer, startSimulator } from '../sim/index.js';
import { type Started, runGoodput } from '../test-support/goodput-process.js';
import { launchChromium, needBuiltPage, startServe } from '../test-support/chromium.js';
import { patient } from '../test-support/patience.js';
import type { SweepResult } from '../core/index.js';
import { num } from './view/index.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-compare-sets-page-'));
const data = join(dir, 'db');
const sims: SimServer[] = [];
let serve: Started | null = null;
let browser: Browser;
let url: string;

beforeAll(async () => {
  needBuiltPage();
  const simAt = (quantizationNoise: number) =>
    startSimulator({ port: 0, prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 0.5, decodeMsPerExtraSeq: 0, quantizationNoise });
  const [base, a, b] = await Promise.all([simAt(0), simAt(0.2), simAt(0.3)]);
  sims.push(base, a, b);
  // Runs 1–3 on one server, 4–6 on another: one contract each, every run scored against the same baseline server.
  for (const [i, sim] of [a, a, a, b, b, b].entries()) {
    const contract = join(dir, `c${i}.yaml`);
    writeFileSync(
      contract,
      stringify({
        version: 1,
        server: { url: sim.url },
        model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
        workload: { prompts: { kind: 'synthetic', tokens: 24 }, outputTokens: 8, requestsPerLevel: 3, warmup: 0 },
        load: { levels: [1] },
        slo: { ttftMs: { p: 95, max: 2000 }, tpotMs: { p: 50, max: 1000 } },
        hardware: { label: 'SimGPU 80GB', gpuHourlyUsd: 6.5, priceAsOf: '2025-06-01', utilisation: 0.55, utilisationAsOf: '2025-06-01' },
      }),
    );
    const r = await runGoodput(['run', contract, '--quality-baseline', base.url, '--data', data], {}, 120_000);
    expect(r.code, r.stderr).toBe(0);
  }
  ({ serve, url } = await startServe(data));
  browser = await launchChromium();
}, patient(300_000));

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
  await Promise.all(sims.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('the compare view with repeat sets', () => {
  it(
    'compares two sets over their runs and shows the quality row; a run named twice is refused',
    async () => {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      try {
        const page = await context.newPage();
        await page.goto(`${url}#/compare/1+2+3/4+5+6`);
        const table = page.getByRole('table', { name: /^Every run at every level on one axis/ });
        await table.waitFor({ timeout: patient(30_000) });
        await page.getByRole('heading', { name: 'Compare runs 1+2+3, 4+5+6' }).waitFor();
        expect(await table.locator('th.group').allTextContents()).toEqual(['runs 1+2+3 (baseline)', 'runs 4+5+6']);
        const deltas = page.getByRole('table', { name: /^runs 4\+5\+6 against runs 1\+2\+3/ });
        const intervals = await deltas.locator('span.ci').allTextContents();
        // Over the runs when each side has 3 valid runs of the level. On a loaded machine a run's one level can be client-bound (0.5 ms
        // decode steps inside the event loop's delay): the set is then compared without it, over its requests, or not at all.
        for (const ci of intervals) expect(ci).toMatch(/over (3\+ runs a side|requests)$/);
        if (intervals.length === 0 || intervals.some((ci) => ci.endsWith('over requests'))) {
          const untrusted = await Promise.all(
            [1, 2, 3, 4, 5, 6].map(async (id) =>
              ((await (await fetch(`${url}api/runs/${id}/result`)).json()) as SweepResult).levels.some((l) => l.clientBound.bound || l.invalid),
            ),
          );
          expect(untrusted.some(Boolean), `${intervals.join(' | ')}, yet every run measured its level validly`).toBe(true);
        }
        const quality = page.locator('table.quality-compare');
        expect(await quality.locator('tbody th').allTextContents()).toEqual(['runs 1+2+3', 'runs 4+5+6']);
        expect(await quality.locator('td.verdict-worse span.verdict').textContent()).toBe('worse');
        await page.goto(`${url}#/compare/1+2/2+3`);
        await expect
          .poll(() => page.getByRole('alert').filter({ hasText: 'Cannot compare' }).textContent(), { timeout: patient(10_000) })
          .toBe('Cannot compare: run 2 is named twice; each run once');
      } finally {
        await context.close();
      }
    },
    patient(90_000),
  );

  it(
    "says which run each set's tables draw, and its side-by-side figures are that stored run's",
    async () => {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      try {
        const page = await context.newPage();
        await page.goto(`${url}#/compare/1+2+3/4+5+6`);
        const table = page.getByRole('table', { name: /^Every run at every level on one axis/ });
        await table.waitFor({ timeout: patient(30_000) });
        const stored = async (id: number) => (await (await fetch(`${url}api/runs/${id}/result`)).json()) as SweepResult;
        const [one, four] = [await stored(1), await stored(4)];
        const note = (set: string, first: number) =>
          `runs ${set}: the tables, statuses, quality score and charts show run ${first}, the first of its 3 runs; ` +
          `its differences are over all 3 (their means) where both sides measured a level validly in at least 3 runs, else over run ${first}'s requests.`;
        expect(one.quality).toBeDefined();
        expect(await page.locator('p.drawn-run').allTextContents()).toEqual([note('1+2+3', 1), note('4+5+6', 4)]);
        // One level, a group of the six figures, Failed and Status per set: each group's throughput is its first run's as stored.
        const cells = await table.locator('tbody tr').first().locator('td').allTextContents();
        expect([cells[0], cells[8]]).toEqual([num(one.levels[0]?.throughputTokS, 1), num(four.levels[0]?.throughputTokS, 1)]);
      } finally {
        await context.close();
      }
    },
    patient(90_000),
  );
});
