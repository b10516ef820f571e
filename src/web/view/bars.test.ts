/**
 * Bar charts and the share card without a browser (linkedom): baseline first,
 * bars from zero carrying their values, one unit and the direction in the
 * subtitle, a missing value said rather than drawn; the share card's text.
 */
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { type BarChartInput, COLORS, SHARE_HEIGHT, SHARE_WIDTH, barChart, barSubtitle, barSummary, shareCardSvg } from './index.js';

const doc = () => parseHTML('<!doctype html><html><body></body></html>').document as never;
const input: BarChartInput = {
  label: 'TTFT',
  unit: 'ms',
  statistic: 'p50 at concurrency 1',
  direction: 'lower',
  digits: 1,
  bars: [
    { label: 'optimized', role: 'candidate', value: 30 },
    { label: 'baseline', role: 'baseline', value: 40 },
  ],
};

describe('barChart', () => {
  it('draws the baseline first and grey, from zero, each bar with its value, as an image with a summary', () => {
    const svg = barChart(input, { document: doc() });
    expect(svg.getAttribute('role')).toBe('img');
    expect(svg.getAttribute('aria-label')).toBe('TTFT (p50 at concurrency 1) by configuration; baseline: 40.0 ms; optimized: 30.0 ms.');
    const rects = [...svg.querySelectorAll('g[aria-label="bar"] rect')];
    expect(rects.map((r) => r.getAttribute('fill'))).toEqual([COLORS.baseline, COLORS.accent]);
    const y = rects.map((r) => Number(r.getAttribute('y')));
    expect(y[0]).toBeLessThan(y[1] as number);
    const x = rects.map((r) => Number(r.getAttribute('x')));
    expect(x[0]).toBe(x[1]);
    const texts = [...svg.querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toEqual(expect.arrayContaining(['40.0', '30.0', '0', 'TTFT (ms)']));
    expect(barSubtitle(input)).toBe('ms · p50 at concurrency 1 · lower is better');
  });

  it('says "not recorded" for a missing value instead of drawing a bar', () => {
    const missing: BarChartInput = {
      ...input,
      bars: [
        { label: 'baseline', role: 'baseline', value: null },
        { label: 'optimized', role: 'candidate', value: 30 },
      ],
    };
    const svg = barChart(missing, { document: doc() });
    expect(svg.querySelectorAll('g[aria-label="bar"] rect')).toHaveLength(1);
    expect([...svg.querySelectorAll('text')].map((t) => t.textContent)).toContain('not recorded');
    expect(barSummary(missing)).toBe('TTFT (p50 at concurrency 1) by configuration; baseline: not recorded; optimized: 30.0 ms.');
  });
});

describe('shareCardSvg', () => {
  it("is 1200×630 with each stat's value, statistic, provenance and configuration, in the given font, without CSS variables", () => {
    const svg = shareCardSvg(
      {
        title: 'm · GPU',
        subtitle: 'FP8 · measured 2026-06-03',
        footer: ['quality: 1.0 = no detected degradation', 'baseline: bf16'],
        stats: [
          {
            label: 'Peak throughput',
            value: '360.0',
            unit: 'tok/s',
            statistic: 'peak over the valid levels tested',
            provenance: 'measured',
            configuration: 'optimized: fp8',
            change: '+100 %, better',
          },
        ],
      },
      'Inter',
    );
    expect(svg).toContain(`width="${SHARE_WIDTH}" height="${SHARE_HEIGHT}"`);
    for (const t of [
      '360.0 tok/s',
      'peak over the valid levels tested, measured',
      'optimized: fp8',
      '+100 %, better',
      'font-family="Inter"',
      'quality: 1.0 = no detected degradation',
    ])
      expect(svg).toContain(t);
    expect(svg).not.toContain('var(');
  });

  it('wraps a long configuration identity onto a second line rather than cutting it', () => {
    const identity = 'optimized: neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8, bf16, fp8 quantization, vllm 0.9.1';
    const svg = shareCardSvg(
      {
        title: 't',
        subtitle: 's',
        footer: [],
        stats: [
          {
            label: 'Peak throughput',
            value: '360.0',
            unit: 'tok/s',
            statistic: 'peak over the valid levels tested',
            provenance: 'measured',
            configuration: identity,
            change: null,
          },
        ],
      },
      'Inter',
    );
    const lines = [...svg.matchAll(/<text[^>]*fill="#1d4ed8">([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(lines).toEqual(['optimized: neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8,', 'bf16, fp8 quantization, vllm 0.9.1']);
    expect(lines.every((l) => (l ?? '').length <= 54)).toBe(true);
  });
});
