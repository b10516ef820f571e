import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { contract, level, resultOf } from '../../test-support/receipt-fixture.js';
import { disaggFixture } from '../../test-support/server-parts.js';
import { DISAGG_KV_HEADERS, DISAGG_ROLE_HEADERS, disaggKvRows, disaggRoleRows, reportHtml, reportMarkdown } from './index.js';

const disagg = disaggFixture();
const figures = { tokS: 100, perReq: 50, ttft: [40, 60] as [number, number], tpot: 10, e2e: 700 };
const levels = [level({ c: 1, ...figures }), { ...level({ c: 4, ...figures }), disagg }];

describe("a disaggregated server's pools in the views", () => {
  it('is one row per pool per level that has them, and one KV and TTFT row per such level', () => {
    expect(disaggRoleRows(levels)).toEqual([
      ['4 streams', 'prefill', '2', '2,000', '1,000', '—', '—', '12.5', '40.0', '8', ''],
      ['4 streams', 'decode', '—', '—', '—', '3,000', '—', '—', '—', '—', ''],
      ['4 streams', 'router', '—', '—', '—', '—', '—', '—', '—', '—', 'not found at the start: HTTP 404'],
    ]);
    expect(disaggKvRows(levels)).toEqual([['4 streams', '250.00', '8', '31.25', '1.000', '8.000', '100', '120.0', '12.5', '40.0', '31.25', '36.3']]);
    expect(disaggRoleRows([level({ c: 1, ...figures })])).toEqual([]);
    expect(disaggKvRows([{ ...level({ c: 1, ...figures }), disagg: { ...disagg, kvTransfer: null, ttftSplit: null } }])).toEqual([]);
  });

  it('appears in the report (HTML and Markdown) only where a level has pools', () => {
    const result = resultOf(contract({ label: 'pools' }), levels);
    const input = { runs: [{ label: 'pools', result }], generator: '0.1.0', generatedAt: '2026-06-04T10:00:00.000Z' };
    const doc = parseHTML('<!doctype html><html><body></body></html>').document as never;
    const html = parseHTML(reportHtml(input, doc, '')).document;
    const tables = [...html.querySelectorAll('table')].map((t) => t.textContent ?? '');
    expect(tables.find((t) => t.includes('Prefill mean (ms)'))).toContain('not found at the start: HTTP 404');
    expect(tables.find((t) => t.includes('Gbit/s while transferring'))).toContain('250.00');
    const md = reportMarkdown(input);
    expect(md).toContain(`| ${DISAGG_ROLE_HEADERS.join(' | ')} |`);
    expect(md).toContain(`| ${DISAGG_KV_HEADERS.join(' | ')} |`);
    expect(md).toContain('| 4 streams | prefill | 2 | 2,000 | 1,000 |');
    const plain = resultOf(contract({ label: 'plain' }), [level({ c: 1, ...figures })]);
    expect(reportMarkdown({ ...input, runs: [{ label: 'plain', result: plain }] })).not.toContain('Disaggregated pools');
  });
});
