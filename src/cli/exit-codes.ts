/** Every exit code the CLI uses, mapped in one place. */
export const EXIT = {
  ok: 0,
  /** Something unexpected broke (a bug): the message says what. */
  internal: 1,
  /** Bad input or a server that cannot be benchmarked: nothing was run or written. */
  usage: 2,
  /** The server failed mid-sweep: finished levels were kept and written. */
  serverFailed: 3,
  /** Measured, but the store failed under the sweep: the files written are whole; `goodput runs import` stores them. */
  notStored: 4,
  /** Stopped by the user (SIGINT/SIGTERM): finished levels were kept and written. */
  stopped: 130,
} as const;

/** An error the CLI reports as one line and a given exit code. */
export class CliError extends Error {
  constructor(readonly exitCode: number, message: string) {
    super(message);
    this.name = 'CliError';
  }
}
