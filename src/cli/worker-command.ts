/**
 * `goodput worker`: runs until stopped (Ctrl-C, SIGTERM), taking level shares
 * from the database's queue. Test hooks, from the environment only:
 * GOODPUT_TEST_CLOCK_SKEW_MS moves this worker's clock, GOODPUT_TEST_DB_DELAY_MS
 * slows each read of the database's clock.
 */
import { hostname } from 'node:os';
import type { Command } from 'commander';
import { sanitizeForTerminal } from '../core/index.js';
import { CliError, EXIT, untilStopped } from './exit-codes.js';
import { apiKeyFromEnv, badFlag, parseNumber } from './parse-flags.js';

interface WorkerFlags {
  databaseUrl?: string;
  name?: string;
  apiKeyEnv?: string;
  init?: boolean;
}

/** The workers' secret from GOODPUT_WORKER_SECRET, or a usage error naming `who` and how to make one. */
export async function workerSecretFromEnv(who: string): Promise<Buffer> {
  const { parseWorkerSecret, SecretError, WORKER_SECRET_ENV } = await import('../workers/index.js');
  try {
    return parseWorkerSecret(process.env[WORKER_SECRET_ENV], who);
  } catch (err) {
    if (err instanceof SecretError) throw new CliError(EXIT.usage, err.message);
    throw err;
  }
}

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('send level shares for sweeps started with --workers, coordinated through PostgreSQL (runs until stopped)')
    .option('--database-url <url>', 'the PostgreSQL the coordinator uses (or GOODPUT_DATABASE_URL)')
    .option('--name <name>', "this worker's name in the run (default: HOST-PID)")
    .option('--api-key-env <name>', "environment variable holding the servers' API key (default: GOODPUT_API_KEY); keys never go through the database")
    .option('--init', "print a new workers' secret for GOODPUT_WORKER_SECRET (give the same one to the coordinator and every worker) and exit")
    .action(async (flags: WorkerFlags) => {
      const { WORKER_SECRET_ENV, newWorkerSecret } = await import('../workers/index.js');
      if (flags.init) {
        process.stdout.write(`${newWorkerSecret()}\n`);
        process.stderr.write(
          `a new secret for ${WORKER_SECRET_ENV}: start \`goodput sweep --workers\` and every \`goodput worker\` with it; keep it out of the database and out of shell history\n`,
        );
        return;
      }
      const secret = await workerSecretFromEnv('goodput worker');
      const url = flags.databaseUrl ?? (process.env['GOODPUT_DATABASE_URL'] || undefined);
      if (url === undefined) throw badFlag('--database-url', 'is required (or set GOODPUT_DATABASE_URL)');
      const env = (name: string) => (process.env[name] === undefined ? undefined : parseNumber(name, process.env[name] as string, {}));
      const apiKey = apiKeyFromEnv(flags.apiKeyEnv, 'GOODPUT_API_KEY');
      const { runWorker, WorkerError } = await import('../workers/index.js');
      await untilStopped((signal) =>
        runWorker({
          databaseUrl: url,
          name: flags.name ?? `${hostname()}-${process.pid}`,
          signal,
          apiKey,
          secret,
          log: (line) => process.stderr.write(`${sanitizeForTerminal(line)}\n`),
          clockSkewMs: env('GOODPUT_TEST_CLOCK_SKEW_MS'),
          dbDelayMs: env('GOODPUT_TEST_DB_DELAY_MS'),
        }),
      ).catch((err: unknown) => {
        if (err instanceof WorkerError || /PostgreSQL at /.test((err as Error).message)) throw new CliError(EXIT.usage, (err as Error).message);
        throw err;
      });
    });
}
