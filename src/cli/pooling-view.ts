/**
 * `goodput sweep --endpoint embeddings|rerank`: the sweep flags that apply to a
 * non-streaming endpoint → a pooling spec → runSweep (over `--workers` too)
 * → table, JSON and raw records. Flags that only mean something for text generation are refused
 * by name rather than ignored.
 */
import type { Command } from 'commander';
import { type PoolingEndpoint, type PoolingResult, sanitizeForTerminal as clean } from '../core/index.js';
import { type ClientsOf, type PoolingSpecInput, type SweepEvent, runSweep } from '../runner/index.js';
import { EXIT } from './exit-codes.js';
import { sayWritten, writeRecords } from './files.js';
import { AfterMeasuring, writeResult } from './after-measuring.js';
import { apiKeyFromEnv, badFlag, parseLevels, parseUrl, redactedCommand } from './parse-flags.js';
import { addRunOptions, flagNumber, flagNumberOr, groupKeys } from './option-flags.js';
import { renderPoolingResult } from './render-pooling.js';
import { type SaveTarget, discardIfNothingFinished, startSaving } from './save-run.js';
import type { SweepFlags } from './sweep-flags.js';

/** Flags of text generation that a non-streaming endpoint has no use for (by commander key and flag). */
const TEXT_ONLY: ReadonlyArray<[string, string]> = [
  ['tools', '--tools'],
  ['jsonSchema', '--json-schema'],
  ['baselineRate', '--baseline-rate'],
  ['outputTokens', '--output-tokens'],
  ['thinking', '--thinking'],
  ['temperature', '--temperature'],
  ['dcgmUrl', '--dcgm-url'],
  ['metricsUrl', '--metrics-url'],
  // How requests arrive: a pooling sweep runs closed loops only.
  ...groupKeys('arrival').map(({ key, flag }): [string, string] => [key, flag]),
];

/** The pooling flags: how many inputs or documents one request carries, and the rerank query's length. */
export interface PoolingFlags {
  batchSize?: string;
  documents?: string;
  queryTokens?: string;
  latencySlo?: string;
  route?: string;
}

/** `--latency-slo p95:200` → the objective, or a CliError naming the flag. */
export function parseLatencySlo(text: string): { p: number; maxMs: number } {
  const m = /^p(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(text.trim());
  const p = Number(m?.[1]);
  const maxMs = Number(m?.[2]);
  if (!m || !(p > 0 && p <= 100) || !(maxMs > 0)) throw badFlag('--latency-slo', `'${text}' is not pP:MS with 0 < P ≤ 100 and MS > 0, e.g. p95:200`);
  return { p, maxMs };
}

/** `--batch-size`, `--documents` and `--query-tokens` given to a text endpoint: refused naming the flag. */
export function refusePoolingFlags(f: PoolingFlags, endpoint: string): void {
  if (f.batchSize !== undefined) throw badFlag('--batch-size', `needs --endpoint embeddings (not ${endpoint})`);
  if (f.documents !== undefined) throw badFlag('--documents', `needs --endpoint rerank (not ${endpoint})`);
  if (f.queryTokens !== undefined) throw badFlag('--query-tokens', `needs --endpoint rerank (not ${endpoint})`);
  if (f.latencySlo !== undefined) throw badFlag('--latency-slo', `needs --endpoint embeddings or rerank (not ${endpoint}); text SLOs live in contracts`);
  if (f.route !== undefined) throw badFlag('--route', `needs --endpoint embeddings or rerank (not ${endpoint})`);
}

/** Flags → pooling spec input, or a CliError naming the flag. `given` says which flags the user set. */
export function poolingSpecFromFlags(
  f: SweepFlags & PoolingFlags,
  endpoint: PoolingEndpoint,
  argv: readonly string[],
  given: (key: string) => boolean,
): PoolingSpecInput {
  for (const [key, flag] of TEXT_ONLY) if (given(key)) throw badFlag(flag, `does not apply to --endpoint ${endpoint}`);
  if (endpoint === 'embeddings' && (f.documents !== undefined || f.queryTokens !== undefined))
    throw badFlag(f.documents !== undefined ? '--documents' : '--query-tokens', 'needs --endpoint rerank');
  if (endpoint === 'rerank' && f.batchSize !== undefined) throw badFlag('--batch-size', 'needs --endpoint embeddings (rerank takes --documents)');
  const items = endpoint === 'rerank' ? flagNumberOr('documents', f.documents) : flagNumberOr('batchSize', f.batchSize);
  const apiKey = f.apiKey ?? apiKeyFromEnv(f.apiKeyEnv, 'GOODPUT_API_KEY');
  return {
    url: parseUrl('--url', f.url),
    apiKey: apiKey === '' ? undefined : apiKey,
    model: f.model,
    endpoint,
    ...(f.route === undefined ? {} : { route: f.route }),
    clientBudgetMs: flagNumber('clientBudgetMs', f.clientBudgetMs),
    clientThreads: f.clientThreads === 'auto' ? 'auto' : flagNumber('clientThreads', f.clientThreads),
    engine: f.engine as PoolingSpecInput['engine'],
    levels: parseLevels('--levels', f.levels),
    itemsPerRequest: items,
    itemTokens: flagNumber('promptTokens', f.promptTokens),
    queryTokens: flagNumberOr('queryTokens', f.queryTokens),
    tokenizer:
      f.tokenizer === undefined || f.tokenizer === 'auto' || f.tokenizer === 'approximate'
        ? { kind: f.tokenizer ?? 'auto' }
        : { kind: 'file', path: f.tokenizer },
    requestsPerLevel: f.requestsPerLevel === 'auto' ? 'auto' : flagNumber('requestsPerLevel', f.requestsPerLevel),
    warmup: flagNumber('warmup', f.warmup),
    seed: flagNumber('seed', f.seed),
    hourlyCostUsd: f.hourlyCost === undefined ? null : flagNumber('hourlyCost', f.hourlyCost),
    latencySlo: f.latencySlo === undefined ? null : parseLatencySlo(f.latencySlo),
    timeoutMs: flagNumber('timeoutS', f.timeoutS) * 1000,
    idleMs: flagNumber('idleTimeoutS', f.idleTimeoutS) * 1000,
    command: redactedCommand(['goodput', ...argv]),
  };
}

export function poolingProgress(e: SweepEvent<'pooling'>): void {
  const err = process.stderr;
  if (e.kind === 'preflight') err.write(`${clean(e.engine)} serves ${clean(e.path)} for model ${clean(e.model)}\n`);
  else if (e.kind === 'warning') err.write(`warning: ${clean(e.warning.message)}\n`);
  else if (e.kind === 'level-start')
    err.write(
      `level ${e.index + 1}/${e.total}: concurrency ${e.concurrency}, ${e.requests} requests${e.threads > 1 ? ` over ${e.threads} client threads` : ''}\n`,
    );
  else if (e.kind === 'level-end') err.write(`  done: ${e.level.requests} requests, ${e.level.failed} failed\n`);
}

/** Exit code of a finished pooling run: stopped, server failed, no level without failures, or ok. */
export function poolingExitCode(r: PoolingResult): number {
  if (r.run.status === 'stopped') return EXIT.stopped;
  if (r.run.status === 'server-failed') return EXIT.serverFailed;
  return r.levels.some((l) => l.failed === 0) ? EXIT.ok : EXIT.noValidLevel;
}

/**
 * Runs the sweep and writes what was asked: progress on stderr, raw records per level, JSON, the table;
 * and, with a save target, the run in the store (begun before the first request, each level committed as it ends).
 */
export async function poolingSweepAndReport(
  spec: PoolingSpecInput,
  out: { json?: string | undefined; raw?: string | undefined; save?: SaveTarget | null; clients?: ClientsOf<'pooling'> | undefined },
): Promise<number> {
  if (out.json !== undefined && out.json === out.raw) throw badFlag('--raw', 'must be a different file from --json');
  const saving = out.save ? await startSaving(spec, out.save) : null;
  const ctrl = new AbortController();
  const onSignal = () => ctrl.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let first = true;
  try {
    const result = await runSweep(spec, {
      signal: ctrl.signal,
      onEvent: (e) => {
        poolingProgress(e);
        saving?.onEvent(e);
      },
      afterLevel: async (level, records) => {
        if (out.raw) await writeRecords(out.raw, records, first);
        first = false;
        await saving?.afterLevel(level, records);
      },
      ...(saving ? { beforeLevel: () => saving.beforeLevel() } : {}),
      ...(out.clients ? { clients: out.clients } : {}),
    }).catch(async (err: unknown) => {
      await saving?.fail(err);
      throw err;
    });
    if (saving && (await discardIfNothingFinished(result, saving))) return EXIT.stopped;
    // Each step runs even when one before it failed: the file, the table and the stored run do not depend on each other.
    const after = new AfterMeasuring();
    const wrote = await writeResult(after, result, out.json, () => renderPoolingResult(result, process.stdout.isTTY === true));
    sayWritten([wrote, first ? undefined : out.raw]);
    await after.step('storing the run', () => saving?.finish(result, out));
    return after.code(poolingExitCode(result));
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** Adds the pooling flags to a sweep command, as the option catalogue declares them. */
export function addPoolingOptions(cmd: Command): Command {
  return addRunOptions(cmd, 'pooling');
}
