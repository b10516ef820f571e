/**
 * The report without a browser: hostile text from a result file is escaped
 * everywhere it lands (no script, no broken markup), the file has no script
 * and a strict policy, and the Markdown form escapes table pipes.
 */
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { contract, level, resultOf } from '../../test-support/receipt-fixture.js';
import { reportHtml, reportMarkdown } from './index.js';

const doc = () => parseHTML('<!doctype html><html><body></body></html>').document as never;
const spec = { tokS: 100, perReq: 50, ttft: [40, 60] as [number, number], tpot: 10, e2e: 700 };

describe('reportHtml', () => {
  const hostile = '<script>alert(1)</script>|"\'&';
  const result = resultOf(contract({ label: '2× H100' }), [level({ c: 1, ...spec }), level({ c: 2, ...spec, tokS: 180 })]);
  const bad = { ...result, run: { ...result.run, model: hostile, command: `goodput run ${hostile}` }, warnings: [{ code: 'x', message: hostile }] } as typeof result;
  const input = { runs: [{ label: hostile, result: bad }, { label: 'run 2', result }], generator: '0.1.0', generatedAt: '2026-06-04T10:00:00.000Z' };

  it('escapes every string a result file carries, and carries no script', () => {
    const html = reportHtml(input, doc(), 'body{color:#111}</style><script>x()</script>');
    // Parsed as a browser would: no script element anywhere (text stays text, in content and in attributes).
    const parsed = parseHTML(html).document;
    expect(parsed.querySelectorAll('script')).toHaveLength(0);
    // The run is named by what sets it apart, here its model: hostile too, escaped in both places.
    expect(parsed.querySelector('#run-1')?.textContent).toBe(`${hostile} · ${hostile}`);
    expect(parsed.querySelector('ul.warnings li')?.textContent).toBe(`Warning: ${hostile}`);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`);
    // A stylesheet cannot close its own element early: what would have been a script stays inside it as text.
    expect(parsed.querySelector('head style')?.textContent).toContain('<\\/style><script>x()</script>');
  });

  it('draws every chart inline: the comparison and each run', () => {
    const html = reportHtml(input, doc(), '');
    expect(html.match(/<figure class="chart">/g)).toHaveLength(4 + 2 * 4);
    expect(html.match(/<svg[^>]*role="img"/g)).toHaveLength(4 + 2 * 4);
    expect(html).toContain('Output tok/s per GPU');
  });

  it('keeps Markdown tables whole when a value holds a pipe', () => {
    const md = reportMarkdown(input);
    expect(md).toContain('\\|');
    expect(md.split('\n').filter((l) => l.startsWith('| model')).every((l) => l.split(/(?<!\\)\|/).length === 5)).toBe(true);
  });
});
