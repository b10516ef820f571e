/**
 * `goodput rerun RESULT.json`: repeats the experiment a result recorded, from
 * the resolved contract embedded in it (corpus and tokenizer hashes are checked
 * again), then prints the contract differences (none, for a faithful rerun)
 * and the two results side by side.
 */
import type { Command } from 'commander';
import { type Contract, type RunPolicy, recordedPolicy, validateContract } from '../contract/index.js';
import { readAnyResult } from './cards-command.js';
import { renderComparison } from './compare-results.js';
import { asUsageErrors, refuseReceiptLabels } from './contract-errors.js';
import { CliError, EXIT } from './exit-codes.js';
import { redactedCommand } from './parse-flags.js';
import { addRunOptions, renderPoolingRerun, runAndReport, runPoolingAndReport } from './run-command.js';
import type { RunFlags } from './run-flags.js';
import { AfterMeasuring } from './after-measuring.js';

/** Each kind a contract runs, rerun: its run, the two results side by side, and why a result without a contract cannot be. */
const RERUNS = {
  // A text run is redone under the pacing and retries its result recorded (its contract's, or of a result of before contracts declared them).
  text: { run: runAndReport, beside: renderComparison, noContract: 'it was not written by goodput run' },
  pooling: { run: runPoolingAndReport, beside: renderPoolingRerun, noContract: 'it was written by goodput sweep, not goodput run' },
};

type Rerun<R> = {
  run(contract: Contract, flags: RunFlags, command: string, policy?: RunPolicy): Promise<{ code: number; result: R }>;
  beside(a: R, b: R, names: [string, string]): string;
  noContract: string;
};

export function registerRerunCommand(program: Command): void {
  addRunOptions(program.command('rerun').description('repeat the experiment of a result written by goodput run, and compare'))
    .argument('<result.json>', 'a result written by goodput run')
    .action(async (path: string, flags: RunFlags) => {
      const { kind, result: original } = await readAnyResult(path);
      const rerun = RERUNS[kind] as Rerun<typeof original>;
      if (!original.contract) throw new CliError(EXIT.usage, `${path}: has no contract (${rerun.noContract}), so it cannot be rerun`);
      const contract = await asUsageErrors(async () => validateContract(original.contract, `${path}: contract`, process.cwd()));
      refuseReceiptLabels(`${path}: contract`, contract);
      const policy = kind === 'text' ? recordedPolicy(contract, (original as { run: Parameters<typeof recordedPolicy>[1] }).run) : undefined;
      const { code: measured, result } = await rerun.run(contract, flags, redactedCommand(['goodput', ...process.argv.slice(2)]), policy);
      const out = flags.json === '-' ? process.stderr : process.stdout;
      const after = new AfterMeasuring();
      await after.step('comparing with the original', () => out.write(`\n${rerun.beside(original, result, [path, 'this rerun'])}\n`));
      const code = after.code(measured);
      if (code !== EXIT.ok) throw new CliError(code, '');
    });
}
