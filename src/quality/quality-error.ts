/**
 * A quality evaluation that cannot produce a score throws one coded QualityError
 * whose message is a sentence a user can act on (never containing an API key).
 * The CLI maps every code to one exit code, in cli/.
 */

/** Why no score could be made. */
export type QualityErrorCode =
  /** A server is not there, not OpenAI-compatible, refuses the key, or lacks the model. */
  | 'preflight-refused'
  /** A server stopped answering (connection error or timeout) during the evaluation. */
  | 'unreachable'
  /** A server answered an error status to a request the evaluation cannot do without. */
  | 'http-error'
  /** A server returns no first-token logprobs, so no KL can be measured. */
  | 'no-logprobs'
  /** A server's answer was not in any logprobs shape we know. */
  | 'bad-response';

/** A broken evaluation; `message` names the side (baseline/candidate) and the URL. */
export class QualityError extends Error {
  constructor(
    readonly code: QualityErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'QualityError';
  }
}
