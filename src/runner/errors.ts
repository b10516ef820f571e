/**
 * A broken run throws a coded SweepError (a failed request is data, not an error).
 * Exit codes for each code are mapped once, in cli/.
 * 'client-stopped' is thrown by a level whose measuring side went away mid-level
 * (the workers' database): the sweep ends there as stopped, keeping the levels it finished.
 * So does 'client-failed' (a client thread or worker lost) once a level has finished;
 * before the first, nothing was measured and it is an error.
 */
export type SweepErrorCode = 'bad-input' | 'preflight-refused' | 'client-failed' | 'client-stopped';

export class SweepError extends Error {
  constructor(
    readonly code: SweepErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SweepError';
  }
}
