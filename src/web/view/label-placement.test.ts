import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { anyOverlap, placeLabels } from './label-placement.js';
import { paretoOf, renderPareto } from './index.js';

describe('placeLabels', () => {
  it('keeps labels of crowded points apart, inside the chart and off every point', () => {
    // Twelve points a few pixels apart, as three runs' levels that nearly coincide are.
    const points = Array.from({ length: 12 }, (_, i) => ({ px: 200 + (i % 4) * 6, py: 150 + Math.floor(i / 4) * 5 }));
    const labels = points.map((p, i) => ({ ...p, text: i % 3 === 0 ? 'client-bound' : String(2 ** (i % 5)), fontSize: 10 }));
    const naive = labels.map((l, index) => ({ ...l, index, x: l.px, y: l.py - 9, anchor: 'middle' as const }));
    expect(anyOverlap(naive)).toBe(true);
    const placed = placeLabels(labels, points, { x0: 0, y0: 0, x1: 640, y1: 300 });
    expect(anyOverlap(placed)).toBe(false);
    expect(placed.length).toBeGreaterThanOrEqual(8);
    for (const l of placed) {
      expect(l.x).toBeGreaterThanOrEqual(0);
      expect(l.x).toBeLessThanOrEqual(640);
      // Never on a point: no label's text box holds any point's centre.
      for (const p of points)
        expect(l.y < p.py - 4 || l.y - l.fontSize > p.py + 4 || (l.anchor === 'start' ? l.x > p.px + 4 : l.anchor === 'end' ? l.x < p.px - 4 : true)).toBe(
          true,
        );
    }
  });

  it("draws the Pareto chart's client-bound ring in its run's colour, and no two labels at one spot", () => {
    const level = (level: number, x: number, y: number, clientBound = false) => ({ level, perRequestTokS: x, throughputTokS: y, invalid: false, clientBound });
    // Three runs whose levels nearly coincide: the labels used to sit on one another.
    const m = paretoOf(
      [0, 1, 2].map((i) => ({
        label: `run ${i + 1}`,
        gpus: null,
        hourlyCostUsd: null,
        levels: [level(1, 100 + i, 100 + i), level(2, 90 + i, 180 + i), level(4, 70 + i, 300 + i, true)],
      })),
    );
    const svg = renderPareto(m, { document: parseHTML('<!doctype html><html><body></body></html>').document as never }).outerHTML;
    // Each ring (r 7) sits in a group stroked with its run's colour.
    const rings = [...svg.matchAll(/<g[^>]*stroke="([^"]+)"[^>]*aria-label="dot"><circle r="7"/g)].map((g) => g[1]);
    expect(rings).toEqual(['#6b7280', '#1d4ed8', '#047857']);
    const spots = [...svg.matchAll(/aria-label="text"><text transform="translate\(([\d.,-]+)\)"/g)].map((t) => t[1]);
    expect(spots.length).toBeGreaterThanOrEqual(9);
    expect(new Set(spots).size).toBe(spots.length);
  });
});
