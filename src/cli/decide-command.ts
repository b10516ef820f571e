/**
 * `goodput decide SELF PROVIDER`: a self-hosted run and a run against a priced
 * provider (stored run ids or result files), side by side at the same workload
 * and SLO — goodput, TTFT/TPOT percentiles, cost per successful 1M output
 * tokens on each side — and the break-even utilisation and monthly volume,
 * every assumption beside it. Two runs of different workloads or SLOs are
 * refused, naming the field.
 */
import type { Command } from 'commander';
import { DecideRefused, type Decision, decide, decisionLines, sanitizeForTerminal as clean } from '../core/index.js';
import { loadRuns } from './compare-inputs.js';
import { CliError, EXIT } from './exit-codes.js';
import { type StoreCliFlags, addStoreOptions } from './store-flags.js';

interface DecideFlags extends StoreCliFlags {
  json?: boolean;
}

/** The decision of two loaded runs, or a usage error naming why they are not one decision. */
export async function decisionOf(args: readonly string[], flags: StoreCliFlags): Promise<Decision> {
  if (args.length !== 2) throw new CliError(EXIT.usage, `goodput decide takes 2 runs (SELF PROVIDER), not ${args.length}`);
  const [self, provider] = await loadRuns(args, flags, 'goodput decide', 2);
  try {
    return decide(
      { label: `self-hosted (${self?.label})`, result: self?.result as never },
      { label: `provider (${provider?.label})`, result: provider?.result as never },
    );
  } catch (err) {
    if (err instanceof DecideRefused) throw new CliError(EXIT.usage, `goodput decide: refused: ${err.message}`);
    throw err;
  }
}

export function registerDecideCommand(program: Command): void {
  addStoreOptions(
    program
      .command('decide')
      .description('self-host or pay a provider: both costs per successful 1M tokens at one workload and SLO, and the break-even')
      .argument('<self>', 'the self-hosted run (stored id or result file), costed from its hourly cost and utilisation')
      .argument('<provider>', 'the provider run (stored id or result file), run with --provider-price')
      .option('--json', 'print the decision as JSON'),
  ).action(async (self: string, provider: string, flags: DecideFlags) => {
    const d = await decisionOf([self, provider], flags);
    if (flags.json) process.stdout.write(`${JSON.stringify(d, null, 2)}\n`);
    else
      process.stdout.write(
        `${decisionLines(d)
          .map((l) => clean(l))
          .join('\n')}\n`,
      );
  });
}
