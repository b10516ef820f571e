/**
 * A quality score belongs on a receipt only if it compared these two
 * configurations: each side's served model, server fingerprint (sha256 of its
 * /v1/models answer) and engine must be the ones the runs recorded.
 */
import { canonicalJson, type QualityScore, type SweepResult } from '../core/index.js';
import type { ConfigurationKey } from './fact.js';
import { type Refusal, refusal } from './refusal.js';

export function qualityRefusals(score: QualityScore, runs: Record<ConfigurationKey, SweepResult>): Refusal[] {
  const compared = score.compared;
  if (compared === undefined) {
    return [refusal('quality-belongs', 'evidence.quality: compared', 'is absent, so nothing says which servers the score compared; score the two configurations again with goodput quality')];
  }
  const out: Refusal[] = [];
  const sides = [['baseline', 'baseline', compared.baseline], ['optimized', 'candidate', compared.candidate]] as const;
  for (const [key, name, seen] of sides) {
    const run = runs[key].run;
    const field = `evidence.quality: compared.${name}`;
    const belongs = (what: string, scored: string | null, measured: string | null | undefined) => {
      if (measured === undefined || measured === null || scored === measured) return;
      out.push(refusal('quality-belongs', `${field}.${what}`, `is ${JSON.stringify(scored)}, but the ${key} run recorded ${JSON.stringify(measured)}; the score compared other servers than these two configurations`));
    };
    belongs('model', seen.model, run.model);
    belongs('fingerprint', seen.fingerprint, run.serverFingerprint);
    belongs('engine', seen.engine, run.engine?.name);
    belongs('engineVersion', seen.engineVersion, run.engine?.version);
    // Every simulator lists the same /v1/models: the whole account (its configuration included) tells two apart.
    const measured = runs[key].serverAccount;
    if (measured !== undefined && (seen.account === undefined || canonicalJson(seen.account) !== canonicalJson(measured))) {
      out.push(refusal('quality-belongs', `${field}.account`, seen.account === undefined
        ? `is absent, but the ${key} run recorded its server's account; score the two configurations again with goodput quality`
        : `differs from the account the ${key} run's server gave of itself; the score compared other servers than these two configurations`));
    }
  }
  return out;
}
