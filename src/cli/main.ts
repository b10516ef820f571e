#!/usr/bin/env node
/**
 * The goodput CLI. Thin shells over the programmatic API; every error ends as
 * one line on stderr and an exit code from exit-codes.ts.
 */
import { readFile } from 'node:fs/promises';
import { CommanderError } from 'commander';
import { CliError, EXIT } from './exit-codes.js';

async function exitCodeOf(err: unknown): Promise<{ code: number; message: string }> {
  if (err instanceof CommanderError) {
    const ok = err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help';
    return { code: ok ? EXIT.ok : EXIT.usage, message: '' };
  }
  if (err instanceof CliError) return { code: err.exitCode, message: err.message };
  const { SweepError } = await import('../runner/index.js');
  if (err instanceof SweepError) return { code: EXIT.usage, message: err.message };
  return { code: EXIT.internal, message: err instanceof Error ? (err.stack ?? err.message) : String(err) };
}

/**
 * `goodput --help` lists every command, which would load every module, and
 * `--version` needs none: the help text rendered at build time (help.txt
 * beside this file) and the package's version are printed without loading any.
 */
async function withoutCommands(argv: readonly string[]): Promise<string | null> {
  if (argv.length !== 3) return null;
  if (argv[2] === '--version' || argv[2] === '-V') {
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    return `${pkg.version}\n`;
  }
  if (!['--help', '-h', 'help'].includes(argv[2] as string)) return null;
  return readFile(new URL('./help.txt', import.meta.url), 'utf8').catch(() => null);
}

// Every command's output to a terminal, from every renderer, passes the one sanitiser first.
(await import('./terminal-guard.js')).guardTerminalWrites(process.stdout);
(await import('./terminal-guard.js')).guardTerminalWrites(process.stderr);

try {
  const text = await withoutCommands(process.argv);
  if (text !== null) process.stdout.write(text);
  else await (await (await import('./program.js')).buildProgram(process.argv)).parseAsync(process.argv);
} catch (err) {
  const { code, message } = await exitCodeOf(err);
  const { sanitizeForTerminal } = await import('../core/index.js');
  // Messages quote servers and files (model ids, error bodies): no escape sequence reaches the terminal.
  if (message) process.stderr.write(`goodput: ${sanitizeForTerminal(message, { keepNewlines: true })}\n`);
  process.exitCode = code;
}
