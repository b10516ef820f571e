/**
 * Forged quality scores, each as a forger with goodput's own code would make
 * it (every figure the schema cross-checks re-derived, files re-hashed by
 * packReceipt), with the field and rule that must refuse it.
 */
import { contractHash, contractSchema } from '../contract/index.js';
import { KL_WEIGHT, PPL_WEIGHT, type QualityScore, type SweepResult, composeQualityScore, qualityNoise } from '../core/index.js';
import type { Rule } from '../publish/index.js';
import { evidencePair } from './evidence-fixture.js';
import { measuredQualityFixture } from './quality-fixture.js';

export interface ForgedSides {
  baseline: SweepResult;
  optimized: SweepResult;
  quality: QualityScore | null;
}

const good = (): ForgedSides => {
  const pair = evidencePair();
  return { ...pair, quality: measuredQualityFixture(pair) };
};
const scoreOf = (s: ForgedSides) => s.quality as QualityScore;

/** The score with its KL figures replaced and everything derived from them re-derived, so the schema's own checks pass. */
function rederived(q: QualityScore, perPrompt: number[]): QualityScore {
  const value = perPrompt.reduce((a, b) => a + b, 0) / perPrompt.length;
  const term = Math.exp(-value);
  const ppl = q.components.pplDelta;
  const composite = ppl.value === null ? null : 1 - KL_WEIGHT * (1 - term) - PPL_WEIGHT * (1 - ppl.term);
  const noise = q.noise === undefined ? null : qualityNoise(perPrompt, ppl.value === null ? null : ppl.term);
  return { ...q, composite, components: { ...q.components, kl: { ...q.components.kl, perPrompt, value, term } }, ...(noise === null ? {} : { noise }) };
}

/** The optimized run's contract declaring the score measured in the run, its hash recomputed. */
function declaringInRun(r: SweepResult): SweepResult {
  const contract = contractSchema.parse({ ...r.contract, quality: { metric: 'goodput-quality-v1', baselineUrl: 'http://127.0.0.1:8001' } });
  return { ...r, contract: contract as unknown as Record<string, unknown>, contractHash: contractHash(contract) };
}

/** The score measured inside the optimized run (goodput run --quality-baseline): its baseline run is not named. */
export function inRunSides(): ForgedSides {
  const s = good();
  const q = scoreOf(s);
  const inRun = { ...q, runs: { baseline: null, candidate: q.runs?.candidate as string } };
  return { baseline: s.baseline, optimized: { ...declaringInRun(s.optimized), quality: inRun }, quality: null };
}

export const QUALITY_FORGERIES: Array<[string, () => ForgedSides, string, Rule]> = [
  [
    'a score whose per-prompt KL is divided by 100, mean, term and composite re-derived',
    () => {
      const s = good();
      const q = scoreOf(s);
      return {
        ...s,
        quality: rederived(
          q,
          q.components.kl.perPrompt.map((x) => x / 100),
        ),
      };
    },
    'evidence.quality: components.kl.perPrompt.0: is',
    'quality-recomputed',
  ],
  [
    'a score whose perplexity is made equal on both sides, term and composite re-derived',
    () => {
      const s = good();
      const q = scoreOf(s);
      const ppl = q.components.pplDelta;
      if (ppl.value === null) throw new Error('fixture has no perplexity');
      const kl = q.components.kl;
      return {
        ...s,
        quality: { ...q, composite: 1 - KL_WEIGHT * (1 - kl.term), components: { kl, pplDelta: { ...ppl, pplCandidate: ppl.pplBaseline, value: 0, term: 1 } } },
      };
    },
    'evidence.quality: components.pplDelta.pplCandidate: is',
    'quality-recomputed',
  ],
  [
    'a score whose evidence is replaced by the baseline against itself, figures kept',
    () => {
      const s = good();
      const q = scoreOf(s);
      const ev = q.evidence as NonNullable<QualityScore['evidence']>;
      const same = { firstToken: ev.firstToken.map((p) => ({ baseline: p.baseline, candidate: p.baseline })), referenceText: ev.referenceText };
      return { ...s, quality: { ...q, evidence: same } };
    },
    'evidence.quality: components.kl.value: is',
    'quality-recomputed',
  ],
  [
    'a score without its per-prompt evidence',
    () => {
      const s = good();
      const { evidence: _e, ...q } = scoreOf(s);
      return { ...s, quality: q };
    },
    'evidence.quality: evidence: is absent',
    'quality-recomputed',
  ],
  [
    'a score whose evidence holds more alternatives than the top_logprobs it states, re-composed',
    () => {
      const s = good();
      const q = scoreOf(s);
      const ev = q.evidence as NonNullable<QualityScore['evidence']>;
      const wider = { ...ev, firstToken: ev.firstToken.map((p) => ({ ...p, candidate: [...p.candidate, { token: 'Z', logprob: Math.log(0.01) }] })) };
      const again = composeQualityScore({ ...wider, topLogprobs: q.topLogprobs, promptSetHash: q.promptSetHash, referenceTextHash: q.referenceTextHash });
      return { ...s, quality: { ...q, ...again, evidence: wider } };
    },
    'evidence.quality: evidence.firstToken.0: is',
    'quality-recomputed',
  ],
  [
    'a score whose evidence is past the limits table (21 alternatives)',
    () => {
      const s = good();
      const q = scoreOf(s);
      const ev = q.evidence as NonNullable<QualityScore['evidence']>;
      const many = Array.from({ length: 21 }, (_, i) => ({ token: `t${i}`, logprob: Math.log(0.04) }));
      return { ...s, quality: { ...q, evidence: { ...ev, firstToken: [{ baseline: many, candidate: many }, ...ev.firstToken.slice(1)] } } };
    },
    'top logprobs 21 is above the limit of 20',
    'schema',
  ],
  [
    'a score that names no runs',
    () => {
      const s = good();
      const { runs: _r, ...q } = scoreOf(s);
      return { ...s, quality: q };
    },
    'evidence.quality: runs: is absent',
    'quality-belongs',
  ],
  [
    'a score of other run ids',
    () => {
      const s = good();
      const q = scoreOf(s);
      return { ...s, quality: { ...q, runs: { baseline: q.runs?.baseline ?? null, candidate: `records:${'e'.repeat(64)}` } } };
    },
    'evidence.quality: runs.candidate: is "records:eeee',
    'quality-belongs',
  ],
  [
    'a standalone score that leaves its baseline run unnamed',
    () => {
      const s = good();
      const q = scoreOf(s);
      return { ...s, quality: { ...q, runs: { baseline: null, candidate: q.runs?.candidate as string } } };
    },
    'evidence.quality: runs.baseline: is null',
    'quality-belongs',
  ],
  [
    'a score of the wrong servers (the baseline scored against itself)',
    () => {
      const s = good();
      const q = scoreOf(s);
      const c = q.compared as NonNullable<QualityScore['compared']>;
      return { ...s, quality: { ...q, compared: { ...c, candidate: c.baseline } } };
    },
    'evidence.quality: compared.candidate.fingerprint: is',
    'quality-belongs',
  ],
  [
    'an in-run score naming another run',
    () => {
      const s = inRunSides();
      const q = s.optimized.quality as QualityScore;
      return { ...s, optimized: { ...s.optimized, quality: { ...q, runs: { baseline: null, candidate: `records:${'e'.repeat(64)}` } } } };
    },
    'evidence.quality: runs.candidate: is "records:eeee',
    'quality-belongs',
  ],
  [
    'an in-run score edited (per-prompt KL divided by 100, re-derived)',
    () => {
      const s = inRunSides();
      const q = s.optimized.quality as QualityScore;
      return {
        ...s,
        optimized: {
          ...s.optimized,
          quality: rederived(
            q,
            q.components.kl.perPrompt.map((x) => x / 100),
          ),
        },
      };
    },
    'evidence.quality: components.kl.perPrompt.0: is',
    'quality-recomputed',
  ],
  [
    'a contract that declares the score measured in the run, shipped without it',
    () => {
      const s = inRunSides();
      const { quality: _q, ...optimized } = s.optimized;
      return { ...s, optimized, quality: scoreOf(good()) };
    },
    'evidence.optimized: quality: is absent, but the hashed contract declares',
    'quality-declared',
  ],
  [
    'a standalone score beside another score measured in the run',
    () => {
      const s = inRunSides();
      const q = scoreOf(good());
      return {
        ...s,
        quality: rederived(
          q,
          q.components.kl.perPrompt.map((x) => x / 100),
        ),
      };
    },
    'evidence.quality: is another score than the one measured in the optimized run',
    'quality-belongs',
  ],
];
