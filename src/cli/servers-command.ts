/**
 * `goodput servers add|list|check|remove`: the server registry. Adding
 * probes the server (a stopped one is registered, as stopped); the API key is
 * stored but never printed.
 */
import type { Command } from 'commander';
import { sanitizeForTerminal as clean } from '../core/index.js';
import { type ServerInput, type ServerView, serverInputSchema } from '../store/index.js';
import { CliError, EXIT } from './exit-codes.js';
import { apiKeyFromEnv, parseNumber } from './parse-flags.js';
import { type StoreCliFlags, addStoreOptions, withCatalog } from './store-flags.js';

interface AddFlags extends StoreCliFlags {
  model?: string;
  engine?: string;
  gpu?: string;
  hourlyCost?: string;
  apiKey?: string;
  apiKeyEnv?: string;
}

/** One line per server: name, state, what it answers with, when it was checked. */
export function serverLine(s: ServerView): string {
  const state = s.status.state === 'running' ? `running (model ${s.status.model ?? '?'})` : s.status.state;
  const extra = [s.gpuLabel, s.hourlyCostUsd === null ? null : `$${s.hourlyCostUsd.toFixed(2)}/h`, s.engine, s.hasApiKey ? 'API key set' : null]
    .filter(Boolean)
    .join(' · ');
  const detail = s.status.detail ? `\n    ${s.status.detail}` : '';
  // Model ids and probe details are the server's words: sanitised, and kept to their own line.
  return (
    clean(`${s.name.padEnd(16)} ${s.baseUrl.padEnd(28)} ${state} · checked ${s.status.checkedAt}${extra ? ` · ${extra}` : ''}`) +
    (detail ? `\n    ${clean(detail.trim())}` : '')
  );
}

function inputOf(name: string, url: string, f: AddFlags): ServerInput {
  const apiKey = f.apiKey ?? apiKeyFromEnv(f.apiKeyEnv);
  const parsed = serverInputSchema.safeParse({
    name,
    baseUrl: url,
    apiKey,
    model: f.model,
    engine: f.engine,
    gpuLabel: f.gpu,
    hourlyCostUsd: f.hourlyCost === undefined ? undefined : parseNumber('--hourly-cost', f.hourlyCost, { min: 0 }),
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const flag =
    { name: '<name>', baseUrl: '<url>', apiKey: '--api-key', model: '--model', engine: '--engine', gpuLabel: '--gpu', hourlyCostUsd: '--hourly-cost' }[
      String(issue?.path[0])
    ] ?? String(issue?.path[0]);
  throw new CliError(EXIT.usage, `${flag}: ${issue?.message ?? 'invalid'}`);
}

const print = (json: boolean | undefined, value: unknown, text: string) =>
  process.stdout.write(json ? JSON.stringify(value, null, 2) + '\n' : clean(text, { keepNewlines: true }) + '\n');

export function registerServersCommand(program: Command): void {
  const servers = program.command('servers').description('the server registry: add, list, check and remove servers');
  addStoreOptions(
    servers
      .command('add')
      .description('register a server (it is probed now; a stopped one is registered as stopped)')
      .argument('<name>', 'a short name: letters, digits, ".", "_" or "-"')
      .argument('<url>', 'base URL of the OpenAI-compatible server, e.g. http://127.0.0.1:8000')
      .option('--model <name>', 'model to benchmark (default: the first the server lists)')
      .option('--engine <label>', 'engine label, e.g. vllm 0.11')
      .option('--gpu <label>', 'GPU label for the Platform card, e.g. "1× H100 80GB"')
      .option('--hourly-cost <usd>', 'hardware cost per hour; enables cost per 1M output tokens')
      .option('--api-key-env <name>', 'environment variable holding the API key (stored; never shown)')
      .option('--api-key <key>', 'the API key itself (prefer --api-key-env: flags show in process lists)')
      .option('--json', 'print the server as JSON'),
  ).action(async (name: string, url: string, f: AddFlags) => {
    const input = inputOf(name, url, f);
    const s = await withCatalog(f, 'goodput servers add', (c) => c.addServer(input));
    print(f.json, s, `registered ${serverLine(s)}`);
  });
  addStoreOptions(servers.command('list').description('list registered servers with their last known status').option('--json', 'print JSON')).action(
    async (f: StoreCliFlags) => {
      const list = await withCatalog(f, 'goodput servers list', (c) => c.listServers(), true);
      print(f.json, list, list.length === 0 ? 'no servers registered; add one with: goodput servers add NAME URL' : list.map(serverLine).join('\n'));
    },
  );
  addStoreOptions(
    servers
      .command('check')
      .description('probe servers now (all when none is named) and store their status')
      .argument('[names...]', 'servers to check')
      .option('--json', 'print JSON'),
  ).action(async (names: string[], f: StoreCliFlags) => {
    const checked = await withCatalog(f, 'goodput servers check', async (c) =>
      names.length === 0 ? c.checkAllServers() : Promise.all(names.map((n) => c.checkServer(n))),
    );
    print(f.json, checked, checked.length === 0 ? 'no servers registered' : checked.map(serverLine).join('\n'));
  });
  addStoreOptions(servers.command('remove').description('remove a server (its runs are kept)').argument('<name>', 'server name or id')).action(
    async (name: string, f: StoreCliFlags) => {
      const s = await withCatalog(f, 'goodput servers remove', (c) => c.removeServer(name));
      process.stdout.write(clean(`removed ${s.name} (${s.baseUrl}); its runs are kept`) + '\n');
    },
  );
}
