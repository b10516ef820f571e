/** The replay and per-turn charts without a browser: which charts, their summaries, tables and SVG (linkedom). */
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import type { LevelResult } from '../../core/index.js';
import { replayCharts, turnsChart } from './replay-charts.js';

const doc = () => parseHTML('<!doctype html><html><body></body></html>').document as never;
type Point = NonNullable<LevelResult['replaySeries']>[number];
const points = (attainment: boolean): Point[] =>
  [0, 1, 2, 3].map((i) => ({
    atS: i * 0.5,
    arrivals: [2, 6, 1, 1][i] as number,
    inFlight: [1, 5, 3, 0][i] as number,
    tokS: [100, 400, 300, 50][i] as number,
    attainment: attainment ? ([1, 0.5, 1, null][i] as number | null) : null,
  }));

describe('replay charts', () => {
  it('draws arrivals per second, in flight, tok/s and, with SLOs, attainment in percent', () => {
    const charts = replayCharts(points(true));
    expect(charts.map((c) => c.id)).toEqual(['replay-arrivals', 'replay-inFlight', 'replay-tokS', 'replay-attainment']);
    // 6 arrivals in a 0.5 s bucket are 12 requests/s.
    expect(charts[0]?.summary).toBe("Arrivals over the replay's 2.0 s: peak 12.0 requests/s, mean 5.0 requests/s.");
    expect(charts[3]?.table.rows.map((r) => r[1])).toEqual(['100.0', '50.0', '100.0', '—']);
    const svg = charts[2]?.render({ document: doc() });
    expect(svg?.getAttribute('role')).toBe('img');
    expect(svg?.getAttribute('aria-label')).toBe("Output throughput over the replay's 2.0 s: peak 400.0 tok/s, mean 212.5 tok/s.");
  });

  it('leaves attainment out without SLOs, and draws nothing without points', () => {
    expect(replayCharts(points(false)).map((c) => c.id)).toEqual(['replay-arrivals', 'replay-inFlight', 'replay-tokS']);
    expect(replayCharts([])).toEqual([]);
  });
});

describe('TTFT by turn', () => {
  it('says how TTFT moves as the conversation grows, and tabulates every turn', () => {
    const turn = (n: number, p50: number, prompt: number, cached: number) => ({
      turn: n,
      requests: 4,
      succeeded: 4,
      ttftMs: { p50, p95: p50 + 2 },
      tpotMs: { p50: 2, p95: 2 },
      promptTokensMean: prompt,
      cachedPromptTokensMean: cached,
    });
    const chart = turnsChart([turn(1, 6, 30, 0), turn(2, 7.5, 90, 20), turn(3, 8, 150, 80)]);
    expect(chart?.summary).toBe(
      'TTFT p50 is 6.0 ms at turn 1 and 8.0 ms at turn 3, as the conversation grows from 30.0 to 150.0 prompt tokens (mean cached: 0.0 to 80.0).',
    );
    expect(chart?.table.rows[1]).toEqual(['2', '4', '7.5', '9.5', '90', '20']);
    expect(chart?.render({ document: doc() }).getAttribute('aria-label')).toBe(chart?.summary);
    expect(turnsChart([])).toBeNull();
  });
});
