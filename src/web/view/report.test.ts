/**
 * The report without a browser: hostile text from a result file is escaped
 * everywhere it lands (no script, no broken markup), the file has no script
 * and a strict policy, and the Markdown form escapes table pipes.
 */
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { contract, level, resultOf } from '../../test-support/receipt-fixture.js';
import { LONG_REASON, MODEL_FILES, threeQuantizations } from '../../test-support/quantization-runs.js';
import { reportHtml, reportMarkdown } from './index.js';

const doc = () => parseHTML('<!doctype html><html><body></body></html>').document as never;
const spec = { tokS: 100, perReq: 50, ttft: [40, 60] as [number, number], tpot: 10, e2e: 700 };

describe('reportHtml', () => {
  const hostile = '<script>alert(1)</script>|"\'&';
  const result = resultOf(contract({ label: '2× H100' }), [level({ c: 1, ...spec }), level({ c: 2, ...spec, tokS: 180 })]);
  const bad = {
    ...result,
    run: { ...result.run, model: hostile, command: `goodput run ${hostile}` },
    warnings: [{ code: 'x', message: hostile }],
  } as typeof result;
  const input = {
    runs: [
      { label: hostile, result: bad },
      { label: 'run 2', result },
    ],
    generator: '0.1.0',
    generatedAt: '2026-06-04T10:00:00.000Z',
  };

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
    expect(
      md
        .split('\n')
        .filter((l) => l.startsWith('| model'))
        .every((l) => l.split(/(?<!\\)\|/).length === 5),
    ).toBe(true);
  });
});

describe('a report of three quantizations', () => {
  const input = {
    runs: threeQuantizations().map((result, i) => ({ label: `run ${i + 1}`, result })),
    generator: '0.1.0',
    generatedAt: '2026-06-04T10:00:00.000Z',
  };

  it('lists the model file, precision and quantization under What differs, and names each run by them', () => {
    const parsed = parseHTML(reportHtml(input, doc(), '')).document;
    const rows = [...parsed.querySelectorAll('table.diffs tbody tr')].map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));
    expect(rows).toContainEqual(['model file', ...MODEL_FILES]);
    expect(rows).toContainEqual(['precision', 'f32', 'f32', 'f16']);
    expect(rows).toContainEqual(['quantization', 'none', 'Q8_0', 'F16']);
    expect([...parsed.querySelectorAll('table.compare th.group')].map((h) => h.textContent)).toEqual([
      `run 1 · ${MODEL_FILES[0]} · f32 · no quantization (baseline)`,
      `run 2 · ${MODEL_FILES[1]} · f32 · Q8_0`,
      `run 3 · ${MODEL_FILES[2]} · f16 · F16`,
    ]);
    expect(parsed.querySelector('#run-2')?.textContent).toBe(`run 2 · ${MODEL_FILES[1]} · f32 · Q8_0`);
    // A client-bound level is a short badge; its reason is there on demand.
    const status = [...parsed.querySelectorAll('table.compare td.status details.reason')];
    expect(status).toHaveLength(3);
    expect(status[0]?.querySelector('summary')?.textContent).toBe('client-bound');
    expect(status[0]?.querySelector('summary')?.getAttribute('title')).toBe(`client-bound: ${LONG_REASON}`);
    // Nothing is called better or worse at the client-bound level.
    const deltas = [...parsed.querySelectorAll('table.deltas tbody tr')].filter((r) => r.querySelector('th')?.textContent === '4');
    expect(deltas).toHaveLength(2);
    // Said once across the row, whose level it is and why.
    for (const r of deltas)
      expect([...r.querySelectorAll('td')].map((td) => [td.className, td.getAttribute('colspan'), td.textContent])).toEqual([
        ['diff verdict-not-compared', '6', expect.stringMatching(/^not compared: run 1 is client-bound at this level .*; run \d is client-bound/)],
      ]);
  });

  it('says the same in Markdown', () => {
    const md = reportMarkdown(input);
    expect(md).toContain(`| model file | ${MODEL_FILES.join(' | ')} |`);
    expect(md).toContain('| quantization | none | Q8_0 | F16 |');
    expect(md).toContain(`## run 3 · ${MODEL_FILES[2]} · f16 · F16`);
    expect(md).toContain('### Throughput per server against speed per user');
  });
});
