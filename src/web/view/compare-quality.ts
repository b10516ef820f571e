/**
 * The quality row of a comparison: each run's quality score (kept in the
 * result by `goodput run --quality-baseline`) and each candidate's verdict
 * against the baseline run's score under the one difference rule of core,
 * fed with the scores' own noise (qualityDifference). Two scores are compared
 * only when both were measured against the same baseline side with the same
 * evaluator, prompts and reference text; otherwise the row says why not.
 */
import { type Difference, type QualityScore, QUALITY_EVALUATOR_ID, qualityDifference } from '../../core/index.js';

export interface QualityVerdict {
  label: string;
  /** Null when the two scores are not compared (the reason is in `text`). */
  difference: Difference | null;
  /** "better" / "worse" / "no difference established (…)" / "not compared: …". */
  verdict: string;
  /** The change and its interval ("−0.0127, 95 % interval −0.0148 to −0.0109 over the prompts"), or null. */
  change: string | null;
  /** The larger of the two scores' own noise, shown beside the change; null when neither recorded one. */
  noise: number | null;
}

export interface QualityComparison {
  /** Per run, its score as a short phrase ("0.9872 ± 0.0020", "no quality score in this run"). */
  scores: string[];
  /** Per candidate (runs 2..N), against the baseline run's score. */
  verdicts: QualityVerdict[];
}

export interface QualityRun {
  label: string;
  quality?: QualityScore | undefined;
}

const f4 = (x: number) => `${x < 0 ? '−' : x > 0 ? '+' : '±'}${Math.abs(x).toFixed(4)}`;

/** "0.9872 ± 0.0020 (32 prompts)", or why there is no figure. */
export function qualityScorePhrase(q: QualityScore | undefined): string {
  if (q === undefined) return 'no quality score in this run';
  if (q.composite === null) return `not recorded (${q.components.pplDelta.provenance === 'not recorded' ? q.components.pplDelta.reason : 'no composite'})`;
  return `${q.composite.toFixed(4)}${q.noise ? ` ± ${q.noise.value.toFixed(4)}` : ''} (${q.n} prompts)`;
}

/** What the score was measured against: its evaluator, prompts, reference text and the baseline server (model, fingerprint, and its account of itself when recorded). */
function baselineSide(q: QualityScore): string | null {
  if (q.compared === undefined) return null;
  const b = q.compared.baseline;
  const evaluator = q.evaluator.startsWith(`${QUALITY_EVALUATOR_ID}:`) ? QUALITY_EVALUATOR_ID : q.evaluator;
  return JSON.stringify([evaluator, q.promptSetHash, q.referenceTextHash, q.topLogprobs, b.model, b.fingerprint, b.account ?? null]);
}

/** Why two scores cannot be compared, or null when they can. */
export function qualityComparableProblem(base: QualityRun, cand: QualityRun): string | null {
  const a = base.quality;
  const b = cand.quality;
  if (a === undefined && b === undefined) return 'neither run carries a quality score';
  if (a === undefined || b === undefined) {
    const has = a === undefined ? cand.label : base.label;
    const lacks = a === undefined ? base.label : cand.label;
    return `only ${has} carries a quality score (${lacks} was not run with --quality-baseline), so there is nothing to compare it with`;
  }
  const sa = baselineSide(a);
  const sb = baselineSide(b);
  if (sa === null || sb === null)
    return `${sa === null ? base.label : cand.label}'s score does not record what it was measured against, so the two scores may not share a baseline`;
  if (sa !== sb) {
    const side = (q: QualityScore) => {
      const b = q.compared?.baseline;
      const build = b?.account?.simulator?.configSha256 ?? b?.account?.props?.build ?? b?.account?.version ?? null;
      return `${b?.model} (fingerprint ${b?.fingerprint?.slice(0, 12) ?? 'none'}${build === null ? '' : `, server ${build.slice(0, 12)}`})`;
    };
    const what =
      a.promptSetHash !== b.promptSetHash || a.referenceTextHash !== b.referenceTextHash || a.topLogprobs !== b.topLogprobs
        ? 'different prompts, reference text or top_logprobs'
        : `different baselines: ${side(a)} vs ${side(b)}`;
    return `the two scores were measured against ${what}, so they do not measure the same thing`;
  }
  return null;
}

/** The quality row, or null when no compared run carries a score (nothing to show). */
export function compareQuality(runs: readonly QualityRun[]): QualityComparison | null {
  if (!runs.some((r) => r.quality !== undefined)) return null;
  const base = runs[0] as QualityRun;
  const verdicts = runs.slice(1).map((cand): QualityVerdict => {
    const problem = qualityComparableProblem(base, cand);
    if (problem !== null || base.quality === undefined || cand.quality === undefined) {
      return { label: cand.label, difference: null, verdict: `not compared: ${problem ?? 'a side has no score'}`, change: null, noise: null };
    }
    const d = qualityDifference(base.quality, cand.quality);
    const noises = [base.quality.noise?.value, cand.quality.noise?.value].filter((x): x is number => x !== undefined);
    const noise = noises.length === 0 ? null : Math.max(...noises);
    if (d.diff === null) return { label: cand.label, difference: d, verdict: `not compared: ${d.why}`, change: null, noise };
    const verdict = d.verdict === 'better' || d.verdict === 'worse' ? d.verdict : `no difference established (${d.why})`;
    const interval = d.lo === null || d.hi === null ? '' : `, 95 % interval ${f4(d.lo)} to ${f4(d.hi)} over the prompts`;
    return { label: cand.label, difference: d, verdict, change: `${f4(d.diff)}${interval}`, noise };
  });
  return { scores: runs.map((r) => qualityScorePhrase(r.quality)), verdicts };
}

/** "−0.0127, 95 % interval … over the prompts (the scores' own noise ±0.0020): worse". */
export function qualityVerdictPhrase(v: QualityVerdict): string {
  if (v.change === null) return v.verdict;
  return `${v.change}${v.noise === null ? '' : ` (the scores' own noise ±${v.noise.toFixed(4)})`}: ${v.verdict}`;
}
