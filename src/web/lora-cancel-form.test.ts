/**
 * The run form's LoRA adapters and cancellation, in Debian's Chromium against
 * a real `goodput serve` and a simulator serving two adapters: a share above 1
 * is refused in the page, a share with no cancel point and an adapter the
 * server does not list are refused beside their fields by the API, nothing
 * stored; then a run over two adapters with half its requests given up after
 * four tokens completes, its stored result and the run view giving each
 * adapter's figures and the cancelled count.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SweepResult } from '../core/index.js';
import { type SimProcess } from '../sim/index.js';
import { type Started } from '../test-support/goodput-process.js';
import { desktopPage, launchChromium, needBuiltPage, startServe, steadySim, visible } from '../test-support/chromium.js';
import { patient } from '../test-support/patience.js';

let sim: SimProcess;
let serve: Started;
let browser: Browser;
let page: Page;
let url: string;
let key = '';

beforeAll(async () => {
  needBuiltPage();
  sim = await steadySim(2, 1, ['--lora-adapters', 'sql-lora,chat-lora']);
  ({ serve, url, key } = await startServe(join(mkdtempSync(join(tmpdir(), 'goodput-lora-form-')), 'db')));
  const added = await fetch(`${url}api/servers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key.slice('?token='.length)}` },
    body: JSON.stringify({ name: 'adapters', baseUrl: sim.url }),
  });
  expect(added.status, await added.clone().text()).toBeLessThan(300);
  browser = await launchChromium();
  page = await desktopPage(browser);
}, patient(120_000));

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
  await sim?.stop();
});

const field = (label: string) => page.getByLabel(label, { exact: true });
const errorOf = (id: string) => page.locator(`#${id}-error`).textContent();

describe("the run form's LoRA adapters and cancellation", () => {
  it(
    'refuses a bad share and an unlisted adapter beside their fields, then runs over two adapters with half the requests given up',
    async () => {
      await page.goto(`${url}${key}#/`);
      await expect.poll(() => page.locator('#server-status').textContent(), { timeout: patient(15_000) }).toMatch(/^running/);
      await field('Concurrency levels').fill('2');
      await field('Requests per level').fill('8');
      await field('Output tokens').fill('48');

      await field('Share cancelled').fill('1.5');
      await page.getByRole('button', { name: 'Start' }).click();
      await expect.poll(() => errorOf('cancel-fraction')).toBe('Share cancelled must be at most 1.');

      await field('Share cancelled').fill('0.5');
      await page.getByRole('button', { name: 'Start' }).click();
      await expect
        .poll(() => errorOf('cancel-fraction'), { timeout: patient(10_000) })
        .toBe('cancelFraction: needs cancelAfterMs or cancelAfterTokens (when a request is given up)');
      expect(await field('Share cancelled').getAttribute('aria-invalid')).toBe('true');

      await field('Cancel after tokens').fill('4');
      await field('LoRA adapters').fill('sql-lora=3,nope-lora=1');
      await page.getByRole('button', { name: 'Start' }).click();
      await expect.poll(() => errorOf('lora'), { timeout: patient(10_000) }).toMatch(/^lora: adapter "nope-lora" is not listed in the \/v1\/models of /);
      expect(await (await fetch(`${url}api/runs`)).json()).toEqual([]);

      await field('LoRA adapters').fill('sql-lora=3,chat-lora=1');
      await page.getByRole('button', { name: 'Start' }).click();
      await expect.poll(() => page.url(), { timeout: patient(15_000) }).toMatch(/#\/runs\/(\d+)$/);
      const id = /#\/runs\/(\d+)$/.exec(page.url())?.[1];
      await expect
        .poll(async () => ((await (await fetch(`${url}api/runs/${id}`)).json()) as { status: string }).status, { timeout: patient(60_000) })
        .toBe('complete');
      const stored = (await (await fetch(`${url}api/runs/${id}/result`)).json()) as SweepResult;
      expect(stored.run.lora).toEqual([
        { name: 'sql-lora', weight: 3 },
        { name: 'chat-lora', weight: 1 },
      ]);
      const level = stored.levels[0];
      expect(level?.cancelled).toMatchObject({ requests: 4, afterTokens: 4 });
      expect((level?.adapters ?? []).reduce((n, a) => n + a.requests, 0)).toBe(8);

      // The run view draws each adapter's row, as the report does.
      const panel = page.getByRole('region', { name: 'LoRA adapters' });
      await visible(panel, patient(15_000));
      const rows = await panel.locator('tbody tr').allTextContents();
      expect(rows.map((r) => (r.includes('sql-lora') ? 'sql-lora' : r.includes('chat-lora') ? 'chat-lora' : r)).sort()).toEqual(['chat-lora', 'sql-lora']);
    },
    patient(120_000),
  );
});
