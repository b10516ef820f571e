import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import type { SpecDecode } from '../../core/index.js';
import { contract, level, resultOf } from '../../test-support/receipt-fixture.js';
import { SPEC_DECODE_HEADERS, reportHtml, reportMarkdown, specDecodeRows } from './index.js';

const spec: SpecDecode = {
  source: 'vllm-counters',
  acceptanceLength: 2.77,
  acceptanceRate: 0.4425,
  perPosition: [0.7, 0.49, 0.34, 0.24],
  counters: { drafts: 100, draftTokens: 400, acceptedTokens: 177 },
  client: { tokensPerChunk: 2.75, chunks: 1000, exact: true },
  agrees: true,
};
const figures = { tokS: 100, perReq: 50, ttft: [40, 60] as [number, number], tpot: 10, e2e: 700 };
const levels = [level({ c: 1, ...figures }), { ...level({ c: 4, ...figures }), specDecode: spec }];

describe('speculative decoding in the views', () => {
  it('is one row per level that has it, in the table the page and the report share', () => {
    expect(specDecodeRows(levels)).toEqual([['4 streams', '2.77', '0.443', '0.70 0.49 0.34 0.24', '2.75', 'vllm:spec_decode_* counters', 'yes']]);
    expect(specDecodeRows([level({ c: 1, ...figures })])).toEqual([]);
  });

  it('appears in the report (HTML and Markdown) only where a level has it', () => {
    const result = resultOf(contract({ label: 'spec' }), levels);
    const input = { runs: [{ label: 'spec', result }], generator: '0.1.0', generatedAt: '2026-06-04T10:00:00.000Z' };
    const doc = parseHTML('<!doctype html><html><body></body></html>').document as never;
    const html = parseHTML(reportHtml(input, doc, '')).document;
    const table = [...html.querySelectorAll('table')].find(
      (t) => t.querySelector('th')?.textContent === SPEC_DECODE_HEADERS[0] && t.textContent?.includes('Acceptance length'),
    );
    expect(table?.textContent).toContain('0.70 0.49 0.34 0.24');
    expect(reportMarkdown(input)).toContain(
      `| ${SPEC_DECODE_HEADERS.join(' | ')} |\n| --- | --- | --- | --- | --- | --- | --- |\n| 4 streams | 2.77 | 0.443 |`,
    );
    const plain = resultOf(contract({ label: 'plain' }), [level({ c: 1, ...figures })]);
    expect(reportMarkdown({ ...input, runs: [{ label: 'plain', result: plain }] })).not.toContain('Speculative decoding');
  });
});
