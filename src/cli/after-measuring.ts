/**
 * What follows a measurement — the in-run quality score, the result file and
 * its signature, the table, the stored run — runs step by step, each step even
 * when an earlier one failed, so a late failure never costs what was measured.
 * Each failure is said on its own line once every step has run; the exit code
 * is the first failure's (a CliError's own, e.g. 4 when the store failed, else
 * 7), or the measurement's own when every step held.
 */
import { sanitizeForTerminal } from '../core/index.js';
import { CliError, EXIT } from './exit-codes.js';
import { writeFileAtomic } from './files.js';

/** Whether a late failure keeps its own exit code: "bad input, nothing written" (2) cannot be true after a measurement. */
const ownCode = (err: unknown): boolean => err instanceof CliError && err.exitCode !== EXIT.usage && err.exitCode !== EXIT.internal;

export class AfterMeasuring {
  private readonly failed: Array<{ step: string; err: unknown }> = [];

  constructor(private readonly log: NodeJS.WritableStream = process.stderr) {}

  /** Runs one step; a failure is kept for {@link code} and the step gives undefined. */
  async step<T>(step: string, run: () => T | Promise<T>): Promise<T | undefined> {
    try {
      return await run();
    } catch (err) {
      this.failed.push({ step, err });
      return undefined;
    }
  }

  /** Says every failure, one line each, and gives the exit code: the first failure's, else `measured`. */
  code(measured: number): number {
    // A late step's own code (4: the store failed) comes with the whole story; any other failure is said with its step, once.
    const messages = this.failed.map(({ step, err }) =>
      ownCode(err)
        ? (err as CliError).message
        : `${step} failed after the measurement (${err instanceof Error ? err.message : String(err)}); the rest was written`,
    );
    for (const message of new Set(messages)) this.log.write(`goodput: ${sanitizeForTerminal(message, { keepNewlines: true })}\n`);
    const first = this.failed[0];
    if (first === undefined) return measured;
    return ownCode(first.err) ? (first.err as CliError).exitCode : EXIT.afterMeasuring;
  }
}

/**
 * The result as JSON to `json` (a file, or stdout with `-`), and the table on
 * stdout unless the JSON went there, each a step of `after`.
 * @returns the file written, or undefined (none asked for, stdout, or the write failed)
 */
export async function writeResult(after: AfterMeasuring, result: unknown, json: string | undefined, table: () => string): Promise<string | undefined> {
  const text = JSON.stringify(result, null, 2) + '\n';
  if (json === '-') {
    process.stdout.write(text);
    return undefined;
  }
  const wrote =
    json === undefined
      ? undefined
      : await after.step('writing the result file', async () => {
          await writeFileAtomic(json, text);
          return json;
        });
  await after.step('rendering the table', () => process.stdout.write(table() + '\n'));
  return wrote;
}
