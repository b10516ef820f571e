#!/usr/bin/env node
/**
 * The goodput CLI. Thin shells over the programmatic API; every error ends as
 * one line on stderr and an exit code from exit-codes.ts.
 */
import { Command, CommanderError } from 'commander';
import { registerSimCommand } from '../sim/index.js';
import { sanitizeForTerminal } from '../core/index.js';
import { SweepError, TOOL_VERSION } from '../runner/index.js';
import { registerCardsCommand } from './cards-command.js';
import { registerDemoCommand } from './demo-command.js';
import { registerQualityCommand } from './quality-command.js';
import { CliError, EXIT } from './exit-codes.js';
import { registerSweepCommand } from './sweep-command.js';
import { registerRunCommand } from './run-command.js';
import { registerRerunCommand } from './rerun-command.js';
import { registerCapacityCommand } from './capacity-command.js';
import { registerExportCommand } from './export-command.js';
import { registerServeCommand } from './serve-command.js';
import { registerServersCommand } from './servers-command.js';
import { registerRunsCommand } from './runs-command.js';
import { registerReceiptCommand } from './receipt-command.js';
import { registerPublishCommand } from './publish-command.js';

export function buildProgram(): Command {
  const program = new Command('goodput')
    .description('Benchmark OpenAI-compatible LLM inference servers: concurrency sweeps, per-token timing, cost and goodput.')
    .version(TOOL_VERSION)
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)');
  registerSweepCommand(program);
  registerDemoCommand(program);
  registerCardsCommand(program);
  registerRunCommand(program);
  registerRerunCommand(program);
  registerCapacityCommand(program);
  registerExportCommand(program);
  registerQualityCommand(program);
  registerSimCommand(program);
  registerServeCommand(program);
  registerServersCommand(program);
  registerRunsCommand(program);
  registerReceiptCommand(program);
  registerPublishCommand(program);
  for (const c of program.commands) c.exitOverride();
  return program;
}

function exitCodeOf(err: unknown): { code: number; message: string } {
  if (err instanceof CommanderError) {
    const ok = err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help';
    return { code: ok ? EXIT.ok : EXIT.usage, message: '' };
  }
  if (err instanceof CliError) return { code: err.exitCode, message: err.message };
  if (err instanceof SweepError) return { code: EXIT.usage, message: err.message };
  return { code: EXIT.internal, message: err instanceof Error ? err.stack ?? err.message : String(err) };
}

try {
  await buildProgram().parseAsync(process.argv);
} catch (err) {
  const { code, message } = exitCodeOf(err);
  // Messages quote servers and files (model ids, error bodies): no escape sequence reaches the terminal.
  if (message) process.stderr.write(`goodput: ${sanitizeForTerminal(message, { keepNewlines: true })}\n`);
  process.exitCode = code;
}
