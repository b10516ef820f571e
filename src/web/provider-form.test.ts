/**
 * The run form's provider fields, in Debian's Chromium against a real `goodput
 * serve` and a simulator allowing 120 requests/min: a rate limit the flag's
 * parser refuses is shown beside its field, nothing stored; an extra body that
 * is no JSON object is refused in the page; then a run paced by the form's rate
 * limit, with its retries off and an extra body, completes with no 429 and its
 * stored result records what the form said.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SweepResult } from '../core/index.js';
import { type SimProcess } from '../sim/index.js';
import { type Started } from '../test-support/goodput-process.js';
import { desktopPage, launchChromium, needBuiltPage, startServe, steadySim } from '../test-support/chromium.js';
import { patient } from '../test-support/patience.js';

let sim: SimProcess;
let serve: Started;
let browser: Browser;
let page: Page;
let url: string;
let key = '';

beforeAll(async () => {
  needBuiltPage();
  sim = await steadySim(2, 1, ['--rate-limit-rpm', '120']);
  ({ serve, url, key } = await startServe(join(mkdtempSync(join(tmpdir(), 'goodput-provider-form-')), 'db')));
  const added = await fetch(`${url}api/servers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key.slice('?token='.length)}` },
    body: JSON.stringify({ name: 'provider', baseUrl: sim.url }),
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

describe("the run form's rate limit, retries and extra body", () => {
  it(
    'refuses a bad rate limit beside its field, then runs paced by the form with no 429 and records what it said',
    async () => {
      await page.goto(`${url}${key}#/`);
      await expect.poll(() => page.locator('#server-status').textContent(), { timeout: patient(15_000) }).toMatch(/^running/);
      await page.getByLabel('Concurrency levels', { exact: true }).fill('1');
      await page.getByLabel('Requests per level', { exact: true }).fill('6');
      await page.getByLabel('Output tokens', { exact: true }).fill('8');

      await page.getByLabel('Extra request body (JSON)', { exact: true }).fill('[1]');
      await page.getByRole('button', { name: 'Start' }).click();
      await expect.poll(() => page.locator('#extra-body-error').textContent()).toBe('Extra body must be a JSON object, e.g. {"priority":1}.');
      await page.getByLabel('Extra request body (JSON)', { exact: true }).fill('{"priority":1}');

      await page.getByLabel('Rate limit', { exact: true }).fill('rpm=fast');
      await page.getByRole('button', { name: 'Start' }).click();
      await expect
        .poll(() => page.locator('#rate-limit-error').textContent(), { timeout: patient(10_000) })
        .toBe("rateLimit: rateLimit 'rpm=fast' is not rpm=N or tpm=M (give rpm=N,tpm=M or from-headers)");
      expect(await page.getByLabel('Rate limit', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      expect(await (await fetch(`${url}api/runs`)).json()).toEqual([]);

      await page.getByLabel('Rate limit', { exact: true }).fill('rpm=120');
      await page.getByLabel('Retries', { exact: true }).fill('off');
      await page.getByRole('button', { name: 'Start' }).click();
      await expect.poll(() => page.url(), { timeout: patient(15_000) }).toMatch(/#\/runs\/(\d+)$/);
      const id = /#\/runs\/(\d+)$/.exec(page.url())?.[1];
      await expect
        .poll(async () => ((await (await fetch(`${url}api/runs/${id}`)).json()) as { status: string }).status, { timeout: patient(60_000) })
        .toBe('complete');
      const stored = (await (await fetch(`${url}api/runs/${id}/result`)).json()) as SweepResult;
      expect(stored.run.rateLimit).toEqual({ kind: 'budget', rpm: 120, tpm: null });
      expect(stored.run.retry).toEqual({ retries: 0, maxWaitMs: 60_000 });
      expect(stored.run.extraBody).toEqual({ priority: 1 });
      expect(stored.levels[0]?.failed).toBe(0);
      expect(stored.levels[0]?.rateLimit?.answered429 ?? 0).toBe(0);
    },
    patient(120_000),
  );
});
