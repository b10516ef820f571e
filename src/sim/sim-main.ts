/**
 * Standalone entry of the simulator process (`node sim-main.js sim [flags]`), used by
 * `spawnSimProcess` so the simulator runs without the rest of the CLI.
 */
import { Command } from 'commander';
import { registerSimCommand } from './sim-command.js';

const program = new Command('goodput');
registerSimCommand(program);
await program.parseAsync(process.argv);
