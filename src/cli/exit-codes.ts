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
  /** Measured, but no level was valid (every level had failed requests): the result was still written. */
  noValidLevel: 5,
  /** Stopped mid-sweep by our own side going away (the workers' database, a lost thread or worker), not the server: finished levels were kept and written. */
  clientStopped: 6,
  /** Measured and written, but a step after the measurement failed (the in-run quality score, the result file, the table): the message says which, and everything else was written and stored. */
  afterMeasuring: 7,
  /** goodput reproduce: the reader's runs were made, but a claim of the receipt does not hold (each is named). */
  notReproduced: 8,
  /** Stopped by the user (SIGINT/SIGTERM): finished levels were kept and written. */
  stopped: 130,
} as const;

/**
 * A finished run's code: how it ended, then whether any level it measured is valid.
 * @param byUser whether a stop was the user's (a signal) rather than our side going away
 */
export function exitCodeOf(result: { run: { status: string }; levels: readonly { invalid: boolean }[] }, byUser = true): number {
  if (result.run.status === 'stopped') return byUser ? EXIT.stopped : EXIT.clientStopped;
  if (result.run.status !== 'complete') return EXIT.serverFailed;
  return result.levels.some((l) => !l.invalid) ? EXIT.ok : EXIT.noValidLevel;
}

/** The last line of a finished run that kept invalid levels, or null when every level is valid. */
export function invalidLevelsLine(levels: readonly { invalid: boolean; load?: { label: string } | undefined; concurrency: number }[]): string | null {
  const bad = levels.filter((l) => l.invalid);
  if (bad.length === 0) return null;
  const names = bad.map((l) => l.load?.label ?? `concurrency ${l.concurrency}`).join(', ');
  return bad.length === levels.length
    ? `No valid level: every level had failed requests (${names}); exit code ${EXIT.noValidLevel}.`
    : `${bad.length} of ${levels.length} levels invalid (${names}): their figures are not comparable.`;
}

/** An error the CLI reports as one line and a given exit code. */
export class CliError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Runs `fn` with a signal that SIGINT and SIGTERM abort (the user's stop), the handlers removed after, whatever happened. */
export async function untilStopped<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ctrl = new AbortController();
  const onSignal = () => ctrl.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await fn(ctrl.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
