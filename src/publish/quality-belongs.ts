/**
 * A quality score belongs on a receipt only if it compared these two
 * configurations: each side's served model, server fingerprint (sha256 of its
 * /v1/models answer), engine and account must be the ones the runs recorded,
 * it must name these runs, and every figure must be what its own per-prompt
 * evidence gives (recomputed with core's code, never read).
 */
import { canonicalJson, type QualityScore, recomputeQualityScore, runIdOf, type SweepResult } from '../core/index.js';
import type { ConfigurationKey } from './fact.js';
import { type Refusal, refusal } from './refusal.js';

/**
 * The score as its evidence gives it, or why it cannot be published: no
 * evidence, or a figure that differs from the recomputation (rule
 * quality-recomputed, naming the field and both numbers).
 */
export function recomputedQuality(score: QualityScore): { ok: true; score: QualityScore } | { ok: false; refusals: Refusal[] } {
  const again = recomputeQualityScore(score);
  if (again === null) {
    return {
      ok: false,
      refusals: [
        refusal(
          'quality-recomputed',
          'evidence.quality: evidence',
          "is absent, so the score cannot be recomputed from both sides' logprobs; score the two configurations again with this goodput (quality or run --quality-baseline)",
        ),
      ],
    };
  }
  if (again.differences.length === 0) return { ok: true, score: again.score };
  return {
    ok: false,
    refusals: again.differences.map(([path, stated, recomputed]) =>
      refusal(
        'quality-recomputed',
        `evidence.quality: ${path.join('.')}`,
        `is ${JSON.stringify(stated)}, but the score's per-prompt evidence gives ${JSON.stringify(recomputed)}`,
      ),
    ),
  };
}

/**
 * The runs a score must name: both, for a score made by goodput quality; the
 * optimized run, for one measured inside it (its baseline side is bound by
 * the server account alone, and may name the baseline run when it does).
 */
function runIdRefusals(score: QualityScore, runs: Record<ConfigurationKey, SweepResult>, inRun: boolean): Refusal[] {
  if (score.runs === undefined) {
    return [
      refusal(
        'quality-belongs',
        'evidence.quality: runs',
        'is absent, so nothing says which runs the score belongs to; give goodput quality --baseline-run and --candidate-run, or measure it in the run (goodput run --quality-baseline)',
      ),
    ];
  }
  const out: Refusal[] = [];
  const sides = [
    ['baseline', 'baseline', score.runs.baseline],
    ['optimized', 'candidate', score.runs.candidate],
  ] as const;
  for (const [key, name, named] of sides) {
    if (named === null && key === 'baseline' && inRun) continue;
    const id = runIdOf(runs[key]);
    if (named !== id)
      out.push(
        refusal(
          'quality-belongs',
          `evidence.quality: runs.${name}`,
          `is ${JSON.stringify(named)}, but the ${key} run's id is ${JSON.stringify(id)}; the score belongs to other runs`,
        ),
      );
  }
  return out;
}

export function qualityRefusals(score: QualityScore, runs: Record<ConfigurationKey, SweepResult>, inRun = false): Refusal[] {
  const compared = score.compared;
  if (compared === undefined) {
    return [
      refusal(
        'quality-belongs',
        'evidence.quality: compared',
        'is absent, so nothing says which servers the score compared; score the two configurations again with goodput quality',
      ),
    ];
  }
  const out: Refusal[] = runIdRefusals(score, runs, inRun);
  const sides = [
    ['baseline', 'baseline', compared.baseline],
    ['optimized', 'candidate', compared.candidate],
  ] as const;
  for (const [key, name, seen] of sides) {
    const run = runs[key].run;
    const field = `evidence.quality: compared.${name}`;
    const belongs = (what: string, scored: string | null, measured: string | null | undefined) => {
      if (measured === undefined || measured === null || scored === measured) return;
      out.push(
        refusal(
          'quality-belongs',
          `${field}.${what}`,
          `is ${JSON.stringify(scored)}, but the ${key} run recorded ${JSON.stringify(measured)}; the score compared other servers than these two configurations`,
        ),
      );
    };
    belongs('model', seen.model, run.model);
    belongs('fingerprint', seen.fingerprint, run.serverFingerprint);
    belongs('engine', seen.engine, run.engine?.name);
    belongs('engineVersion', seen.engineVersion, run.engine?.version);
    // Every simulator lists the same /v1/models: the whole account (its configuration included) tells two apart.
    const measured = runs[key].serverAccount;
    if (measured !== undefined && (seen.account === undefined || canonicalJson(seen.account) !== canonicalJson(measured))) {
      out.push(
        refusal(
          'quality-belongs',
          `${field}.account`,
          seen.account === undefined
            ? `is absent, but the ${key} run recorded its server's account; score the two configurations again with goodput quality`
            : `differs from the account the ${key} run's server gave of itself; the score compared other servers than these two configurations`,
        ),
      );
    }
  }
  return out;
}
