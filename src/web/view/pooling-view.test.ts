/**
 * The pooling kind's view drawn by the page's shared renderers: its columns
 * follow what the run had (the dimension for embeddings, a cost, an
 * objective), a failed level is marked in the one table renderer, and its
 * Engine and Latency cards come out of the same card markup as a text run's.
 */
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { type PoolingLevel, type PoolingRecord, poolingLevel } from '../../core/index.js';
import type { PoolingRunSpec } from '../../store/index.js';
import { cardsMarkup, kindTableMarkup, num, poolingCaption, poolingCardViews, poolingColumns } from './index.js';

const rec = (seq: number, endMs: number, ok = true): PoolingRecord => ({
  seq,
  concurrency: 1,
  warmup: false,
  sentNs: 0,
  endNs: endMs * 1e6,
  items: 4,
  inputTokens: 64,
  dimension: 32,
  outcome: ok ? { kind: 'ok' } : { kind: 'http-error', status: 500, message: 'boom' },
});
const load = { loopDelayMs: { p50: 1, p99: 1, max: 1 }, clientCpuPct: null, budgetMs: 10 };
const levels: PoolingLevel[] = [
  poolingLevel(1, [rec(1, 100), rec(2, 120)], 2, { p: 95, maxMs: 500 }, load),
  { ...poolingLevel(2, [rec(1, 100), rec(2, 100, false)], 2, { p: 95, maxMs: 500 }, load), concurrency: 2 },
];
const spec = (over: Partial<PoolingRunSpec> = {}): PoolingRunSpec => ({
  url: 'http://127.0.0.1:1',
  model: null,
  endpoint: 'embeddings',
  levels: [1, 2],
  itemsPerRequest: 4,
  itemTokens: 16,
  queryTokens: null,
  requestsPerLevel: 2,
  warmup: 0,
  seed: 1,
  hourlyCostUsd: 2,
  latencySlo: { p: 95, maxMs: 500 },
  command: 'goodput sweep',
  ...over,
});
const dom = (html: string) => parseHTML(`<!doctype html><html><body>${html}</body></html>`).document;
const table = (s: PoolingRunSpec) => dom(kindTableMarkup(poolingCaption(s), poolingColumns(s), levels).html);
const headers = (s: PoolingRunSpec) => [...table(s).querySelectorAll('thead th')].map((th) => th.textContent);

describe('the pooling view on the shared table', () => {
  it('has the columns the run had: the dimension for embeddings, the cost with an hourly rate, the objective with one', () => {
    expect(headers(spec())).toEqual([
      'Concurrency',
      'Requests/s',
      'Inputs/s',
      'Input tok/s',
      'Latency p50 (ms)',
      'p95 (ms)',
      'p99 (ms)',
      'Dimension',
      '$/1M input tok',
      'Failed',
      'SLO p95 ≤ 500 ms',
    ]);
    expect(headers(spec({ endpoint: 'rerank', queryTokens: 8, hourlyCostUsd: null, latencySlo: null }))).toEqual([
      'Concurrency',
      'Requests/s',
      'Documents/s',
      'Input tok/s',
      'Latency p50 (ms)',
      'p95 (ms)',
      'p99 (ms)',
      'Failed',
    ]);
  });

  it('marks a level with failed requests and says it in the Failed cell; the objective is text, the rest numbers', () => {
    const d = table(spec());
    expect(d.querySelector('caption')?.textContent).toBe(
      'Per level, embeddings: 4 inputs of 16 tokens per request. Latency is send to the whole answer; a level with failed requests is left out of the peak.',
    );
    const rows = [...d.querySelectorAll('tbody tr')];
    expect(rows.map((r) => r.getAttribute('class'))).toEqual(['', 'invalid']);
    expect(rows[1]?.querySelector('strong.alarm')?.textContent).toBe('⚠ 1/2');
    expect(rows[0]?.querySelector('th')?.textContent).toBe('1');
    expect([...(rows[0]?.querySelectorAll('td') ?? [])].map((td) => td.className)).toEqual([...Array<string>(9).fill('num'), '']);
    expect(rows[0]?.querySelectorAll('td')[1]?.textContent).toBe(num(levels[0]?.itemsPerS));
  });

  it('draws its Engine and Latency cards with the text run card markup', () => {
    const d = dom(cardsMarkup(poolingCardViews(levels, 'embeddings')).html);
    expect([...d.querySelectorAll('section.card h4')].map((h) => h.textContent)).toEqual(['Engine', 'Latency']);
    const facts = [...d.querySelectorAll('section.card')].map((c) => [...c.querySelectorAll('dt')].map((dt) => dt.textContent));
    expect(facts).toEqual([
      ['Peak inputs/s', 'Input tok/s at the peak', 'At concurrency', 'Basis'],
      ['p50', 'p95', 'p99', 'At concurrency'],
    ]);
    expect(d.querySelector('section.card div.basis dd')?.textContent).toMatch(/^levels without failures \(left out: 2, /);
  });
});
