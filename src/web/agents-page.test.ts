/**
 * The run page in Debian's Chromium against a real `goodput serve`, for the
 * agentic runs: a stored agent-trace replay at speeds 1 and 2 shows its
 * session and job goodput against load and its job makespan as charts, and a
 * stored sweep sent with 64 tools (10 % invalid arguments configured in the
 * simulator) shows each level's tool-call verdicts as a table and charts. The
 * numbers on the page are the JSON result's; neither panel shows on the other run.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LevelResult, type SweepResult, sweepResultSchema } from '../core/index.js';
import { type SimProcess } from '../sim/index.js';
import { type Started, runGoodput } from '../test-support/goodput-process.js';
import { measureFit } from '../test-support/page-fit.js';
import { num } from './index.js';
import { desktopPage, launchChromium, needBuiltPage, startServe, steadySim, visible } from '../test-support/chromium.js';
import { patient } from '../test-support/patience.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-agents-page-'));
const data = join(dir, 'db');
let sim: SimProcess;
let serve: Started;
let browser: Browser;
let page: Page;
let url: string;
let agentRun: SweepResult;
let toolRun: SweepResult;

const read = (path: string) => sweepResultSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
/** A table's body rows as cell texts (the row header first). */
const rowsOf = (table: Locator) => table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').trim())));
/** The figure whose caption starts with `title`. */
const figure = (title: string) => page.locator('figure.chart', { has: page.locator('figcaption strong', { hasText: title }) });

beforeAll(async () => {
  needBuiltPage();
  sim = await steadySim(2, 1, ['--tool-call-invalid', '0.1', '--seed', '5']);
  // Run 1: a synthetic agent trace (8 root agents, 1–2 sub-agents, short tool waits) replayed at speeds 1 and 2.
  const trace = join(dir, 'agents.jsonl');
  const made = await runGoodput([
    'trace',
    'synth',
    '--agents',
    '8',
    '--fan-out',
    '1..2',
    '--turns',
    '2..3',
    '--tool-wait-s',
    '0.02..0.1',
    '--root-gap-s',
    '0..0.05',
    '--out-tokens',
    '4..8',
    '--seed',
    '5',
    '--out',
    trace,
  ]);
  expect(made.code, made.stderr).toBe(0);
  const agentsJson = join(dir, 'agents.json');
  const replay = await runGoodput(
    ['replay', trace, '--url', sim.url, '--speed', '1,2', '--save', '--data', data, '--json', agentsJson, '--no-server-metrics', '--client-budget-ms', '1000'],
    {},
    120_000,
  );
  expect(replay.code, replay.stderr).toBe(0);
  agentRun = read(agentsJson);
  // Run 2: 64 tools, a call required, at concurrency 1 and 4.
  const toolsJson = join(dir, 'tools.json');
  const sweep = await runGoodput(
    [
      'sweep',
      '--url',
      sim.url,
      '--tools',
      '64',
      '--tool-choice',
      'required',
      '--levels',
      '1,4',
      '--requests-per-level',
      '40',
      '--warmup',
      '0',
      '--data',
      data,
      '--json',
      toolsJson,
      '--no-server-metrics',
      '--client-budget-ms',
      '1000',
    ],
    {},
    120_000,
  );
  expect(sweep.code, sweep.stderr).toBe(0);
  toolRun = read(toolsJson);
  ({ serve, url } = await startServe(data));
  browser = await launchChromium();
  page = await desktopPage(browser);
}, patient(300_000));

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
  await sim?.stop();
});

describe('the run page of agentic runs', () => {
  it(
    "draws session and job goodput against the speeds and the job makespan p50/p95, with the JSON's numbers",
    async () => {
      await page.goto(`${url}#/runs/1`);
      await visible(page.getByRole('table', { name: 'Agent sessions and jobs by level' }), 30_000);
      const levels = agentRun.levels as LevelResult[];
      const agents = levels.map((l) => l.agents as NonNullable<LevelResult['agents']>);
      expect(agents.every(Boolean)).toBe(true);
      const speed = (l: LevelResult) => `${l.load?.level}×`;

      const goodput = figure('Session and job goodput against load');
      await visible(goodput);
      const svg = goodput.getByRole('img');
      await expect.poll(() => svg.locator('g[aria-label="x-axis tick label"] text').allTextContents(), { timeout: patient(10_000) }).toEqual(['1', '2']);
      expect(await svg.getAttribute('aria-label')).toBe(
        `Sessions met per second: ${agents.map((a, i) => `${num(a.sessions.metPerS, 2)} at speed ${levels[i]?.load?.level}×`).join(' and ')}; ` +
          `jobs met per second: ${agents.map((a, i) => `${num(a.jobs.metPerS, 2)} at speed ${levels[i]?.load?.level}×`).join(' and ')}.`,
      );
      expect(await rowsOf(goodput.locator('details table'))).toEqual(
        levels.map((l, i) => {
          const a = agents[i] as (typeof agents)[number];
          return [speed(l), `${a.sessions.met} of ${a.sessions.count}`, num(a.sessions.metPerS, 2), `${a.jobs.met} of ${a.jobs.count}`, num(a.jobs.metPerS, 2)];
        }),
      );
      // Every level's jobs all ran against a healthy simulator: 8 jobs and every session met.
      expect(agents.map((a) => [a.jobs.count, a.jobs.met, a.sessions.met === a.sessions.count])).toEqual([
        [8, 8, true],
        [8, 8, true],
      ]);

      const makespan = figure('Job makespan by level');
      await visible(makespan);
      expect(await rowsOf(makespan.locator('details table'))).toEqual(
        levels.map((l, i) => {
          const a = agents[i] as (typeof agents)[number];
          return [
            speed(l),
            String(a.jobList.filter((j) => j.makespanMs !== null).length),
            num(a.jobs.makespanMs?.p50 ?? null, 0),
            num(a.jobs.makespanMs?.p95 ?? null, 0),
          ];
        }),
      );
      // A round marker on the p50 line at every measured level (p95's are squares), and no tool-call panel on a run without tools.
      expect(await makespan.getByRole('img').locator('circle').count()).toBeGreaterThanOrEqual(levels.length);
      expect(await page.getByRole('heading', { name: 'Tool calls', exact: true }).count()).toBe(0);
    },
    patient(60_000),
  );

  it(
    "shows a run sent with tools as a verdict table and charts, with the JSON's counts and times",
    async () => {
      await page.goto(`${url}#/runs/2`);
      const table = page.getByRole('table', { name: 'Tool calls by level' });
      await visible(table, 30_000);
      const levels = toolRun.levels as LevelResult[];
      const t = levels.map((l) => l.toolCalls as NonNullable<LevelResult['toolCalls']>);
      expect(await table.getByRole('columnheader').allTextContents()).toEqual([
        'Concurrency',
        'Requests',
        'Valid',
        'Invalid',
        'Unparsed',
        'Missing',
        'No call (auto)',
        'Parse rate',
        'Valid rate',
        'Tool-call TTFT p50/p95 (ms)',
        'Arguments p50/p95 (ms)',
      ]);
      const pct = (x: number | null) => (x === null ? '—' : `${num(x * 100)} %`);
      const rows = await rowsOf(table);
      expect(rows.map((r) => [r[0], r[1], r[2]?.split(' ')[0], r[3]?.split(' ')[0], r[4]?.split(' ')[0], r[5]?.split(' ')[0], r[7], r[8], r[9]])).toEqual(
        levels.map((l, i) => {
          const x = t[i] as (typeof t)[number];
          return [
            String(l.concurrency),
            String(x.requests),
            String(x.valid),
            String(x.invalid),
            String(x.unparsed),
            String(x.missing),
            pct(x.parseRate),
            pct(x.validRate),
            x.ttftToolMs === null ? '—' : `${num(x.ttftToolMs.p50)} / ${num(x.ttftToolMs.p95)}`,
          ];
        }),
      );
      // 10 % invalid arguments configured: each level of 40 requests lands near 90 % valid.
      for (const x of t) expect(x.requests).toBe(40);
      for (const x of t) expect(x.validRate as number).toBeGreaterThan(0.75);

      const validity = figure('Tool-call validity by level');
      await visible(validity);
      const svg = validity.getByRole('img');
      await expect.poll(() => svg.locator('rect').count(), { timeout: patient(10_000) }).toBe(4 * levels.length);
      expect(await svg.getAttribute('aria-label')).toBe(
        `Valid tool calls: ${levels.map((l, i) => `${pct(t[i]?.validRate ?? null)} at concurrency ${l.concurrency}`).join(', ')}.`,
      );
      const ttft = figure('Time to first tool-call token');
      await visible(ttft);
      expect(await rowsOf(ttft.locator('details table'))).toEqual(
        levels.map((l, i) => [String(l.concurrency), num(t[i]?.ttftToolMs?.p50 ?? null), num(t[i]?.ttftToolMs?.p95 ?? null)]),
      );
      expect(await page.getByRole('heading', { name: 'Agent sessions and jobs' }).count()).toBe(0);
    },
    patient(60_000),
  );

  for (const width of [360, 1400]) {
    it(
      `at ${width} px both pages fit: the wide tables scroll in their frame, headers take at most two lines (as compare-layout.test.ts measures)`,
      async () => {
        await page.setViewportSize({ width, height: 900 });
        const found: Record<string, unknown> = {};
        for (const [run, table] of [
          [1, 'Agent sessions and jobs by level'],
          [2, 'Tool calls by level'],
        ] as const) {
          await page.goto(`${url}#/runs/${run}`);
          await page.reload();
          await visible(page.getByRole('table', { name: table }), 30_000);
          await visible(page.locator('figure.chart svg[role="img"]'));
          const m = await measureFit(page);
          found[`run ${run}`] = { overflow: m.overflow, tall: m.tall, wider: m.scrollWidth > width };
        }
        expect(found).toEqual({ 'run 1': { overflow: [], tall: [], wider: false }, 'run 2': { overflow: [], tall: [], wider: false } });
      },
      patient(60_000),
    );
  }
});
