/**
 * A broken run throws a coded SweepError (a failed request is data, not an error).
 * Exit codes for each code are mapped once, in cli/.
 */
export type SweepErrorCode = 'bad-input' | 'preflight-refused' | 'client-failed';

export class SweepError extends Error {
  constructor(readonly code: SweepErrorCode, message: string) {
    super(message);
    this.name = 'SweepError';
  }
}
