/**
 * `goodput compare RUN RUN [RUN…]`: 2–8 stored runs or result files side by
 * side (the first is the baseline): the contract differences first, one table
 * aligned on the level axis, each run's differences from the baseline with a
 * seeded bootstrap interval, and the Pareto frontiers with the capacity answer.
 */
import type { Command } from 'commander';
import { COMPARE_MIN_RUNS, capacityAt, compareRuns, defaultTarget, paretoModel } from '../web/index.js';
import { compareRunOf, loadRuns } from './compare-inputs.js';
import { renderRuns } from './compare-results.js';
import { CliError, EXIT } from './exit-codes.js';
import { type StoreCliFlags, addStoreOptions } from './store-flags.js';

export interface CompareFlags extends StoreCliFlags {
  target?: string;
}

/** A positive finite number of tok/s per user, or a usage error naming the flag. */
export function parseTarget(text: string | undefined): number | null {
  if (text === undefined) return null;
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v) || v <= 0 || v > 1e6)
    throw new CliError(EXIT.usage, `--target: '${text}' is not a speed per user in tok/s (a number above 0, at most 1000000)`);
  return v;
}

export function registerCompareCommand(program: Command): void {
  addStoreOptions(
    program
      .command('compare')
      .description('compare 2 to 8 runs (stored ids or result files; the first is the baseline): differences with confidence, Pareto frontiers')
      .argument('<runs...>', 'stored run ids, repeat sets of stored runs of one contract (4+5+6: compared over the runs), or result JSON files')
      .option('--target <tok/s>', 'the speed per user to answer "which run serves the most" at (default: the middle of the range every run covers)')
      .option('--json', 'print the comparison model as JSON'),
  ).action(async (args: string[], flags: CompareFlags) => {
    const target = parseTarget(flags.target);
    const loaded = await loadRuns(args, flags, 'goodput compare', COMPARE_MIN_RUNS);
    const runs = loaded.map(compareRunOf);
    if (flags.json) {
      const c = compareRuns(runs);
      const pareto = paretoModel(runs);
      const at = target ?? defaultTarget(pareto);
      const capacity = at === null ? null : capacityAt(pareto, at);
      process.stdout.write(
        `${JSON.stringify(
          {
            runs: runs.map((r) => r.label),
            titles: c.titles,
            contractNote: c.contractNote,
            diffs: c.diffs,
            refused: c.refused,
            axis: c.axis,
            headers: c.headers,
            rows: c.rows,
            quality: c.quality,
            // Said only of repeat sets, so a comparison of single runs prints what it printed before.
            ...(c.drawn.length > 0 ? { drawn: c.drawn } : {}),
            // Said only of runs that carry speculative decoding or energy, pools or fleet targets, for the same reason.
            ...(c.serverSide === null ? {} : { serverSide: c.serverSide }),
            ...(c.pools === null ? {} : { pools: c.pools }),
            ...(c.fleet === null ? {} : { fleet: c.fleet }),
            pareto,
            capacity,
          },
          null,
          2,
        )}\n`,
      );
      return;
    }
    process.stdout.write(`${renderRuns(runs, target)}\n`);
  });
}
