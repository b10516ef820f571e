import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import type { InFlight } from '../../core/index.js';
import { contract, level, resultOf } from '../../test-support/receipt-fixture.js';
import { IN_FLIGHT_HEADERS, inFlightRows, levelBadge, reportHtml, reportMarkdown, resultsTableMarkup, statusText } from './index.js';

const figures = { tokS: 100, perReq: 50, ttft: [40, 60] as [number, number], tpot: 10, e2e: 700 };
const held: InFlight = { median: 64, min: 61, asked: 64, held: 1, samples: 192 };
const short: InFlight = { median: 52, min: 40, asked: 64, held: 52 / 64, samples: 192 };
const open: InFlight = { median: 3.5, min: 1, asked: null, held: null, samples: 20 };
const levels = [level({ c: 1, ...figures }), { ...level({ c: 32, ...figures }), inFlight: held }, { ...level({ c: 64, ...figures }), inFlight: short }];

describe('the load held, in the views', () => {
  it('is one row per level that has it, marked where a closed loop fell below 95 % of C', () => {
    expect(inFlightRows(levels)).toEqual([
      ['32 streams', '64', '64', '61', '100.0 %', '192', 'held'],
      ['64 streams', '64', '52', '40', '81.2 %', '192', 'not held'],
    ]);
    expect(inFlightRows([{ ...level({ c: 2, ...figures }), inFlight: open }])).toEqual([
      ['2 streams', '—', '3.5', '1', '—', '20', 'no concurrency asked (open loop)'],
    ]);
  });

  it('marks the level in the results table: a "not held" badge with its reason; a held level stays ok', () => {
    expect(levelBadge(levels[1] as never)).toEqual({ text: 'ok', tone: 'ok', reason: null });
    expect(levelBadge(levels[2] as never)).toEqual({ text: 'not held', tone: 'warn', reason: statusText(levels[2] as never) });
    expect(statusText(levels[2] as never)).toBe(
      'not held: our client kept 52 of 64 at the median (81 %), 40 at least, over 192 sends, below 95 % of the concurrency asked',
    );
    const doc = parseHTML(`<div>${resultsTableMarkup({ levels, caption: 'c' }).html}</div>`).document;
    expect([...doc.querySelectorAll('.badge.warn')].map((b) => b.textContent)).toEqual(['not held']);
  });

  it('appears in the report (HTML and Markdown) only where a level has it', () => {
    const result = resultOf(contract({ label: 'held' }), levels);
    const input = { runs: [{ label: 'held', result }], generator: '0.1.0', generatedAt: '2026-06-04T10:00:00.000Z' };
    const doc = parseHTML('<!doctype html><html><body></body></html>').document as never;
    const html = parseHTML(reportHtml(input, doc, '')).document;
    const table = [...html.querySelectorAll('table')].find((t) => t.textContent?.includes(IN_FLIGHT_HEADERS[2]));
    expect(table?.textContent).toContain('not held');
    expect(reportMarkdown(input)).toContain(`| ${IN_FLIGHT_HEADERS.join(' | ')} |\n| --- | --- | --- | --- | --- | --- | --- |\n| 32 streams | 64 | 64 | 61 |`);
    const plain = resultOf(contract({ label: 'plain' }), [level({ c: 1, ...figures })]);
    expect(reportMarkdown({ ...input, runs: [{ label: 'plain', result: plain }] })).not.toContain('Load held');
  });
});
