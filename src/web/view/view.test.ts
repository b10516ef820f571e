/**
 * The view module without a browser: charts drawn into linkedom's document
 * (as the static page will), table rows, cards, compare deltas and form rules.
 */
import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LevelResult } from '../../core/index.js';
import { LIMITS, MAX_CONCURRENCY, MAX_LEVELS, MAX_OUTPUT_TOKENS, SHORT_OUTPUT_TOKENS } from '../../core/index.js';
import { type SweepFixture, sweepFixture } from '../../test-support/sweep-fixture.js';
import {
  CHARTS,
  FORM_MAX_CONCURRENCY,
  FORM_MAX_EMBEDDING_BATCH,
  FORM_MAX_ITEM_TOKENS,
  FORM_MAX_LEVELS,
  FORM_MAX_OUTPUT_TOKENS,
  FORM_MAX_RERANK_DOCUMENTS,
  FORM_MAX_REQUESTS_PER_LEVEL,
  parseCount,
  parseRequestsPerLevel,
  SHORT_OUTPUT_TOKENS as FORM_SHORT,
  TABLE_HEADERS,
  cardViews,
  cardsJson,
  failureSummary,
  parseLevelsText,
  parseMoney,
  parseOutputTokens,
  shortOutputWarning,
  tableRows,
  ttftChart,
  CLIENT_HEADERS,
  WORKER_HEADERS,
  clientRows,
  workerRows,
} from './index.js';

let fx: SweepFixture;
let levels: LevelResult[];
beforeAll(async () => {
  fx = await sweepFixture();
  const [one, two] = fx.result.levels as [LevelResult, LevelResult];
  // A third level with failures, to see how an invalid level renders.
  levels = [
    one,
    two,
    {
      ...two,
      concurrency: 4,
      failed: 3,
      requests: 12,
      failures: { timeout: 3 },
      invalid: true,
      invalidReason: '3 of 12 requests failed (timeout 3)',
      failureExamples: ['timed out waiting for the first token'],
    },
  ];
});

const doc = () => parseHTML('<!doctype html><html><body></body></html>').document;

describe('charts (linkedom)', () => {
  it('draws every chart as an SVG with role img, a summary, ticks at the measured levels and the invalid level marked', () => {
    for (const chart of CHARTS) {
      const svg = chart.render([{ label: 'run 1', role: 'single', levels }], { document: doc() as never });
      expect(svg.tagName.toLowerCase()).toBe('svg');
      expect(svg.getAttribute('role')).toBe('img');
      expect(svg.getAttribute('aria-label')).toMatch(/concurrency 1/);
      const texts = [...svg.querySelectorAll('text')].map((t) => t.textContent);
      for (const c of ['1', '2', '4']) expect(texts).toContain(c);
      expect(texts).toContain('invalid level');
      expect(texts.some((t) => /log₂/.test(t ?? ''))).toBe(true);
      expect(chart.subtitle).toMatch(/is better$/);
    }
    expect(ttftChart.subtitle).toBe('ms · lower is better');
    expect(CHARTS[0]?.subtitle).toBe('tok/s · higher is better');
  });
  it('rings and names a client-bound level, and leaves it out of the peak the summary states', () => {
    const [one, two] = levels as [LevelResult, LevelResult];
    const bound = { ...two, concurrency: 8, throughputTokS: two.throughputTokS * 10, clientBound: { ...two.clientBound, bound: true, reason: 'send lag' } };
    const svg = CHARTS[0]?.render([{ label: 'run 1', role: 'single', levels: [one, two, bound] }], { document: doc() as never });
    expect([...(svg?.querySelectorAll('text') ?? [])].map((t) => t.textContent)).toContain('client-bound');
    const summary = svg?.getAttribute('aria-label') ?? '';
    expect(summary).toMatch(new RegExp(`peaks at .* at concurrency 2; client-bound levels are marked and left out of the peak\\.$`));
  });
  it('labels p50 and p95 directly, and runs by name in a comparison', () => {
    const single = ttftChart.render([{ label: 'run 1', role: 'single', levels }], { document: doc() as never });
    const labels = [...single.querySelectorAll('text')].map((t) => t.textContent);
    expect(labels).toEqual(expect.arrayContaining(['p50', 'p95']));
    const both = CHARTS[0]!.render(
      [
        { label: 'run 1', role: 'baseline', levels },
        { label: 'run 2', role: 'candidate', levels },
      ],
      { document: doc() as never },
    );
    expect([...both.querySelectorAll('text')].map((t) => t.textContent)).toEqual(expect.arrayContaining(['run 1', 'run 2']));
  });
  it('gives each chart its data as a table', () => {
    const t = ttftChart.table([{ label: 'run 1', role: 'single', levels }]);
    expect(t.headers).toEqual(['Concurrency', 'TTFT p50 (ms)', 'TTFT p95 (ms)']);
    expect(t.rows.map((r) => r[0])).toEqual(['1', '2', '4']);
    expect(t.rows[2]?.[1]).toMatch(/\(invalid\)$/);
  });
});

describe('table', () => {
  it('has the seed columns in order', () => {
    expect(TABLE_HEADERS).toEqual([
      'Throughput tok/s',
      'Per-request tok/s',
      'TTFT p50 (ms)',
      'TTFT p95 (ms)',
      'TPOT p50 (ms)',
      'e2e p50 (ms)',
      'Failed',
      'GPU mem (MiB)',
    ]);
  });
  it('marks an invalid level: averages dimmed, Failed an alarm, the reason in its status, and a summary naming it', () => {
    const rows = tableRows(levels);
    const bad = rows[2]!;
    expect(bad.invalid).toBe(true);
    expect(bad.status).toBe('invalid: 3 of 12 failed (timeout 3)');
    expect(bad.cells.filter((c) => c.dimmed).map((c) => c.metric)).toEqual(['throughput', 'perRequest', 'ttftP50', 'ttftP95', 'tpotP50', 'e2eP50']);
    expect(bad.cells.find((c) => c.metric === 'failed')).toMatchObject({ text: '3', alarm: true });
    expect(rows[0]!.cells.some((c) => c.dimmed || c.alarm)).toBe(false);
    expect(failureSummary(levels)).toMatch(/^1 level has failed requests.*concurrency 4: 3 of 12 failed \(timeout 3\) — e\.g\. timed out/);
    expect(failureSummary(levels.slice(0, 2))).toBeNull();
  });
  it('shows the level in flight and the queued ones while a run is live; GPU memory without a source is n/a, never 0', () => {
    const rows = tableRows(levels.slice(0, 1), [1, 2, 4], { concurrency: 2, done: 3, requests: 8, failed: 1 });
    expect(rows.map((r) => [r.concurrency, r.state, r.status])).toEqual([
      [1, 'done', 'ok'],
      [2, 'running', 'running… 3 of 8 requests'],
      [4, 'queued', 'queued'],
    ]);
    expect(rows[1]!.cells.find((c) => c.metric === 'failed')).toMatchObject({ text: '1', alarm: true });
    expect(rows[0]!.cells.find((c) => c.metric === 'gpuMem')?.text).toBe('n/a');
  });
});

describe('cards', () => {
  it('copies exactly what goodput cards prints', () => {
    expect(cardsJson(fx.result.cards)).toBe(JSON.stringify(fx.result.cards, null, 2) + '\n');
  });
  it('names each value with its statistic and provenance; cost only with an hourly cost', () => {
    const [model, engine, platform] = cardViews(fx.result.cards);
    expect(model?.facts.map((f) => f.note)).toEqual(['mean of per-request at concurrency 1 · measured', 'p50 · measured', 'p50 · measured']);
    expect(engine?.facts[0]?.label).toBe('Peak throughput');
    expect(platform?.facts.find((f) => f.label === 'Cost per 1M output tokens')?.note).toBe('derived');
    const noCost = cardViews({
      ...fx.result.cards,
      platform: { ...fx.result.cards.platform, hourlyCostUsd: null, costPer1MOutputTokensUsd: null, savingPct: null },
    });
    expect(noCost[2]?.facts.some((f) => f.label === 'Cost per 1M output tokens')).toBe(false);
  });
});

describe('form rules', () => {
  it('match the limits in core (kept apart so the page bundle does not pull in core and zod)', () => {
    expect([FORM_MAX_LEVELS, FORM_MAX_CONCURRENCY, FORM_SHORT, FORM_MAX_OUTPUT_TOKENS]).toEqual([
      MAX_LEVELS,
      MAX_CONCURRENCY,
      SHORT_OUTPUT_TOKENS,
      MAX_OUTPUT_TOKENS,
    ]);
    expect([FORM_MAX_EMBEDDING_BATCH, FORM_MAX_RERANK_DOCUMENTS, FORM_MAX_ITEM_TOKENS, FORM_MAX_REQUESTS_PER_LEVEL]).toEqual([
      LIMITS.embeddingBatch.max,
      LIMITS.rerankDocuments.max,
      LIMITS.promptTokens.max,
      LIMITS.requestsPerLevel.max,
    ]);
    expect([parseRequestsPerLevel(''), parseRequestsPerLevel(' Auto '), parseRequestsPerLevel('64')]).toEqual([
      { ok: true, value: 'auto' },
      { ok: true, value: 'auto' },
      { ok: true, value: 64 },
    ]);
    expect(parseRequestsPerLevel('0')).toEqual({ ok: false, message: 'Requests per level must be a positive whole number, e.g. 64, or blank for auto.' });
    expect(parseRequestsPerLevel('20001')).toEqual({ ok: false, message: 'Requests per level must be at most 20000.' });
    expect(parseCount('Inputs per request', '16', FORM_MAX_EMBEDDING_BATCH, 16)).toEqual({ ok: true, value: 16 });
    expect(parseCount('Inputs per request', '0', FORM_MAX_EMBEDDING_BATCH, 16)).toEqual({
      ok: false,
      message: 'Inputs per request must be a positive whole number, e.g. 16.',
    });
    expect(parseCount('Documents per query', '1025', FORM_MAX_RERANK_DOCUMENTS, 32)).toEqual({
      ok: false,
      message: 'Documents per query must be at most 1024.',
    });
  });
  it('parse levels with commas or spaces and say what is wrong', () => {
    expect(parseLevelsText('1, 2 4,8')).toEqual({ ok: true, value: [1, 2, 4, 8] });
    expect(parseLevelsText('')).toEqual({ ok: false, message: 'Give at least one concurrency level, e.g. 1, 2, 4, 8.' });
    expect(parseLevelsText('1, 0')).toEqual({ ok: false, message: '“0” is not a positive integer. Levels look like 1, 2, 4, 8.' });
    expect(parseLevelsText('2.5')).toMatchObject({ ok: false, message: expect.stringMatching(/“2.5” is not a positive integer/) });
    expect(parseLevelsText('9000')).toMatchObject({ ok: false, message: '9000 is above the largest level, 4096.' });
    expect(parseLevelsText(Array.from({ length: 65 }, () => '1').join(','))).toMatchObject({ ok: false, message: '65 levels is more than 64.' });
  });
  it('check output tokens and money, and warn below 128 tokens', () => {
    expect(parseOutputTokens('256')).toEqual({ ok: true, value: 256 });
    expect(parseOutputTokens('abc')).toMatchObject({ ok: false, message: expect.stringMatching(/positive whole number/) });
    expect(shortOutputWarning(64)).toMatch(/64 output tokens is below 128/);
    expect(shortOutputWarning(256)).toBeNull();
    expect(parseMoney('Hourly cost', '', { positive: false })).toEqual({ ok: true, value: null });
    expect(parseMoney('Hourly cost', '$6.50', { positive: false })).toEqual({ ok: true, value: 6.5 });
    expect(parseMoney('Baseline rate', '0', { positive: true })).toEqual({ ok: false, message: 'Baseline rate must be greater than 0.' });
  });
});

describe('clients and workers', () => {
  const share = (label: string, o: Partial<NonNullable<LevelResult['shares']>[number]> = {}) => ({
    label,
    requests: 8,
    bound: false,
    reason: null,
    clientCpuPct: 12.4,
    loopDelayMs: { p50: 0.5, p99: 1.234, max: 2 },
    sendLatenessMs: { p50: 0.2, p99: 3.456, max: 4 },
    clockOffsetNs: 0,
    clockToDb: null,
    lost: null,
    ...o,
  });
  it('lists each split level’s clients with their own verdict: ok, client-bound or lost', () => {
    const [one] = levels as [LevelResult];
    const split: LevelResult = {
      ...one,
      concurrency: 6,
      shares: [
        share('worker a', { clockToDb: { offsetMs: -2000.123, uncertaintyMs: 0.8 } }),
        share('worker b', { bound: true, reason: 'the client was busy 85 % of one core (limit 70 %)' }),
        share('worker c', { lost: 'worker c stopped answering mid-level (not seen for 3 s)', requests: 3 }),
      ],
    };
    const rows = clientRows([one, split]);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toEqual([split.load?.label ?? '6 streams', 'worker a', '8', '12', '1.23', '3.46', '-2,000.12 ±0.80', 'ok']);
    expect(rows[1]?.[7]).toBe('client-bound: the client was busy 85 % of one core (limit 70 %)');
    expect(rows[2]?.[7]).toMatch(/^lost: worker c stopped answering/);
    expect(rows[0]).toHaveLength(CLIENT_HEADERS.length);
  });
  it('shows a live worker idle or with the level and share it sends', () => {
    const rows = workerRows([
      { name: 'w1', host: 'gpu-box', cores: 8, share: null, clockOffsetMs: 0.42, seenMsAgo: 120 },
      { name: 'w2', host: 'gpu-box-2', cores: 16, share: 'ab12/64/1', clockOffsetMs: -1.5, seenMsAgo: 480 },
    ]);
    expect(rows).toEqual([
      ['w1', 'gpu-box', '8', 'idle', '+0.42', '0.1 s ago'],
      ['w2', 'gpu-box-2', '16', 'level 64, share 2', '-1.50', '0.5 s ago'],
    ]);
    expect(rows[0]).toHaveLength(WORKER_HEADERS.length);
  });
});
