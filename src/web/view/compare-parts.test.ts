import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { contract, level, resultOf } from '../../test-support/receipt-fixture.js';
import { FLEET_URLS, disaggFixture, targetsFixture } from '../../test-support/server-parts.js';
import { reportHtml, reportMarkdown } from './index.js';

const figures = { tokS: 100, perReq: 50, ttft: [40, 60] as [number, number], tpot: 10, e2e: 700 };
const fleet = resultOf(contract({ label: 'fleet' }), [{ ...level({ c: 4, ...figures }), targets: targetsFixture() }]);
fleet.run = { ...fleet.run, fleet: { urls: FLEET_URLS, route: 'round-robin' } };
const pools = resultOf(contract({ label: 'pools' }), [{ ...level({ c: 4, ...figures }), disagg: disaggFixture() }]);
const input = {
  runs: [
    { label: 'pools', result: pools },
    { label: 'fleet', result: fleet },
  ],
  generator: '0.1.0',
  generatedAt: '2026-06-04T10:00:00.000Z',
};

describe("a comparison's pools and fleet targets in goodput report", () => {
  it('are two tables of the HTML comparison, with their notes', () => {
    const doc = parseHTML('<!doctype html><html><body></body></html>').document as never;
    const page = parseHTML(reportHtml(input, doc, '')).document;
    const section = page.querySelector('section.compare-view');
    const heads = [...(section?.querySelectorAll('h3') ?? [])].map((h) => h.textContent);
    expect(heads).toContain('Disaggregated pools');
    expect(heads).toContain('Fleet targets');
    const cells = (cls: string) => [...(section?.querySelectorAll(`table.${cls} tbody td`) ?? [])].map((td) => td.textContent);
    expect(cells('pools')).toEqual([
      '2,000 (1,000 per GPU)',
      '3,000',
      '1.000 / 8.000 (of 100)',
      '12.5 + 40.0 + 31.3 + 36.3 (of 120.0)',
      'not disaggregated',
      '—',
      '—',
      '—',
    ]);
    expect(cells('fleet-targets')).toEqual(['one server', '—', '—', '—', '3 / 3 / 2', '0 / 0 / 0', '40.0 / 40.0 / 20.0', '20.0 / 20.0 / 80.0']);
    const notes = [...(section?.querySelectorAll('ul.fleet-targets-notes li') ?? [])].map((li) => li.textContent);
    expect(notes).toEqual([
      `fleet: 3 targets routed round-robin, in this order: ${FLEET_URLS.join(', ')}`,
      'fleet at concurrency 4: http://10.0.0.3:8000 is slow: TTFT p50 80.0 ms against 20.0 ms on the others (4.0×)',
    ]);
    expect(section?.querySelector('ul.pools-notes')?.textContent).toContain('the router pool has no figures: not found at the start: HTTP 404');
  });

  it('are two Markdown tables with their notes', () => {
    const md = reportMarkdown(input);
    const at = md.indexOf('### Disaggregated pools');
    expect(at).toBeGreaterThan(md.indexOf('### Differences from pools'));
    expect(md.indexOf('### Fleet targets')).toBeGreaterThan(at);
    expect(md).toMatch(
      /\| 4 \| 2,000 \(1,000 per GPU\) \| 3,000 \| 1\.000 \/ 8\.000 \(of 100\) \| 12\.5 \+ 40\.0 \+ 31\.3 \+ 36\.3 \(of 120\.0\) \| not disaggregated \| — \| — \| — \|/,
    );
    expect(md).toContain('| 4 | one server | — | — | — | 3 / 3 / 2 | 0 / 0 / 0 | 40.0 / 40.0 / 20.0 | 20.0 / 20.0 / 80.0 |');
    expect(md).toContain('- fleet at concurrency 4: http://10.0.0.3:8000 is slow: TTFT p50 80.0 ms against 20.0 ms on the others (4.0×)');
  });
});
