/**
 * `goodput demo` (and `npm start`): the simulator in its own process on a free
 * port, a short sweep against it, the table and the cards, then the simulator stops.
 */
import type { Command } from 'commander';
import { EXIT, CliError } from './exit-codes.js';
import { spawnSimProcess } from '../sim/index.js';
import { addSweepOptions, sweepAndReport } from './sweep-command.js';
import { specFromFlags, toolsFromFlags } from './text-view.js';
import type { SweepFlags } from './sweep-flags.js';
import { saveTarget } from './save-run.js';
import { observeFromFlags } from './observe-flags.js';
import { spendGuardFromFlags } from './spend-guard.js';

/** A fast simulated server so the demo takes seconds: 30 ms + 0.02 ms/token prefill, 4 ms decode steps. */
export const DEMO_SIM_FLAGS = ['--prefill-base-ms', '30', '--prefill-ms-per-token', '0.02', '--decode-step-ms', '4', '--decode-ms-per-extra-seq', '0.15'];

export function registerDemoCommand(program: Command): void {
  const cmd = program.command('demo').description('start the built-in simulator, sweep it (levels 1,2,4,8,16) and show the results');
  addSweepOptions(cmd, false);
  cmd.action(async (flags: SweepFlags) => {
    const sim = await spawnSimProcess(DEMO_SIM_FLAGS);
    process.stderr.write(`simulator started at ${sim.url} (its own process)\n`);
    try {
      const spec = { ...specFromFlags({ ...flags, url: [sim.url] }, process.argv.slice(2)), ...(await toolsFromFlags(flags)) };
      const { code } = await sweepAndReport(spec, {
        json: flags.json,
        raw: flags.raw,
        save: saveTarget(flags, true, 'goodput demo'),
        spend: spendGuardFromFlags(flags),
        observe: observeFromFlags(flags),
      });
      if (code !== EXIT.ok) throw new CliError(code, '');
    } finally {
      await sim.stop();
    }
  });
}
