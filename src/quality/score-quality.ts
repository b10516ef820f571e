/**
 * `scoreQuality`: the quality score of a candidate configuration against a
 * baseline, over the network. Preflights both servers, finds the largest
 * top_logprobs both allow, asks each for every prompt's first-token logprobs,
 * asks each for the reference text's prompt logprobs, and hands the numbers to
 * core's composeQualityScore. Requests run one at a time, baseline then candidate.
 */
import { detectEngine, preflight, type Target } from '../client/index.js';
import { collectServerAccount } from '../contract/index.js';
import {
  canonicalJson,
  composeQualityScore,
  type FirstTokenPair,
  type QualityInput,
  type QualityScore,
  type ScoredSide,
  type ServerAccount,
} from '../core/index.js';
import { firstTokenTop, probeTopK, type QualityEndpoint } from './first-token.js';
import { JsonPoster } from './json-poster.js';
import { type PrefixScored, prefixScore } from './prefix-scoring.js';
import { promptLogprobs } from './prompt-logprobs.js';
import { promptSetHash, QUALITY_PROMPTS, REFERENCE_TEXT, referenceTextHash } from './prompt-set.js';
import { QualityError } from './quality-error.js';

/** Inputs of {@link scoreQuality}. */
export interface QualityOptions {
  /** The reference configuration (typically FP16). */
  baseline: Target;
  /** The configuration under test. */
  candidate: Target;
  /** Model id on the baseline, and on the candidate unless `candidateModel` is set. Default: the first model each serves. */
  model?: string;
  /** Model id on the candidate when it differs (e.g. a quantized checkpoint's name). */
  candidateModel?: string;
  /** API of the first-token requests. Default 'chat'. Perplexity always uses completions. */
  endpoint?: QualityEndpoint;
  /** Limit of each request, ms. Default 60 000. */
  timeoutMs?: number;
  /**
   * The runs the score belongs to: each side's run id (core's runIdOf) and the
   * server account that run recorded. A side whose server gives another account
   * now is refused before any prompt is sent. The baseline's id is null when the
   * score is measured inside the candidate's own run.
   */
  runs?: { baseline: { id: string | null; account?: ServerAccount }; candidate: { id: string; account?: ServerAccount } };
  /** Called after each prompt with (prompts done, prompts in the set). */
  onProgress?: (done: number, total: number) => void;
}

/** Which configuration a side was: its URL (no key), model and the largest top_logprobs it accepted. */
export interface QualityConfiguration {
  url: string;
  model: string;
  maxTopLogprobs: number;
}

/** A score with the identity of both configurations and the API used. */
export interface QualityRun extends QualityScore {
  baseline: QualityConfiguration;
  candidate: QualityConfiguration;
  endpoint: QualityEndpoint;
}

/** The model to score on a side, and the side as a receipt will check it: model, server fingerprint and engine, as a run records them. */
async function checkedSide(side: string, target: Target, model: string | undefined, timeoutMs: number): Promise<ScoredSide> {
  const r = await preflight(target, model, { timeoutMs: Math.min(timeoutMs, 10_000) });
  if (!r.ok) throw new QualityError('preflight-refused', `${side}: ${r.message}`);
  const found = await detectEngine(target, { timeoutMs: Math.min(timeoutMs, 10_000) });
  // The server's own account, as goodput run records it: a receipt matches the score to its runs by it.
  const account = await collectServerAccount(target.baseUrl, target.apiKey, r.model);
  return { model: r.model, fingerprint: r.fingerprint, engine: found.dialect.engine, engineVersion: found.version, account };
}

/**
 * Both sides' reference-text logprobs: from prompt logprobs where both servers
 * return them, else both by prefix scoring (one method for both, so the two
 * perplexities compare), else why neither works.
 */
async function scoreReference(b: JsonPoster, bModel: string, c: JsonPoster, cModel: string, k: number): Promise<QualityInput['referenceText']> {
  const echoB = await promptLogprobs(b, bModel, REFERENCE_TEXT);
  const echoC = await promptLogprobs(c, cModel, REFERENCE_TEXT);
  if (typeof echoB !== 'string' && typeof echoC !== 'string') return { baseline: echoB, candidate: echoC };
  const prefixB = await prefixScore(b, bModel, REFERENCE_TEXT, k);
  const prefixC = typeof prefixB === 'string' ? null : await prefixScore(c, cModel, REFERENCE_TEXT, k);
  if (typeof prefixB !== 'string' && prefixC !== null && typeof prefixC !== 'string') {
    // The evidence keeps each side's tokens and logprobs as every method does; the tail counts are stated once, beside them.
    const scored = (p: PrefixScored) => ({ tokens: p.tokens, logprobs: p.logprobs });
    return { baseline: scored(prefixB), candidate: scored(prefixC), prefix: { tailTokens: { baseline: prefixB.tail, candidate: prefixC.tail } } };
  }
  const why = [echoB, echoC, prefixB, prefixC].filter((r): r is string => typeof r === 'string');
  return { notRecorded: why.join('; ') };
}

/**
 * Measures the quality score (see core's QUALITY_EVALUATOR) of `candidate` against `baseline`.
 * @throws QualityError when a server cannot be reached, refuses, or returns no first-token logprobs.
 */
export async function scoreQuality(options: QualityOptions): Promise<QualityRun> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const endpoint = options.endpoint ?? 'chat';
  const measuredAt = new Date().toISOString();
  const baselineSide = await checkedSide('baseline', options.baseline, options.model, timeoutMs);
  const candidateSide = await checkedSide('candidate', options.candidate, options.candidateModel ?? options.model, timeoutMs);
  for (const [name, side, run] of [
    ['baseline', baselineSide, options.runs?.baseline],
    ['candidate', candidateSide, options.runs?.candidate],
  ] as const) {
    if (run?.account === undefined) continue;
    if (side.account === undefined || canonicalJson(side.account) !== canonicalJson(run.account)) {
      throw new QualityError(
        'preflight-refused',
        `${name}: the server's account of itself differs from the one its run recorded; score the servers that run measured`,
      );
    }
  }
  const baselineModel = baselineSide.model;
  const candidateModel = candidateSide.model;
  const b = new JsonPoster('baseline', options.baseline, timeoutMs);
  const c = new JsonPoster('candidate', options.candidate, timeoutMs);
  try {
    const probe = QUALITY_PROMPTS[0] as string;
    const kBaseline = await probeTopK(b, endpoint, baselineModel, probe);
    const kCandidate = await probeTopK(c, endpoint, candidateModel, probe);
    const k = Math.min(kBaseline, kCandidate);
    const firstToken: FirstTokenPair[] = [];
    for (const prompt of QUALITY_PROMPTS) {
      const baseline = await firstTokenTop(b, endpoint, baselineModel, prompt, k);
      const candidate = await firstTokenTop(c, endpoint, candidateModel, prompt, k);
      firstToken.push({ baseline, candidate });
      options.onProgress?.(firstToken.length, QUALITY_PROMPTS.length);
    }
    const referenceText = await scoreReference(b, baselineModel, c, candidateModel, k);
    let score: QualityScore;
    try {
      score = composeQualityScore({
        firstToken,
        referenceText,
        topLogprobs: k,
        promptSetHash: promptSetHash(),
        referenceTextHash: referenceTextHash(),
      });
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      throw new QualityError('bad-response', `the servers' logprobs cannot be scored: ${err.message}`);
    }
    return {
      ...score,
      compared: { baseline: baselineSide, candidate: candidateSide, measuredAt },
      ...(options.runs === undefined ? {} : { runs: { baseline: options.runs.baseline.id, candidate: options.runs.candidate.id } }),
      // The raw logprobs both sides returned: a reader recomputes the score from them, never reads it.
      evidence: { firstToken, referenceText },
      baseline: { url: b.target.displayUrl, model: baselineModel, maxTopLogprobs: kBaseline },
      candidate: { url: c.target.displayUrl, model: candidateModel, maxTopLogprobs: kCandidate },
      endpoint,
    };
  } finally {
    await Promise.all([b.close(), c.close()]);
  }
}
