import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import type { TargetLevel } from '../../core/index.js';
import { contract, level, resultOf } from '../../test-support/receipt-fixture.js';
import { FLEET_HEADERS, fleetRows, reportHtml, reportMarkdown } from './index.js';

const target = (url: string, tokS: number, ttft: number): TargetLevel => ({
  url,
  requests: 8,
  succeeded: 8,
  failed: 0,
  outputTokensTotal: 256,
  throughputTokS: tokS,
  ttftMs: { p50: ttft, p99: ttft * 2 },
  e2eMs: { p50: 700, p99: 900 },
});
const figures = { tokS: 100, perReq: 50, ttft: [40, 60] as [number, number], tpot: 10, e2e: 700 };
const levels = [{ ...level({ c: 4, ...figures }), targets: [target('http://a:8000', 75, 40), target('http://b:8000', 25, 160)] }];

describe('a fleet in the views', () => {
  it("is one row per level and target, each target's share of the level's throughput beside its latency", () => {
    expect(fleetRows(levels)).toEqual([
      ['4 streams', 'http://a:8000', '8', '0', '75.0', '75.0 %', '40.0', '80.0', '700.0'],
      ['4 streams', 'http://b:8000', '8', '0', '25.0', '25.0 %', '160.0', '320.0', '700.0'],
    ]);
    expect(fleetRows([level({ c: 1, ...figures })])).toEqual([]);
  });

  it('appears in the report (HTML and Markdown) only for a fleet run', () => {
    const result = resultOf(contract({ label: 'fleet' }), levels);
    const input = { runs: [{ label: 'fleet', result }], generator: '0.1.0', generatedAt: '2026-06-04T10:00:00.000Z' };
    const doc = parseHTML('<!doctype html><html><body></body></html>').document as never;
    const html = parseHTML(reportHtml(input, doc, '')).document;
    const table = [...html.querySelectorAll('table')].find((t) => t.textContent?.includes('Throughput tok/s') && t.textContent.includes('http://b:8000'));
    expect(table?.textContent).toContain('25.0 %');
    expect(reportMarkdown(input)).toContain(`| ${FLEET_HEADERS.join(' | ')} |`);
    expect(reportMarkdown(input)).toContain('| 4 streams | http://b:8000 | 8 | 0 | 25.0 | 25.0 % | 160.0 | 320.0 | 700.0 |');
    const plain = resultOf(contract({ label: 'plain' }), [level({ c: 1, ...figures })]);
    expect(reportMarkdown({ ...input, runs: [{ label: 'plain', result: plain }] })).not.toContain('By target');
  });
});
