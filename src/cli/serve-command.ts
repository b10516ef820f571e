/**
 * `goodput serve`: the Benchmarks page and its API on 127.0.0.1:7878 by
 * default. It holds the store; while it runs, other goodput commands go
 * through it. Ctrl-C stops runs in flight (their finished levels are kept).
 */
import type { Command } from 'commander';
import { ServeError, startServe } from '../api/index.js';
import { type LockHolder, type Store, StoreError, openStore, resolveStoreLocation } from '../store/index.js';
import { CliError, EXIT } from './exit-codes.js';
import { parseNumber } from './parse-flags.js';
import { addStoreOptions, cliErrorOf } from './store-flags.js';

interface ServeFlags {
  host: string;
  port: string;
  token?: string;
  data?: string;
  databaseUrl?: string;
}

async function open(f: ServeFlags): Promise<Store> {
  try {
    return await openStore(resolveStoreLocation(f).location, { kind: 'serve', command: 'goodput serve' });
  } catch (err) {
    const holder = (err as { holder?: LockHolder }).holder;
    if (err instanceof StoreError && holder?.kind === 'serve') {
      throw new CliError(EXIT.usage, `goodput serve is already running for this store${holder.url ? ` at ${holder.url}/` : ''} (pid ${holder.pid})`);
    }
    throw cliErrorOf(err);
  }
}

export function registerServeCommand(program: Command): void {
  addStoreOptions(
    program
      .command('serve')
      .description('serve the Benchmarks page and its API (default http://127.0.0.1:7878/)')
      .option('--host <address>', 'address to bind; anything but loopback requires --token', '127.0.0.1')
      .option('--port <n>', 'port (0 picks a free one)', '7878')
      .option('--token <secret>', 'required on every request (or GOODPUT_TOKEN); open the page as /?token=<secret>'),
  ).action(async (f: ServeFlags) => {
    const port = parseNumber('--port', f.port, { integer: true, min: 0 });
    const token = f.token ?? (process.env['GOODPUT_TOKEN'] || null);
    const store = await open(f);
    let serving;
    try {
      serving = await startServe({ store, host: f.host, port, token });
    } catch (err) {
      await store.close();
      throw err instanceof ServeError ? new CliError(EXIT.usage, err.message) : err;
    }
    process.stdout.write(
      `goodput serve: ${serving.pageUrl}\n${token === null ? '(open the page from this address once: it keeps the key, and writes without it are refused)\n' : ''}store: ${store.description}\nCtrl-C stops it (runs in flight stop cleanly; their finished levels are kept)\n`,
    );
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    await serving.close();
    await store.close();
  });
}
