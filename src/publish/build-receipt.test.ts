/**
 * buildReceipt on hand-made runs: every figure checked against a value
 * computed by hand, the headline changes, quality with and without a score,
 * and each reason two runs cannot share a receipt.
 */
import { describe, expect, it } from 'vitest';
import { QUALITY_SCALE_NOTE, qualityScoreSchema } from '../core/index.js';
import { contractSchema } from '../contract/index.js';
import { contract, level, receiptPair, resultOf } from '../test-support/receipt-fixture.js';
import { qualityFixture } from '../test-support/quality-fixture.js';
import { buildReceipt } from './build-receipt.js';
import { type Receipt, receiptSchema } from './receipt-schema.js';
import { receiptView } from './receipt-view.js';

const build = (over: Partial<Parameters<typeof buildReceipt>[0]> = {}) =>
  buildReceipt({ ...receiptPair(), quality: null, method: 'FP8 dynamic quantization', generator: '0.1.0', ...over });

function ok(over: Partial<Parameters<typeof buildReceipt>[0]> = {}): Receipt {
  const r = build(over);
  if (!r.ok) throw new Error(r.problems.join('\n'));
  return receiptSchema.parse(r.receipt);
}
const fact = (r: Receipt, id: string) => r.facts.find((f) => f.id === id);

describe('buildReceipt', () => {
  it('states the model, GPU, dates and both configurations with their methods', () => {
    const r = ok();
    expect(r).toMatchObject({ model: 'demo-model', hardware: 'Test GPU 24GB', measuredAt: '2026-06-03', receiptVersion: 2 });
    expect(r.configurations.baseline).toMatchObject({
      identity: 'bf16, no quantization, vllm 0.9.1',
      method: 'baseline as deployed, no optimization',
      measuredAt: '2026-06-02',
    });
    expect(r.configurations.optimized).toMatchObject({
      identity: 'bf16, fp8 quantization, vllm 0.9.1',
      method: 'FP8 dynamic quantization',
      measuredAt: '2026-06-03',
    });
    expect(r.configurations.baseline.workloadHash).toBe(r.configurations.optimized.workloadHash);
    expect(r.configurations.baseline.contractHash).not.toBe(r.configurations.optimized.contractHash);
    expect(r.workload.lines[0]).toBe(
      'workload: {"cache":[{"kind":"cold"}],"outputTokens":[64],"prompts":{"kind":"synthetic","tokens":[32]},"requestsPerLevel":8,"warmup":1}',
    );
  });

  it('computes every figure as by hand, each with statistic, provenance and configuration', () => {
    const r = ok();
    expect(fact(r, 'baseline.peakThroughput')).toMatchObject({
      value: 180,
      unit: 'tok/s',
      statistic: 'peak over the valid levels tested',
      provenance: 'measured',
      configuration: 'baseline',
      note: 'at concurrency 2; not saturated: the highest level tested (concurrency 2) gives the peak, 80 % above concurrency 1',
    });
    expect(fact(r, 'optimized.peakThroughput')).toMatchObject({ value: 360, provenance: 'measured' });
    expect(fact(r, 'baseline.singleStream')).toMatchObject({ value: 100, statistic: 'mean of per-request at concurrency 1' });
    expect(fact(r, 'optimized.ttftSingle')).toMatchObject({ value: 30, unit: 'ms', statistic: 'p50 at concurrency 1' });
    expect(fact(r, 'optimized.tpotSingle')?.value).toBe(6);
    expect(fact(r, 'baseline.e2eSingle')?.value).toBe(670);
    expect(fact(r, 'baseline.hourlyRate')).toMatchObject({ value: 2, provenance: 'recorded', note: 'as of 2026-06-01' });
    // $2/h over 180 tok/s × 3600 s = 648,000 tokens per hour → 2 / 0.648 = $3.0864 per 1M.
    expect(fact(r, 'baseline.costPer1M')?.value).toBeCloseTo(3.08642, 4);
    expect(fact(r, 'optimized.costPer1M')).toMatchObject({ provenance: 'derived', derivedFrom: ['optimized.hourlyRate', 'optimized.peakThroughput'] });
    expect(fact(r, 'optimized.costPer1M')?.value).toBeCloseTo(1.54321, 4);
    expect(fact(r, 'optimized.c2.ttftP95')).toMatchObject({ value: 50, statistic: 'p95 at concurrency 2', provenance: 'measured' });
    expect(r.curves.optimized).toEqual([
      { concurrency: 1, invalid: false, clientBound: false },
      { concurrency: 2, invalid: false, clientBound: false },
    ]);
  });

  it('gives five headlines whose changes compare one definition on both sides', () => {
    const v = receiptView(ok());
    expect(v.headlines.map((h) => [h.number.label, h.number.text, h.changeWords])).toEqual([
      ['Peak throughput', '360.0', '+100 %, no difference established (fewer than 3 runs on a side)'],
      ['Single-stream rate', '160.0', '+60 %, no difference established (fewer than 3 runs on a side)'],
      ['Cost per 1M output tokens', '1.54', '−50 %, no difference established (fewer than 3 runs on a side)'],
      ['Quality score', 'not recorded', null],
      // These hand-made levels carry no goodput: the figure is there, not recorded.
      ['Goodput', 'not recorded', null],
    ]);
    expect(v.headlines[0]?.number.configuration).toBe('optimized: bf16, fp8 quantization, vllm 0.9.1');
    const ttft = v.rows.find((row) => row.label === 'TTFT');
    expect(ttft?.changeWords).toBe('−25 %, no difference established (fewer than 3 runs on a side)');
  });

  it('without a quality score, says "not recorded" rather than leaving quality out', () => {
    const r = ok();
    expect(fact(r, 'optimized.quality')).toMatchObject({ value: null, provenance: 'not recorded' });
    expect(r.quality).toBeNull();
    expect(r.limitations).toContain(
      'Quality score (optimized, composite against the baseline) is not recorded: no quality score was given (goodput quality --json).',
    );
    expect(r.limitations[0]).toMatch(/run once/);
  });

  it('with a quality score, carries the composite as derived with its evaluator and scale note, and no server URL', () => {
    const r = ok({ quality: qualityScoreSchema.parse(qualityFixture(0.97)) });
    expect(fact(r, 'optimized.quality')).toMatchObject({
      value: 0.97,
      provenance: 'derived',
      derivedFrom: ['optimized.qualityKl', 'optimized.qualityPplDelta'],
    });
    expect(fact(r, 'optimized.qualityKl')).toMatchObject({ value: 0.03, provenance: 'measured', statistic: 'mean over prompts' });
    expect(r.quality?.scaleNote).toBe(QUALITY_SCALE_NOTE);
    expect(r.quality?.line).toBe(`quality 0.9700 (goodput-quality-v1; ${QUALITY_SCALE_NOTE})`);
    expect(JSON.stringify(r)).not.toContain('127.0.0.1');
  });

  it('prints a quality score truncated, so a degraded score never reads 1', () => {
    const near = receiptView(ok({ quality: qualityScoreSchema.parse(qualityFixture(0.99996)) }));
    expect(near.headlines[3]?.number.text).toBe('0.9999');
    const same = receiptView(ok({ quality: qualityScoreSchema.parse(qualityFixture(1)) }));
    expect(same.headlines[3]?.number.text).toBe('1.0');
  });

  it('marks invalid levels and what they leave unrecorded in the limitations', () => {
    const { baseline } = receiptPair();
    const broken = resultOf(contract({ quantization: 'fp8' }), [
      level({ c: 1, tokS: 100, perReq: 100, ttft: [30, 45], tpot: 6, e2e: 410, failed: 2 }),
      level({ c: 2, tokS: 300, perReq: 150, ttft: [35, 50], tpot: 6.5, e2e: 440 }),
    ]);
    const r = ok({ baseline, optimized: broken });
    expect(fact(r, 'optimized.singleStream')).toMatchObject({
      value: null,
      provenance: 'not recorded',
      note: 'the concurrency-1 level is invalid (2 of 8 requests failed (timeout 2))',
    });
    expect(fact(r, 'optimized.failedTotal')?.value).toBe(2);
    expect(r.limitations).toContain('optimized: invalid level(s) at concurrency 1 (failed requests) are excluded from peaks.');
    expect(receiptView(r).headlines[1]?.changeWords).toBeNull();
  });
});

describe('buildReceipt refuses runs that cannot share a receipt', () => {
  const pair = receiptPair();
  it('a run without a contract', () => {
    const r = build({ optimized: { ...pair.optimized, contract: null } });
    expect(r.ok === false && r.problems).toEqual([
      'optimized: the run carries no contract, so its workload cannot be reconstructed (record runs with goodput run CONTRACT.yaml)',
    ]);
  });
  it('a contract whose hash does not recompute', () => {
    const edited = { ...pair.baseline, contract: { ...pair.baseline.contract, thinking: 'on' } };
    const r = build({ baseline: edited });
    expect(r.ok === false && r.problems[0]).toMatch(
      /^baseline: contractHash [0-9a-f]{64} does not match its contract \(recomputed [0-9a-f]{64}\); the result was edited$/,
    );
  });
  it('different workloads, naming each differing field', () => {
    const other = resultOf(contract({ quantization: 'fp8', outputTokens: 128 }), pair.optimized.levels);
    const r = build({ optimized: other });
    expect(r.ok === false && r.problems).toEqual(['the workloads differ: workload.outputTokens[0] is 64 on the baseline and 128 on the optimized run']);
  });
  it('different GPUs', () => {
    const other = resultOf(contract({ quantization: 'fp8', label: 'Other GPU 80GB' }), pair.optimized.levels);
    const r = build({ optimized: other });
    expect(r.ok === false && r.problems).toEqual([
      'the GPUs differ: hardware.label is "Test GPU 24GB" on the baseline and "Other GPU 80GB" on the optimized run; a receipt is one model on one GPU',
    ]);
  });
  it('an open-loop run: its levels have no concurrency axis for single-stream and peak figures', () => {
    const c = contractSchema.parse({ ...contract({ quantization: 'fp8' }), load: { pattern: { kind: 'rate', process: 'poisson', seed: 1 }, levels: [1, 2] } });
    const r = build({ optimized: resultOf(c, pair.optimized.levels) });
    expect(r.ok === false && r.problems).toEqual([
      'optimized: load.pattern is rate; a receipt compares closed-loop concurrency sweeps (load.pattern kind: concurrency)',
    ]);
  });
  it('a corpus known by its content hash is the same workload wherever its file lies, and its path never enters the receipt', () => {
    const at = (dir: string, quantization: string) =>
      contractSchema.parse({
        ...contract({ quantization }),
        workload: { ...contract().workload, prompts: { kind: 'jsonl', path: `${dir}/prompts.jsonl`, sha256: 'a'.repeat(64), seed: 1 } },
      });
    const r = build({
      baseline: resultOf(at('/home/ann/bench', 'none'), pair.baseline.levels),
      optimized: resultOf(at('/srv/ci', 'fp8'), pair.optimized.levels, '2026-06-03T10:00:00.000Z'),
    });
    expect(r.ok).toBe(true);
    expect(JSON.stringify(r.ok && r.receipt)).not.toMatch(/prompts\.jsonl|\/home\/ann|\/srv\/ci/);
  });
  it('the same run on both sides', () => {
    const r = build({ optimized: pair.baseline });
    expect(r.ok === false && r.problems).toEqual(['the baseline and the optimized run are the same run; a receipt compares two measured configurations']);
  });
  it('two runs of one contract started in the same millisecond are told apart by their records', () => {
    const same = 'the baseline and the optimized run are the same run; a receipt compares two measured configurations';
    const withRecords = (sha: string) => ({ ...pair.baseline, recordsSha256: sha });
    const apart = build({ baseline: withRecords('a'.repeat(64)), optimized: withRecords('b'.repeat(64)) });
    expect(apart.ok === false ? apart.problems : []).not.toContain(same);
    const cloned = build({ baseline: withRecords('a'.repeat(64)), optimized: withRecords('a'.repeat(64)) });
    expect(cloned.ok === false && cloned.problems).toContain(same);
  });
  it('an empty method, together with every other problem', () => {
    const r = build({ method: ' ', optimized: { ...pair.optimized, contractHash: null } });
    expect(r.ok === false && r.problems).toEqual([
      '--method: state the optimization method of the optimized configuration',
      'optimized: the run carries no contractHash, so its contract cannot be verified',
    ]);
  });
});
