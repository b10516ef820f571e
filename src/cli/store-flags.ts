/**
 * What the store commands share: the `--data` / `--database-url` flags,
 * opening the Catalog (directly, or through a running `goodput serve`), and
 * turning store and API errors into CLI errors with their exit codes.
 */
import type { Command } from 'commander';
import { ApiError, type Catalog, openCatalog } from '../runs/index.js';
import { type StoreFlags, StoreError } from '../store/index.js';
import { CliError, EXIT } from './exit-codes.js';

export interface StoreCliFlags extends StoreFlags {
  json?: boolean;
}

/** `--data DIR` and `--database-url URL`. */
export function addStoreOptions(cmd: Command): Command {
  return cmd
    .option('--data <dir>', 'embedded database directory (default: ~/.goodput/db, or GOODPUT_DATA)')
    .option('--database-url <url>', 'PostgreSQL instead of the embedded database (or GOODPUT_DATABASE_URL)');
}

/** Flag names for the fields of store and API messages. */
const FLAG_OF: Record<string, string> = {
  data: '--data',
  databaseUrl: '--database-url',
  name: '<name>',
  baseUrl: '<url>',
  apiKey: '--api-key',
  model: '--model',
  engine: '--engine',
  gpuLabel: '--gpu',
  hourlyCostUsd: '--hourly-cost',
  serverId: '--url',
};

/** A store or API error as a CliError: bad input, conflicts and a busy store exit 2; anything else 1. */
export function cliErrorOf(err: unknown): unknown {
  if (err instanceof StoreError || err instanceof ApiError) {
    const internal = err instanceof ApiError ? err.code === 'internal' : err.code === 'corrupt';
    const flag = err.field ? FLAG_OF[err.field] : undefined;
    const message = flag && err.code === 'bad-input' ? `${flag}: ${err.message}` : err.message;
    return new CliError(internal ? EXIT.internal : EXIT.usage, message);
  }
  return err;
}

/**
 * Opens the Catalog, runs `fn`, closes it; errors become CLI errors. A command
 * that only reads says so: it then also reads through a sweep that holds the store.
 */
export async function withCatalog<T>(flags: StoreFlags, command: string, fn: (c: Catalog) => Promise<T>, readOnly = false): Promise<T> {
  let catalog: Catalog | null = null;
  try {
    catalog = await openCatalog({ data: flags.data, databaseUrl: flags.databaseUrl, command, readOnly });
    return await fn(catalog);
  } catch (err) {
    throw cliErrorOf(err);
  } finally {
    await catalog?.close();
  }
}
