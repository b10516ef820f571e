/**
 * scoreQuality against simulators over loopback: identical configurations score
 * exactly 1.0, quantization noise lowers the score monotonically, k is probed
 * down to what both servers allow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUALITY_EVALUATOR, QUALITY_SCALE_NOTE, qualityScoreSchema, recomputeQualityScore } from '../core/index.js';
import { collectServerAccount } from '../contract/index.js';
import { startSimulator, type SimServer } from '../sim/index.js';
import { PROMPT_SET_SHA256, QUALITY_PROMPTS, REFERENCE_TEXT, REFERENCE_TEXT_SHA256 } from './prompt-set.js';
import { scoreQuality } from './score-quality.js';

const fast = { prefillBaseMs: 0, prefillMsPerToken: 0, decodeStepMs: 0.2, decodeMsPerExtraSeq: 0 };
/** The lowest score the 0.1-logit noise may reach: well above what 0.5 gives, well below 1. */
const FLOOR = 0.95;
let sims: Record<'base' | 'twin' | 'noise01' | 'noise05' | 'capped', SimServer>;

beforeAll(async () => {
  const [base, twin, noise01, noise05, capped] = await Promise.all([
    startSimulator(fast),
    startSimulator(fast),
    startSimulator({ ...fast, quantizationNoise: 0.1 }),
    startSimulator({ ...fast, quantizationNoise: 0.5 }),
    startSimulator({ ...fast, quantizationNoise: 0.1, maxTopLogprobs: 5 }),
  ]);
  sims = { base, twin, noise01, noise05, capped };
});
afterAll(async () => {
  await Promise.all(Object.values(sims).map((s) => s.close()));
});

const score = (candidate: SimServer, endpoint: 'chat' | 'completions' = 'chat') =>
  scoreQuality({ baseline: { baseUrl: sims.base.url }, candidate: { baseUrl: candidate.url }, endpoint });

describe('scoreQuality against the simulator', () => {
  it('identical configurations score exactly 1.0, with the evaluator, scale note and workload', async () => {
    const s = await score(sims.twin);
    expect(s.composite).toBe(1);
    expect(s.components.kl.value).toBe(0);
    expect(s.components.pplDelta).toMatchObject({ value: 0, provenance: 'measured', tokens: REFERENCE_TEXT.split(' ').length - 1 });
    expect(s).toMatchObject({
      evaluator: QUALITY_EVALUATOR,
      scaleNote: QUALITY_SCALE_NOTE,
      promptSetHash: PROMPT_SET_SHA256,
      referenceTextHash: REFERENCE_TEXT_SHA256,
      n: QUALITY_PROMPTS.length,
      topLogprobs: 20,
      endpoint: 'chat',
      baseline: { url: sims.base.url, model: 'goodput-sim-1', maxTopLogprobs: 20 },
    });
  });

  it('more quantization noise gives a lower score: 0 → 1.0, 0.1 → below 1 and above the floor, 0.5 → lower still', async () => {
    const low = await score(sims.noise01);
    const high = await score(sims.noise05);
    expect(low.composite).toBeLessThan(1);
    expect(low.composite).toBeGreaterThan(FLOOR);
    expect(high.composite).toBeLessThan(low.composite as number);
    expect(high.composite).toBeGreaterThan(0.5);
    expect(high.components.kl.value).toBeGreaterThan(low.components.kl.value);
    expect(high.components.pplDelta.value).toBeGreaterThan(0);
  });

  it('probes top_logprobs down to what both servers allow and records it', async () => {
    const s = await score(sims.capped);
    expect(s.topLogprobs).toBe(5);
    expect(s.candidate.maxTopLogprobs).toBe(5);
    expect(s.baseline.maxTopLogprobs).toBe(20);
    expect(s.composite).toBeLessThan(1);
  });

  it('works on the completions endpoint (the token → logprob map shape)', async () => {
    const same = await score(sims.twin, 'completions');
    expect(same.composite).toBe(1);
    const noisy = await score(sims.noise01, 'completions');
    expect(noisy.composite).toBeLessThan(1);
    expect(noisy.endpoint).toBe('completions');
  });

  it("keeps both sides' per-prompt logprobs, from which core recomputes exactly the score, and names the runs", async () => {
    const runs = { baseline: { id: `set:${'1'.repeat(16)}` }, candidate: { id: `records:${'2'.repeat(64)}` } };
    const s = await scoreQuality({ baseline: { baseUrl: sims.base.url }, candidate: { baseUrl: sims.noise01.url }, runs });
    expect(s.runs).toEqual({ baseline: runs.baseline.id, candidate: runs.candidate.id });
    expect(s.evidence?.firstToken).toHaveLength(s.n);
    expect(s.evidence?.firstToken.every((p) => p.baseline.length <= s.topLogprobs && p.candidate.length <= s.topLogprobs)).toBe(true);
    const stored = qualityScoreSchema.parse(JSON.parse(JSON.stringify(s)));
    const again = recomputeQualityScore(stored);
    expect(again?.differences).toEqual([]);
    expect(again?.score.composite).toBe(s.composite);
  });

  it('refuses, before any prompt, a side whose server is not the one its run recorded', async () => {
    const account = await collectServerAccount(sims.twin.url, undefined);
    const seen: number[] = [];
    await expect(
      scoreQuality({
        baseline: { baseUrl: sims.base.url },
        candidate: { baseUrl: sims.noise01.url },
        onProgress: (d) => seen.push(d),
        runs: { baseline: { id: null }, candidate: { id: `records:${'2'.repeat(64)}`, account } },
      }),
    ).rejects.toThrow(/candidate: the server's account of itself differs from the one its run recorded/);
    expect(seen).toEqual([]);
  });

  it('reports progress once per prompt', async () => {
    const seen: number[] = [];
    await scoreQuality({ baseline: { baseUrl: sims.base.url }, candidate: { baseUrl: sims.twin.url }, onProgress: (done) => seen.push(done) });
    expect(seen).toEqual(QUALITY_PROMPTS.map((_, i) => i + 1));
  });
});
