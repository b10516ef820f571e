/**
 * An agent trace started from the page's run form, in Debian's Chromium against
 * a real `goodput serve` and the simulator: a picked file with a line that is no
 * JSON object is refused beside the field before anything is sent; one whose
 * graph cannot run is refused by the server, its line named beside the field;
 * a good one starts its replay at the levels as speeds, and the run view shows
 * its agent sessions and jobs level by level, with the stored result's counts.
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
import { AGENT_TRACE_LINES, jsonl } from '../test-support/trace-fixtures.js';

let sim: SimProcess;
let serve: Started;
let browser: Browser;
let page: Page;
let url: string;
let key = '';

const GOOD = AGENT_TRACE_LINES;
const pick = (name: string, text: string) => page.getByLabel('Agent trace').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
const fieldError = () => page.locator('#agent-trace-error').textContent();

beforeAll(async () => {
  needBuiltPage();
  sim = await steadySim(2, 1);
  ({ serve, url, key } = await startServe(join(mkdtempSync(join(tmpdir(), 'goodput-agent-trace-form-')), 'db')));
  const added = await fetch(`${url}api/servers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key.slice('?token='.length)}` },
    body: JSON.stringify({ name: 'sim', baseUrl: sim.url }),
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

describe("the run form's agent trace", () => {
  it(
    'refuses a bad trace beside the field, then replays a good one at the levels as speeds and shows its sessions and jobs',
    async () => {
      await page.goto(`${url}${key}#/`);
      await expect.poll(() => page.locator('#server-status').textContent(), { timeout: patient(15_000) }).toMatch(/^running/);
      await page.getByLabel('Concurrency levels').fill('1, 2');

      // A line that is no JSON object: refused in the page, nothing sent.
      await pick('broken.jsonl', `${jsonl(GOOD)}{"agent": "c", "t": 1,\n`);
      await page.getByRole('button', { name: 'Start' }).click();
      await expect.poll(fieldError).toBe('broken.jsonl: line 5 is not a JSON object (an agent trace has one per line).');
      expect(await page.getByLabel('Agent trace').getAttribute('aria-invalid')).toBe('true');

      // Lines the page reads, a graph the server refuses: its line named beside the field, nothing stored.
      await pick('orphan.jsonl', jsonl([...GOOD, { agent: 'd', parent: 'zz', after: 1, turns: [{ in: 8, out: 2 }] }]));
      await page.getByRole('button', { name: 'Start' }).click();
      await expect.poll(fieldError, { timeout: patient(10_000) }).toBe("agentTrace: agent trace orphan.jsonl: line 5: agent d's parent zz is not in the trace");
      expect(await (await fetch(`${url}api/runs`)).json()).toEqual([]);

      await pick('agents.jsonl', jsonl(GOOD));
      await page.getByRole('button', { name: 'Start' }).click();
      await expect.poll(() => page.url(), { timeout: patient(15_000) }).toMatch(/#\/runs\/(\d+)$/);
      const id = /#\/runs\/(\d+)$/.exec(page.url())?.[1];
      await expect
        .poll(async () => ((await (await fetch(`${url}api/runs/${id}`)).json()) as { status: string }).status, { timeout: patient(60_000) })
        .toBe('complete');
      const stored = (await (await fetch(`${url}api/runs/${id}/result`)).json()) as SweepResult;
      expect(stored.run.arrival).toMatchObject({ kind: 'trace', source: { file: 'agents.jsonl', format: 'goodput-agents' } });
      expect(stored.levels.map((l) => l.load?.level)).toEqual([1, 2]);
      await page.reload();
      const table = page.getByRole('table', { name: 'Agent sessions and jobs by level' });
      await table.waitFor({ state: 'visible', timeout: patient(30_000) });
      const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').trim())));
      expect(rows.map((r) => r[0])).toEqual(['trace agents.jsonl at 1×', 'trace agents.jsonl at 2×']);
      // Every level sent the trace's 2 jobs of 3 sessions, and the table counts them as the stored result does.
      expect(stored.levels.map((l) => [l.agents?.sessions.count, l.agents?.jobs.count])).toEqual([
        [3, 2],
        [3, 2],
      ]);
      for (const [i, l] of stored.levels.entries()) {
        const a = l.agents as NonNullable<typeof l.agents>;
        expect(rows[i]).toEqual(expect.arrayContaining([`${a.sessions.met} of ${a.sessions.count}`, `${a.jobs.met} of ${a.jobs.count}`]));
      }
    },
    patient(150_000),
  );
});
