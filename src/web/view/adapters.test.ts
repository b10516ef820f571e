/**
 * The LoRA adapters table of the page and the report: one row per adapter of
 * each level, with its requests, failures, throughput and percentiles; in the
 * report's HTML and Markdown; no table for a run without adapters.
 */
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import type { AdapterLevel, LevelResult } from '../../core/index.js';
import { contract, level, resultOf } from '../../test-support/receipt-fixture.js';
import { ADAPTER_CAPTION, ADAPTER_HEADERS, adapterRows, reportHtml, reportMarkdown } from './index.js';

const spec = { tokS: 100, perReq: 50, ttft: [40, 60] as [number, number], tpot: 10, e2e: 700 };
const adapter = (name: string, requests: number, tokS: number): AdapterLevel => ({
  name,
  requests,
  succeeded: requests,
  failed: 0,
  outputTokensTotal: tokS,
  throughputTokS: tokS,
  ttftMs: { p50: 40, p95: 50, p99: 60 },
  tpotMs: { p50: 10, p95: 12 },
});
const levels: LevelResult[] = [{ ...level({ c: 2, ...spec }), adapters: [adapter('chat|lora', 2, 25), adapter('sql-lora', 6, 75)] }];

describe('adapterRows', () => {
  it('gives each adapter of each level its row', () => {
    expect(ADAPTER_HEADERS).toHaveLength(9);
    expect(adapterRows(levels)).toEqual([
      ['2 streams', 'chat|lora', '2', '0', '25.0', '40.0', '60.0', '10.0', '12.0'],
      ['2 streams', 'sql-lora', '6', '0', '75.0', '40.0', '60.0', '10.0', '12.0'],
    ]);
    expect(adapterRows([level({ c: 1, ...spec })])).toEqual([]);
  });

  it("is in the report's HTML and Markdown, a name's pipe escaped, and absent for a run without adapters", () => {
    const input = (ls: LevelResult[]) => ({
      runs: [{ label: 'run 1', result: resultOf(contract({ label: 'H100' }), ls) }],
      generator: '0.1.0',
      generatedAt: '2026-06-04T10:00:00.000Z',
    });
    const doc = () => parseHTML('<!doctype html><html><body></body></html>').document as never;
    const withAdapters = input(levels);
    const parsed = parseHTML(reportHtml(withAdapters, doc(), '')).document;
    const table = [...parsed.querySelectorAll('table')].find((t) => t.querySelector('caption')?.textContent === ADAPTER_CAPTION);
    const cells = [...(table?.querySelectorAll('tbody tr') ?? [])].map((r) => [...r.querySelectorAll('th,td')].map((c) => c.textContent));
    expect(cells).toEqual(adapterRows(levels));
    const md = reportMarkdown(withAdapters);
    expect(md).toContain(`### LoRA adapters\n\n${ADAPTER_CAPTION}\n`);
    expect(md).toContain('| 2 streams | chat\\|lora | 2 | 0 | 25.0 |');
    const plain = input([level({ c: 1, ...spec })]);
    expect(reportHtml(plain, doc(), '')).not.toContain('LoRA adapters');
    expect(reportMarkdown(plain)).not.toContain('LoRA adapters');
  });
});
