// Say only what was measured: a change is better or worse only when the
// bootstrap interval over at least 3 runs a side excludes zero, and a peak at the highest level tested
// that is still rising is not called saturation.
import { describe, expect, it } from 'vitest';
import { evidencePair } from '../test-support/evidence-fixture.js';
import { buildReceipt } from './build-receipt.js';
import type { EvidenceSide } from '../test-support/evidence-fixture.js';
import { receiptView } from './receipt-view.js';
import { qualityFixture } from '../test-support/quality-fixture.js';
import { NO_PRICES } from './prices.js';
import { renderSite } from './publish-site.js';

const receipt = (over: { baseline?: Partial<EvidenceSide>; optimized?: Partial<EvidenceSide> } = {}, quality: number | null = null) => {
  const built = buildReceipt({
    ...evidencePair(over),
    quality: quality === null ? null : qualityFixture(quality),
    method: 'FP8 dynamic quantization',
    generator: '0.1.0',
  });
  if (!built.ok) throw new Error(built.problems.join('; '));
  return built.receipt;
};
const headline = (r: ReturnType<typeof receipt>, id: string) => receiptView(r).headlines.find((h) => h.number.id.endsWith(`/${id}`));

describe('changes and their direction', () => {
  it('a single run states the change but establishes no difference', () => {
    const r = receipt();
    expect(headline(r, 'optimized.singleStream')?.changeWords).toMatch(/^\+\d+ %, no difference established \(fewer than 3 runs on a side\)$/);
    expect(r.limitations[0]).toBe(
      'Each configuration was run once, so no change is called better or worse: a difference is established only over at least 3 runs a side.',
    );
  });

  it('three runs a side, clearly apart: better, with the interval over the runs', () => {
    const r = receipt({ baseline: { repeats: 3, spread: 0.02 }, optimized: { repeats: 3, spread: 0.02 } });
    expect(r.facts.find((f) => f.id === 'baseline.ttftSingle')?.runs).toEqual([40, 40.8, 41.6]);
    const h = headline(r, 'optimized.singleStream');
    // The change is of the means of all runs (the first runs are 83.8 and 150.9 tok/s), stated with them and inside its interval.
    expect(h?.verdict).toMatch(
      /^better \(95 % interval \+[\d.]+ % to \+[\d.]+ % over 3\+ runs a side; change of the means of 3 runs a side: 82\.2 → 148\.0 tok\/s\)$/,
    );
    expect(h?.change?.text).toBe('+80 %');
    expect(h?.change?.note).toMatch(
      /; 95 % interval \+[\d.]+ % to \+[\d.]+ % over 3\+ runs a side; change of the means of 3 runs a side: 82\.2 → 148\.0 tok\/s$/,
    );
    const cost = headline(r, 'optimized.costPer1M');
    expect(cost?.verdict).toMatch(
      /^better \(95 % interval −[\d.]+ % to −[\d.]+ % over 3\+ runs a side; change of the means of 3 runs a side: 2\.41 → 1\.30 USD\)$/,
    );
    for (const c of [h?.change, cost?.change]) expect(c?.interval?.low).toBeLessThanOrEqual(c?.value as number);
    expect(r.limitations[0]).toBe(
      "The baseline ran 3 times and the optimized configuration 3 times; the figures are the first run's, and a change is called better or worse only when each side ran at least 3 times and the seeded 95 % bootstrap interval of the difference over the runs excludes zero.",
    );
  });

  it('a wide spread on one side is still better when the other side stays clear of it', () => {
    // Baseline TTFT 40, 64 and 88 ms over its runs; optimized 30 ms each time.
    const r = receipt({ baseline: { repeats: 3, spread: 0.6 }, optimized: { repeats: 3, spread: 0 } });
    const ttft = receiptView(r).rows.find((x) => x.label === 'TTFT');
    expect(ttft?.verdict).toMatch(/^better \(95 % interval −\d+ % to −\d+ % over 3\+ runs a side; change of the means of 3 runs a side: 64\.0 → 30\.0 ms\)$/);
    // −53 % from the means, not −25 % from the first runs (40 → 30 ms), which lay at the interval's edge.
    expect(ttft?.change?.text).toBe('−53 %');
  });

  it('runs whose spreads overlap: no difference is established', () => {
    // Both sides' later runs are 120 % and 240 % slower: the ranges overlap.
    const tpot = receiptView(receipt({ baseline: { repeats: 3, spread: 1.2 }, optimized: { repeats: 3, spread: 1.2 } })).rows.find((x) => x.label === 'TPOT');
    expect(tpot?.verdict).toMatch(
      /^no difference established \(the interval includes zero; 95 % interval −[\d.]+ % to \+[\d.]+ % over 3\+ runs a side; change of the means of 3 runs a side: 22\.00 → 11\.00 ms\)$/,
    );
  });
});

describe('a run without the figure', () => {
  it('with fewer than 3 runs recorded on a side, establishes no difference', () => {
    const r = receipt({ baseline: { repeats: 3, spread: 0.02 }, optimized: { repeats: 3, spread: 0.02 } });
    // Run 2 of the optimized side had its concurrency-1 level client-bound: no TPOT.
    const facts = r.facts.map((f) => (f.id === 'optimized.tpotSingle' ? { ...f, runs: [f.runs?.[0] ?? null, null, f.runs?.[2] ?? null] } : f));
    const row = receiptView({ ...r, facts }).rows.find((x) => x.label === 'TPOT');
    expect(row?.verdict).toBe('no difference established (fewer than 3 runs on a side; change of the means of 3 and 2 runs: 10.20 → 5.10 ms)');
  });
});

describe('saturation', () => {
  it('a peak at the highest level tested, still rising, is a floor and the cost is not "at saturation"', () => {
    const r = receipt();
    expect(r.facts.find((f) => f.id === 'optimized.peakThroughput')?.note).toMatch(
      /^at concurrency 4; not saturated: the highest level tested \(concurrency 4\) gives the peak, \d+ % above concurrency 2$/,
    );
    expect(r.costBasis.text).toContain('at the highest throughput measured (not saturated: the highest level tested)');
    expect(r.costBasis.text).not.toContain('at measured saturation');
    expect(r.limitations).toContainEqual(
      expect.stringMatching(/^baseline: not saturated: .*; its peak is a floor, and its cost is at the highest throughput measured, not at saturation\.$/),
    );
  });

  it('a curve that turned down before the highest level is saturated', () => {
    const flat = {
      levels: [
        { c: 1, ttftMs: 40, tpotMs: 10 },
        { c: 2, ttftMs: 45, tpotMs: 11 },
        { c: 4, ttftMs: 200, tpotMs: 60 },
      ],
    };
    const r = receipt({ baseline: flat, optimized: { ...flat, quantization: 'fp8' } });
    expect(r.facts.find((f) => f.id === 'optimized.peakThroughput')?.note).toBe('at concurrency 2');
    expect(r.costBasis.text).toContain('at measured saturation');
    expect(r.limitations.join(' ')).not.toContain('not saturated');
  });
});

describe('goodput on the receipt', () => {
  it("states each configuration's goodput and SLO attainment at its best level, with a headline", () => {
    const r = receipt();
    // TTFT SLO p95 ≤ 100 ms: every request of every level meets it, so the best level is the fastest.
    expect(r.facts.find((f) => f.id === 'baseline.sloAttainment')).toMatchObject({ value: 1, provenance: 'measured', note: 'at concurrency 4' });
    expect(r.facts.find((f) => f.id === 'optimized.goodput')?.note).toBe('at concurrency 4: 8 of 8 requests met every SLO');
    expect(r.headlines.at(-1)).toEqual({ factId: 'optimized.goodput', baselineFactId: 'baseline.goodput' });
    expect(headline(r, 'optimized.goodput')?.changeWords).toMatch(/^\+\d+ %, no difference established \(fewer than 3 runs on a side\)$/);
  });

  it("counts no request as good when the quality score is below the contract's floor, and says why", () => {
    const floor = { qualityFloor: 0.99 };
    const below = receipt({ baseline: floor, optimized: floor }, 0.97);
    expect(below.facts.find((f) => f.id === 'optimized.goodput')).toMatchObject({
      value: 0,
      note: 'quality 0.97 is below the floor 0.99: no request meets every SLO and the quality floor',
    });
    expect(below.facts.find((f) => f.id === 'baseline.goodput')?.value).toBeGreaterThan(0);
    const unscored = receipt({ baseline: floor, optimized: floor });
    expect(unscored.facts.find((f) => f.id === 'optimized.goodput')).toMatchObject({ value: null, provenance: 'not recorded' });
    expect(receipt({ baseline: floor, optimized: floor }, 0.995).facts.find((f) => f.id === 'optimized.goodput')?.value).toBeGreaterThan(0);
  });
});

describe('what a reader sees', () => {
  const site = (r: ReturnType<typeof receipt>) => renderSite([r], NO_PRICES, '0.1.0', { previous: [], today: '2026-07-01' });
  it('labels a simulated receipt on the index, its page and its share image', () => {
    const r = receipt({ baseline: { label: 'SimGPU 80GB' }, optimized: { label: 'SimGPU 80GB' } });
    expect(r.simulated).toBe(true);
    const files = site(r).files;
    expect(String(files.get('index.html'))).toContain('<strong class="simulated">simulated</strong>');
    expect(String(files.get(`${r.id}.html`))).toContain('<strong>Simulated:</strong> measured against the goodput simulator');
    expect(receipt().simulated).toBe(false);
    expect(String(site(receipt()).files.get('index.html'))).not.toContain('class="simulated"');
  });

  it('prints the cost formula with its inputs, and dataset.json names what each derived number comes from', () => {
    const r = receipt();
    const files = site(r).files;
    const page = String(files.get(`${r.id}.html`)).replace(/<[^>]+>/g, '');
    expect(page).toMatch(/optimized: bf16, fp8 quantization, vllm 0\.9\.1: 1\.28 USD = 2\.00 USD\/h ÷ \(434\.6 tok\/s × 3,600 s\) × 1,000,000/);
    const numbers =
      (JSON.parse(String(files.get('dataset.json'))) as { receipts: Array<{ numbers: Array<{ id: string; provenance: string; derivedFrom?: string[] }> }> })
        .receipts[0]?.numbers ?? [];
    const derived = numbers.filter((n) => n.provenance === 'derived');
    expect(derived.length).toBeGreaterThan(5);
    for (const n of derived)
      expect(
        n.derivedFrom?.every((id) => numbers.some((m) => m.id === id)),
        n.id,
      ).toBe(true);
    expect(numbers.find((n) => n.id === `${r.id}/optimized.costPer1M`)?.derivedFrom).toEqual([
      `${r.id}/optimized.hourlyRate`,
      `${r.id}/optimized.peakThroughput`,
    ]);
  });
});
