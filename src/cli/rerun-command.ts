/**
 * `goodput rerun RESULT.json`: repeats the experiment a result recorded, from
 * the resolved contract embedded in it (corpus and tokenizer hashes are checked
 * again), then prints the contract differences (none, for a faithful rerun)
 * and the two results side by side.
 */
import type { Command } from 'commander';
import { validateContract } from '../contract/index.js';
import type { PoolingResult } from '../core/index.js';
import { readAnyResult } from './cards-command.js';
import { renderComparison } from './compare-results.js';
import { asUsageErrors, refuseReceiptLabels } from './contract-errors.js';
import { CliError, EXIT } from './exit-codes.js';
import { redactedCommand } from './parse-flags.js';
import { addRunOptions, renderPoolingRerun, runAndReport, runPoolingAndReport } from './run-command.js';
import type { RunFlags } from './run-flags.js';
import { AfterMeasuring } from './after-measuring.js';

/** An embeddings or rerank result rerun from its contract, then the two side by side. */
async function rerunPooling(path: string, original: PoolingResult, flags: RunFlags): Promise<number> {
  if (!original.contract) throw new CliError(EXIT.usage, `${path}: has no contract (it was written by goodput sweep, not goodput run), so it cannot be rerun`);
  const contract = await asUsageErrors(async () => validateContract(original.contract, `${path}: contract`, process.cwd()));
  refuseReceiptLabels(`${path}: contract`, contract);
  const { code, result } = await runPoolingAndReport(contract, flags, redactedCommand(['goodput', ...process.argv.slice(2)]));
  const out = flags.json === '-' ? process.stderr : process.stdout;
  const after = new AfterMeasuring();
  await after.step('comparing with the original', () => out.write(`\n${renderPoolingRerun(original, result, [path, 'this rerun'])}\n`));
  return after.code(code);
}

export function registerRerunCommand(program: Command): void {
  addRunOptions(program.command('rerun').description('repeat the experiment of a result written by goodput run, and compare'))
    .argument('<result.json>', 'a result written by goodput run')
    .action(async (path: string, flags: RunFlags) => {
      const any = await readAnyResult(path);
      if (any.kind === 'pooling') {
        const code = await rerunPooling(path, any.result, flags);
        if (code !== EXIT.ok) throw new CliError(code, '');
        return;
      }
      const original = any.result;
      if (!original.contract) throw new CliError(EXIT.usage, `${path}: has no contract (it was not written by goodput run), so it cannot be rerun`);
      const contract = await asUsageErrors(async () => validateContract(original.contract, `${path}: contract`, process.cwd()));
      refuseReceiptLabels(`${path}: contract`, contract);
      const { code: measured, result } = await runAndReport(contract, flags, redactedCommand(['goodput', ...process.argv.slice(2)]));
      const out = flags.json === '-' ? process.stderr : process.stdout;
      const after = new AfterMeasuring();
      await after.step('comparing with the original', () => out.write(`\n${renderComparison(original, result, [path, 'this rerun'])}\n`));
      const code = after.code(measured);
      if (code !== EXIT.ok) throw new CliError(code, '');
    });
}
