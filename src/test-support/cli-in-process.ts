/**
 * The commands in this process (no node/tsx start-up per call): a fresh
 * Commander program with the commands a test needs, stdout and stderr
 * captured, errors mapped to exit codes as `goodput` does. For what must be a
 * separate process (kill -9, a second process, serve), use goodput-process.ts.
 */
import { Command, CommanderError } from 'commander';
import {
  CliError,
  registerCardsCommand,
  registerPublishCommand,
  registerReceiptCommand,
  registerRunsCommand,
  registerServersCommand,
  registerSweepCommand,
  registerVerifyCommand,
  registerReproduceCommand,
  registerK8sCommand,
  registerKeysCommand,
  registerCompareCommand,
  registerRunCommand,
  registerReplayCommand,
  registerSessionsCommand,
  registerCapacityCommand,
  registerExportCommand,
  registerReportCommand,
  registerDecideCommand,
  guardTerminalWrites,
} from '../cli/index.js';
import { sanitizeForTerminal } from '../core/index.js';
import { SweepError } from '../runner/index.js';
import type { Ran } from './goodput-process.js';

/** Runs `goodput ARGS` in-process with `env` added to process.env for the call. */
export async function cli(args: readonly string[], env: Record<string, string> = {}): Promise<Ran> {
  const program = new Command('goodput').exitOverride();
  for (const register of [
    registerServersCommand,
    registerRunsCommand,
    registerCardsCommand,
    registerSweepCommand,
    registerReceiptCommand,
    registerPublishCommand,
    registerVerifyCommand,
    registerReproduceCommand,
    registerK8sCommand,
    registerKeysCommand,
    registerCompareCommand,
    registerRunCommand,
    registerReplayCommand,
    registerSessionsCommand,
    registerCapacityCommand,
    registerExportCommand,
    registerReportCommand,
    registerDecideCommand,
  ])
    register(program);
  for (const c of program.commands)
    c.exitOverride().configureOutput({
      writeErr: (s) => {
        stderr += s;
      },
    });
  let stdout = '';
  let stderr = '';
  const write = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  // What the terminal gets passes the output guard main.ts installs, here as there.
  guardTerminalWrites(process.stdout, true);
  guardTerminalWrites(process.stderr, true);
  let code = 0;
  try {
    await program.parseAsync(['node', 'goodput', ...args]);
  } catch (err) {
    if (err instanceof CliError) {
      code = err.exitCode;
      if (err.message) stderr += `goodput: ${sanitizeForTerminal(err.message, { keepNewlines: true })}\n`;
    } else if (err instanceof SweepError) {
      code = 2;
      stderr += `goodput: ${sanitizeForTerminal(err.message, { keepNewlines: true })}\n`;
    } else if (err instanceof CommanderError) code = 2;
    else throw err;
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  return { code, stdout, stderr };
}
