/**
 * `goodput run --quality-baseline URL` (or the contract's quality.baselineUrl):
 * the quality score measured in the same invocation, after the last run, of
 * the server just benchmarked against the baseline's server. The score, with
 * both sides' raw logprobs, goes into the result, named by the result's run id
 * and carrying both servers' accounts, so a receipt recomputes it and binds it
 * to these runs.
 */
import { type SweepResult, qualityScoreLine, qualityScoreSchema, runIdOf, sanitizeForTerminal } from '../core/index.js';
import { QualityError, scoreQuality } from '../quality/index.js';
import type { Contract } from '../contract/index.js';
import { CliError, EXIT } from './exit-codes.js';

/** Why a run has no score, as the user reads it; the runs themselves are written all the same. */
const noScore = (why: string) => new CliError(EXIT.afterMeasuring, `no quality score (the runs are kept without one, and a receipt refuses them): ${why}`);

/**
 * The result with its in-run score.
 * @throws CliError (exit 7) saying why there is no score: a server that failed or refused, or a score that does not read back
 */
export async function withInRunQuality(
  result: SweepResult,
  contract: Contract,
  target: { baseUrl: string; apiKey?: string },
  baselineUrl: string,
): Promise<SweepResult> {
  const candidateId = runIdOf(result);
  if (candidateId === null) throw noScore('the run kept no records, so there is no run for a quality score to belong to');
  let scored;
  try {
    scored = await scoreQuality({
      baseline: { baseUrl: baselineUrl, apiKey: target.apiKey },
      candidate: target,
      candidateModel: contract.model.name,
      endpoint: contract.server.endpoint === 'completions' ? 'completions' : 'chat',
      runs: { baseline: { id: null }, candidate: { id: candidateId, ...(result.serverAccount ? { account: result.serverAccount } : {}) } },
    });
  } catch (err) {
    if (!(err instanceof QualityError)) throw err;
    throw noScore(sanitizeForTerminal(err.message));
  }
  // The schema keeps what a score is and drops where the servers answered (their URLs); a score a receipt would refuse is none.
  const quality = qualityScoreSchema.safeParse(scored);
  if (!quality.success) {
    const issue = quality.error.issues[0];
    throw noScore(`the measured score does not read back as one (${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''})`);
  }
  return { ...result, quality: quality.data };
}

/** The in-run score as the terminal shows it: the value with its evaluator and scale, and what it was measured against. */
export function inRunQualityLine(result: SweepResult, baselineUrl: string): string | null {
  return result.quality === undefined ? null : `${qualityScoreLine(result.quality)}; measured in this run against ${sanitizeForTerminal(baselineUrl)}`;
}
