/**
 * The Benchmarks page in Debian's Chromium (playwright-core), against a real
 * `goodput serve` and the simulator in its own process: register servers,
 * refuse a stopped one and bad levels, start a sweep and watch its levels
 * complete, read the table, charts and cards, copy the cards and compare them
 * with `goodput cards`, warn about a short output, compare two runs, stop one.
 * Screenshots go to test-artifacts/. Controls are found by role and label.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimProcess } from '../sim/index.js';
import { type Started, runGoodput, startGoodput } from '../test-support/goodput-process.js';
import { TABLE_HEADERS } from './index.js';
import { launchChromium, needBuiltPage, startServe, steadySim, visible } from '../test-support/chromium.js';
import { patient } from '../test-support/patience.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ARTIFACTS = join(ROOT, 'test-artifacts');

let sim: SimProcess;
let serve: Started;
let browser: Browser;
let page: Page;
let url: string;
/** `?token=…`: the write key serve printed with its address. */
let key = '';
const dir = mkdtempSync(join(tmpdir(), 'goodput-page-'));
const data = join(dir, 'db');

beforeAll(async () => {
  needBuiltPage();
  mkdirSync(ARTIFACTS, { recursive: true });
  // 2 ms per decode step: a 256-token request takes ~0.5 s, so levels last long enough to watch.
  sim = await steadySim(5, 2);
  ({ serve, url, key } = await startServe(data));
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url.replace(/\/$/, '') });
  page = await context.newPage();
  // Opened as serve printed it: the page keeps the write key.
  await page.goto(`${url}${key}`);
}, patient(120_000));

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
  await sim?.stop();
});

const poll = <T>(fn: () => Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout, interval: 100 });

const runsStored = async () => ((await (await fetch(`${url}api/runs`)).json()) as unknown[]).length;
const serverPicker = () => page.getByRole('combobox', { name: 'Server', exact: true });

async function register(name: string, baseUrl: string, state: string) {
  const details = page.locator('details#register');
  if (!(await details.evaluate((d) => (d as unknown as { open: boolean }).open))) await page.getByText('Register a server', { exact: true }).click();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Base URL', { exact: true }).fill(baseUrl);
  await page.getByRole('button', { name: 'Register server' }).click();
  await visible(page.getByText(`Registered ${name}: ${state}.`));
}

describe('the Benchmarks page', () => {
  it(
    'starts empty, and registers a running and a stopped server',
    async () => {
      await visible(page.getByRole('heading', { name: 'Benchmarks', level: 1 }));
      await poll(() => page.getByText('No runs yet').count()).toBe(2);
      await register('sim', sim.url, 'running');
      await register('down', 'http://127.0.0.1:9', 'stopped');
      await poll(() => serverPicker().inputValue()).toMatch(/\d+/);
    },
    patient(60_000),
  );

  it(
    'refuses Start on a stopped server with the reason, before anything runs',
    async () => {
      await serverPicker().selectOption({ label: 'down — stopped' });
      await poll(() => page.locator('#server-status').textContent()).toContain('stopped — nothing is listening at 127.0.0.1:9');
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      const refusal = page.getByRole('alert').filter({ hasText: 'server "down" is stopped' });
      await poll(() => refusal.textContent()).toContain('Nothing was run');
      expect(await runsStored()).toBe(0);
    },
    patient(60_000),
  );

  it(
    'refuses bad levels next to the field, before anything is sent',
    async () => {
      await serverPicker().selectOption({ label: 'sim — running' });
      const levels = page.getByRole('textbox', { name: 'Concurrency levels' });
      await levels.fill('1, 0, four');
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      await visible(page.getByText('“0” is not a positive integer. Levels look like 1, 2, 4, 8.'));
      await poll(() => levels.getAttribute('aria-invalid')).toBe('true');
      // Prompt tokens and requests per level are bounded by the limits table, each error at its own field.
      const prompt = page.getByRole('spinbutton', { name: 'Prompt tokens' });
      const requests = page.getByRole('textbox', { name: 'Requests per level' });
      await prompt.fill('262145');
      await requests.fill('0');
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      await visible(page.getByText('Prompt tokens must be at most 262144.'));
      await visible(page.getByText('Requests per level must be a positive whole number, e.g. 64, or blank for auto.'));
      await poll(() => prompt.getAttribute('aria-invalid')).toBe('true');
      expect(await requests.getAttribute('aria-describedby')).toContain('requests-error');
      await prompt.fill('512');
      await requests.fill('');
      expect(await runsStored()).toBe(0);
    },
    patient(60_000),
  );

  it(
    'runs a sweep level by level, then shows the table, both charts and the three cards',
    async () => {
      await page.getByRole('textbox', { name: 'Concurrency levels' }).fill('1, 2, 4');
      await poll(() => page.getByRole('spinbutton', { name: 'Output tokens' }).inputValue()).toMatch('256');
      expect(await page.getByRole('checkbox', { name: 'Thinking' }).isChecked()).toBe(false);
      const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/runs'));
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      // The form sends what its fields say: the prompt length and requests per level too (here their defaults).
      expect((await posted).postDataJSON()).toMatchObject({ levels: [1, 2, 4], outputTokens: 256, promptTokens: 512, requestsPerLevel: 'auto' });
      await page.waitForURL(/#\/runs\/1$/);
      // Watch it live: the level in flight is marked in the table while the bars move.
      await visible(page.getByRole('progressbar', { name: 'Levels' }));
      await poll(() => page.getByRole('button', { name: 'Stop' }).isEnabled()).toBe(true);
      await visible(page.getByRole('cell', { name: /^running… \d+ of \d+ requests$/ }));
      await visible(page.getByRole('status').filter({ hasText: /Level 1 finished: [\d,.]+ tok\/s, 0 failed\./ }), 30_000);
      await visible(page.getByRole('heading', { name: /^Run 1 complete$/ }), 60_000);

      const table = page.getByRole('table', { name: /Per concurrency level/ });
      expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Concurrency', ...TABLE_HEADERS, 'Status']);
      expect(await table.getByRole('rowheader').allTextContents()).toEqual(['1', '2', '4']);
      const failedColumn = 1 + TABLE_HEADERS.indexOf('Failed');
      for (const row of await table.locator('tbody tr').all()) {
        expect(
          await row
            .locator('td')
            .nth(failedColumn - 1)
            .textContent(),
        ).toBe('0');
        // A loaded CI machine may mark a level client-bound (our own loop lagged); never invalid here.
        // (A client-bound level is a badge whose reason opens on demand: its text is the badge's, then the reason.)
        expect(await row.locator('td.status').textContent()).toMatch(/^(ok|client-boundclient-bound: .+)$/);
      }
      const charts = page.locator('figure.chart');
      await poll(() => charts.count()).toBe(3);
      for (const [i, direction] of [
        [0, 'tok/s · higher is better'],
        [1, 'tok/s · higher is better'],
        [2, 'ms · lower is better'],
      ] as const) {
        await poll(() => charts.nth(i).locator('figcaption').textContent()).toContain(direction);
        await poll(() => charts.nth(i).getByRole('img').getAttribute('aria-label')).toMatch(/at concurrency 1/);
      }
      for (const name of ['Model', 'Engine', 'Platform']) await visible(page.getByRole('region', { name, exact: true }));
      await poll(() => page.getByRole('region', { name: 'Engine', exact: true }).textContent()).toContain('Scaling curve');
    },
    patient(120_000),
  );

  it(
    '"Copy cards as JSON" puts exactly what goodput cards prints on the clipboard',
    async () => {
      await page.getByRole('button', { name: 'Copy cards as JSON' }).click();
      await visible(page.getByRole('status').filter({ hasText: 'Copied the three cards as JSON' }));
      const clipboard = await page.evaluate<string>('navigator.clipboard.readText()');
      // serve holds the embedded store, so these commands go through its API.
      const out = join(dir, 'run-1.json');
      const exported = await runGoodput(['runs', 'export', '1', '--out', out, '--data', data]);
      expect(exported.code).toBe(0);
      const cards = await runGoodput(['cards', out]);
      expect(cards.code).toBe(0);
      expect(clipboard).toBe(cards.stdout);
      expect(JSON.parse(readFileSync(out, 'utf8')).cards).toEqual(JSON.parse(clipboard));
      await page.screenshot({ path: join(ARTIFACTS, 'benchmarks-page.png'), fullPage: true });
    },
    patient(90_000),
  );

  it(
    'warns before Start about a short output, stores the warning, and compares two runs',
    async () => {
      await page.getByRole('spinbutton', { name: 'Output tokens' }).fill('64');
      await visible(page.getByText('64 output tokens is below 128'));
      await page.getByRole('textbox', { name: 'Concurrency levels' }).fill('1, 2');
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      await page.waitForURL(/#\/runs\/2$/);
      await visible(page.getByRole('heading', { name: /^Run 2 complete$/ }), 60_000);
      await poll(() => page.getByRole('list', { name: 'Warnings' }).textContent()).toContain('output length 64 is below 128 tokens');
      await page.getByRole('checkbox', { name: /^Compare run 1 \(/ }).check();
      await page.getByRole('checkbox', { name: /^Compare run 2 \(/ }).check();
      await page.getByRole('button', { name: 'Compare selected runs' }).click();
      await visible(page.getByRole('heading', { name: 'Compare runs 1, 2' }));
      await visible(page.getByRole('rowheader', { name: 'output tokens (workload)' }));
      await visible(page.getByText(/The workloads differ \(output tokens: 256 \(run 1\) vs 64 \(run 2\)\), so no differences are computed/));
      const aligned = page.getByRole('table', { name: /^Every run at every level on one axis/ });
      await visible(aligned);
      expect(await aligned.locator('th.group').allTextContents()).toEqual(['run 1 (baseline)', 'run 2']);
      expect(await aligned.getByRole('rowheader').allTextContents()).toEqual(['1', '2', '4']);
      // The curves and the Pareto view.
      await poll(() => page.locator('figure.chart').count()).toBe(4);
      await page.screenshot({ path: join(ARTIFACTS, 'benchmarks-compare.png'), fullPage: true });
    },
    patient(120_000),
  );

  it(
    'Stop ends a run cleanly and keeps its finished levels',
    async () => {
      await page.goto(url);
      await page.getByRole('spinbutton', { name: 'Output tokens' }).fill('256');
      await page.getByRole('textbox', { name: 'Concurrency levels' }).fill('1, 32');
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      await page.waitForURL(/#\/runs\/3$/);
      await poll(() => page.getByRole('progressbar', { name: 'Levels' }).getAttribute('aria-valuetext'), 60_000).toBe('level 2 of 2, concurrency 32');
      await page.getByRole('button', { name: 'Stop' }).click();
      await visible(page.getByRole('heading', { name: /^Run 3 stopped by the user$/ }), 30_000);
      expect(
        await page
          .getByRole('table', { name: /Per concurrency level/ })
          .getByRole('rowheader')
          .allTextContents(),
      ).toEqual(['1']);
    },
    patient(120_000),
  );

  for (const width of [360, 375, 420]) {
    it(
      `at ${width} px wide nothing runs off the right edge (wide tables scroll inside their frame)`,
      async () => {
        await page.setViewportSize({ width, height: 900 });
        try {
          for (const at of ['', '#/runs/1']) {
            await page.goto(`${url}${at}`);
            await visible(page.getByRole('heading', { name: at === '' ? 'New sweep' : /^Run 1 / }));
            // Evaluated in the page (this file is type-checked without the DOM library).
            const overflow = await page.evaluate(`[...document.querySelectorAll('body *')]
            .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !el.closest('.table-wrap'))
            .map((el) => el.tagName.toLowerCase() + '.' + String(el.className))`);
            expect(overflow, at || 'the start page').toEqual([]);
            expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
            if (width !== 420) await page.screenshot({ path: join(ARTIFACTS, `benchmarks-${width}px${at === '' ? '' : '-run'}.png`), fullPage: true });
          }
        } finally {
          await page.setViewportSize({ width: 1400, height: 1000 });
        }
      },
      patient(60_000),
    );
  }

  it(
    'at 1,400 px a long level status, opened, wraps in its own cell and no table header wraps past two lines',
    async () => {
      await page.goto(`${url}#/runs/1`);
      await visible(page.getByRole('heading', { name: /^Run 1 / }));
      // What a loaded machine writes there: a client-bound badge whose reason, opened, is as long as the runner makes them.
      await page.evaluate(`document.querySelector('td.status').innerHTML = '<details class="reason" open><summary><span class="badge warn">client-bound</span></summary><p class="reason-text">' +
      'client-bound: replacement requests left 43.2 ms (p99) after the slot freed, and the client\\'s event loop was delayed 38.9 ms (p99); budget 10 ms</p></details>'`);
      // Polled: the page may still be laying out after the viewport grew back from a narrow test.
      // Lines of a header's own text (a row's cells share one height, so the cell's height would not tell).
      await poll(
        () =>
          page.evaluate(`[...document.querySelectorAll('thead th')].filter((th) => {
        const r = document.createRange(); r.selectNodeContents(th);
        return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size > 2;
      }).map((th) => th.textContent)`),
        10_000,
      ).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, 'benchmarks-1400px-run.png'), fullPage: true });
    },
    patient(60_000),
  );

  it(
    'an interrupted run with no finished level says so, with no empty table or charts under it',
    async () => {
      const sweep = startGoodput([
        'sweep',
        '--url',
        sim.url,
        '--levels',
        '1',
        '--requests-per-level',
        '400',
        '--output-tokens',
        '256',
        '--prompt-tokens',
        '8',
        '--data',
        data,
      ]);
      await sweep.waitFor(/^engine /m, 60_000);
      await sweep.stop('SIGKILL');
      await page.goto(`${url}#/runs/4`);
      const banner = page.locator('p.banner.bad');
      await visible(banner);
      expect(await banner.textContent()).toMatch(
        /^Interrupted — not a result\. interrupted: its process \(pid \d+ on .*\) ended without finishing it; no level had finished\. No level finished, so there is nothing to show\.$/,
      );
      expect(await page.getByRole('table', { name: /Per concurrency level/ }).count()).toBe(0);
      expect(await page.locator('figure.chart').count()).toBe(0);
    },
    patient(90_000),
  );

  it(
    'a trace replay draws its time series, and a session run its TTFT by turn',
    async () => {
      const trace = join(dir, 'replay.jsonl');
      writeFileSync(
        trace,
        Array.from({ length: 24 }, (_, i) =>
          JSON.stringify({ timestamp: i * 40 + (i % 6 === 0 ? 0 : 5), input_length: 64, output_length: 16, hash_ids: [1, 100 + i] }),
        ).join('\n'),
      );
      const replay = await runGoodput(['replay', trace, '--url', sim.url, '--block-tokens', '32', '--data', data], {}, 90_000);
      expect(replay.code).toBe(0);
      const replayId = Number(/stored as run (\d+)/.exec(replay.stderr)?.[1]);
      await page.goto(`${url}#/runs/${replayId}`);
      await visible(page.getByRole('heading', { name: 'Replay over time: trace replay.jsonl at 1×' }), 30_000);
      expect(
        await page.getByRole('table', { name: /^Per level, a replay of a recorded trace: each request with its own prompt and output lengths/ }).count(),
      ).toBe(1);
      for (const title of ['Arrivals', 'Requests in flight', 'Output throughput']) {
        await visible(page.locator('figure.chart figcaption strong', { hasText: title }));
      }
      expect(await page.getByRole('img', { name: /^Output throughput over the replay's [\d.]+ s: peak [\d,.]+ tok\/s/ }).count()).toBe(1);
      const sessions = await runGoodput(
        [
          'sessions',
          '--url',
          sim.url,
          '--levels',
          '2',
          '--sessions',
          '4',
          '--turns',
          '3',
          '--user-tokens',
          '16',
          '--answer-tokens',
          '16',
          '--think-s',
          '0',
          '--data',
          data,
        ],
        {},
        90_000,
      );
      expect(sessions.code).toBe(0);
      const sessionsId = Number(/stored as run (\d+)/.exec(sessions.stderr)?.[1]);
      await page.goto(`${url}#/runs/${sessionsId}`);
      await visible(page.getByRole('heading', { name: 'Turns: 2 sessions at once' }), 30_000);
      expect(await page.getByRole('table', { name: /^Per level, multi-turn sessions: each turn sent with the conversation so far/ }).count()).toBe(1);
      expect(await page.getByRole('img', { name: /^TTFT p50 is [\d,.]+ ms at turn 1 and [\d,.]+ ms at turn 3, as the conversation grows from/ }).count()).toBe(
        1,
      );
      await page.screenshot({ path: join(ARTIFACTS, 'benchmarks-sessions-run.png'), fullPage: true });
    },
    patient(150_000),
  );
});
