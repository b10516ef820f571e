/**
 * `goodput run --quality-baseline URL` (or the contract's quality.baselineUrl):
 * the quality score measured in the same invocation, after the last run, of
 * the server just benchmarked against the baseline's server. The score, with
 * both sides' raw logprobs, goes into the result, named by the result's run id
 * and carrying both servers' accounts, so a receipt recomputes it and binds it
 * to these runs.
 */
import { type SweepResult, qualityScoreSchema, runIdOf, sanitizeForTerminal } from '../core/index.js';
import { QualityError, scoreQuality } from '../quality/index.js';
import type { Contract } from '../contract/index.js';

/** The result with its in-run score, or the result unchanged and why there is no score. */
export async function withInRunQuality(
  result: SweepResult, contract: Contract, target: { baseUrl: string; apiKey?: string }, baselineUrl: string,
): Promise<{ result: SweepResult; problem: string | null }> {
  const candidateId = runIdOf(result);
  if (candidateId === null) return { result, problem: 'the run kept no records, so there is no run for a quality score to belong to' };
  try {
    const scored = await scoreQuality({
      baseline: { baseUrl: baselineUrl, apiKey: target.apiKey },
      candidate: target,
      candidateModel: contract.model.name,
      endpoint: contract.server.endpoint === 'completions' ? 'completions' : 'chat',
      runs: { baseline: { id: null }, candidate: { id: candidateId, ...(result.serverAccount ? { account: result.serverAccount } : {}) } },
    });
    // The schema keeps what a score is and drops where the servers answered (their URLs).
    const quality = qualityScoreSchema.parse(scored);
    return { result: { ...result, quality }, problem: null };
  } catch (err) {
    if (!(err instanceof QualityError)) throw err;
    return { result, problem: sanitizeForTerminal(err.message) };
  }
}
