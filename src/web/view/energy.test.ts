/**
 * The Energy table of the page and the report: per-token figures with the window,
 * readings, interval and coverage for a valid level; for a level that is not
 * valid, no per-token figure, only why. A result without energy has no table.
 */
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import type { EnergyLevel, LevelResult } from '../../core/index.js';
import { contract, level, resultOf } from '../../test-support/receipt-fixture.js';
import { ENERGY_HEADERS, energyRows, reportHtml, reportMarkdown } from './index.js';

const spec = { tokS: 100, perReq: 50, ttft: [40, 60] as [number, number], tpot: 10, e2e: 700 };
const valid: EnergyLevel = {
  source: 'nvidia-smi',
  valid: true,
  reason: null,
  windowMs: 2000,
  samples: 11,
  outside: 7,
  intervalMs: 200,
  coverage: 1,
  method: 'power',
  joules: 600,
  meanPowerW: 300,
  outputTokens: 100,
  inputTokens: 400,
  joulesPerOutputToken: 6,
  joulesPerInputToken: 1.5,
  joulesPerTotalToken: 1.2,
};
const gap = 'no reading from 400 ms to 1.60 s into the window (1.20 s, more than 3 × the 200 ms interval)';
const invalid: EnergyLevel = {
  ...valid,
  valid: false,
  reason: gap,
  samples: 6,
  joules: null,
  meanPowerW: null,
  joulesPerOutputToken: null,
  joulesPerInputToken: null,
  joulesPerTotalToken: null,
};
const levels: LevelResult[] = [
  { ...level({ c: 1, ...spec }), energy: valid },
  { ...level({ c: 2, ...spec }), energy: invalid },
];

describe('energyRows', () => {
  it('gives a valid level its per-token figures and how they were sampled, and an invalid one only why', () => {
    expect(ENERGY_HEADERS).toHaveLength(10);
    expect(energyRows(levels)).toEqual([
      ['1 streams', 'nvidia-smi', '2.00', '11 (7)', '0.20', '100', '6.000', '1.5000', '1.2000', 'valid (trapezoids over power readings)'],
      ['2 streams', 'nvidia-smi', '2.00', '6 (7)', '0.20', '100', '—', '—', '—', `energy not valid: ${gap}`],
    ]);
  });
  it('has no row for a level without energy (a result of an earlier version)', () => {
    expect(energyRows([level({ c: 1, ...spec })])).toEqual([]);
  });
});

describe('the report', () => {
  const input = (ls: LevelResult[]) => ({
    runs: [{ label: 'run 1', result: resultOf(contract({ label: 'H100' }), ls) }],
    generator: '0.1.0',
    generatedAt: '2026-06-04T10:00:00.000Z',
  });
  const doc = () => parseHTML('<!doctype html><html><body></body></html>').document as never;

  it('shows the Energy table, with "energy not valid" and the gap for the level that has one', () => {
    const parsed = parseHTML(reportHtml(input(levels), doc(), '')).document;
    const table = [...parsed.querySelectorAll('table')].find((t) => t.querySelector('caption')?.textContent?.startsWith('Energy per token'));
    const cells = [...(table?.querySelectorAll('tbody tr') ?? [])].map((r) => [...r.querySelectorAll('th,td')].map((c) => c.textContent));
    expect(cells[1]?.[9]).toBe(`energy not valid: ${gap}`);
    expect(cells[0]?.[6]).toBe('6.000');
    const md = reportMarkdown(input(levels));
    expect(md).toContain('### Energy');
    expect(md).toContain(`| 2 streams | nvidia-smi | 2.00 | 6 (7) | 0.20 | 100 | — | — | — | energy not valid: ${gap} |`);
  });

  it('has no Energy section for a run without energy', () => {
    const plain = [level({ c: 1, ...spec })];
    expect(reportMarkdown(input(plain))).not.toContain('### Energy');
    expect(reportHtml(input(plain), doc(), '')).not.toContain('<h3>Energy</h3>');
  });
});
