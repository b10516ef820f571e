/**
 * `goodput sweep`: flags → a validated spec → runSweep → table, JSON and raw
 * records. Every flag is checked before anything runs or is written.
 */
import type { Command } from 'commander';
import { type LevelResult, type RequestRecord, type SweepResult, sanitizeForTerminal as clean, optionDefault } from '../core/index.js';
import { type EngineChoice, parseEngineChoice } from '../client/index.js';
import { type SweepEvent, type SweepSpecInput, runSweep } from '../runner/index.js';
import { AfterMeasuring, writeResult } from './after-measuring.js';
import { asUsageErrors } from './contract-errors.js';
import { CliError, EXIT, exitCodeOf, invalidLevelsLine } from './exit-codes.js';
import { refuseLevelsPastFileLimit } from './socket-room.js';
import { loadResponseSchema, loadTools } from '../workload/index.js';
import { sayWritten, writeRecords } from './files.js';
import { apiKeyFromEnv, badFlag, parseChoice, parseLevels, parseUrl, redactedCommand } from './parse-flags.js';
import { addRunOptions, flagNumber } from './option-flags.js';
import { type ArrivalFlags, arrivalFromFlags, percentilesFromFlags } from './arrival-flags.js';
import { percentileBlock, percentileLine } from './render-percentiles.js';
import { telemetryFromFlags } from './telemetry-flags.js';
import { workerSecretFromEnv } from './worker-command.js';
import { liveWarnings, progressReporter } from './progress.js';
import { type ImageFlags, addImageOptions, audioFromFlags, imageBaseUrlFromFlags, imagesFromFlags } from './image-flags.js';
import { renderResult } from './render-table.js';
import { type PoolingFlags, addPoolingOptions, poolingSpecFromFlags, poolingSweepAndReport, refusePoolingFlags } from './pooling-view.js';
import type { Coordinator } from '../workers/index.js';
import { type SaveTarget, addSaveOptions, discardIfNothingFinished, saveTarget, startSaving } from './save-run.js';
import type { SweepFlags } from './sweep-flags.js';
import { transcriptionSpecFromFlags, transcriptionSweepAndReport } from './transcription-view.js';

/** `--engine` → a dialect kind or 'auto', or a CliError listing the valid values. */
function parseEngine(text: string): EngineChoice {
  const parsed = parseEngineChoice(text);
  if (!parsed.ok) throw badFlag('--engine', parsed.message);
  return parsed.choice;
}

/** Adds the sweep flags to a command (shared with `demo`, `replay` and `sessions`), as the option catalogue declares them. */
export function addSweepOptions(cmd: Command, withUrl = true): Command {
  return addSaveOptions(addRunOptions(cmd, 'sweep', withUrl ? [] : ['--url']));
}

/** Flags → spec input, or a CliError naming the flag; `load` gives the levels and arrival when the command reads them itself. Pure apart from reading the API key's variable. */
export function specFromFlags(f: SweepFlags, argv: readonly string[], load?: Pick<SweepSpecInput, 'levels' | 'arrival'>): SweepSpecInput {
  const apiKey = f.apiKey ?? apiKeyFromEnv(f.apiKeyEnv, 'GOODPUT_API_KEY');
  const requests = f.requestsPerLevel === 'auto' ? 'auto' : flagNumber('requestsPerLevel', f.requestsPerLevel);
  const timeoutMs = flagNumber('timeoutS', f.timeoutS) * 1000;
  const idleMs = flagNumber('idleTimeoutS', f.idleTimeoutS) * 1000;
  if (f.json !== undefined && f.json === f.raw) throw badFlag('--raw', 'must be a different file from --json');
  return {
    url: parseUrl('--url', f.url),
    apiKey: apiKey === '' ? undefined : apiKey,
    model: f.model,
    endpoint: parseChoice('--endpoint', f.endpoint, ['chat', 'completions', 'responses'] as const),
    engine: parseEngine(f.engine),
    ...(load ?? { levels: parseLevels('--levels', f.levels) }),
    outputTokens: flagNumber('outputTokens', f.outputTokens),
    promptTokens: flagNumber('promptTokens', f.promptTokens),
    tokenizer:
      f.tokenizer === undefined || f.tokenizer === 'auto' || f.tokenizer === 'approximate'
        ? { kind: f.tokenizer ?? 'auto' }
        : { kind: 'file', path: f.tokenizer },
    requestsPerLevel: requests,
    warmup: flagNumber('warmup', f.warmup),
    thinking: parseChoice('--thinking', f.thinking, ['off', 'on'] as const) === 'on',
    forceLength: f.forceLength,
    temperature: flagNumber('temperature', f.temperature),
    seed: flagNumber('seed', f.seed),
    hourlyCostUsd: f.hourlyCost === undefined ? null : flagNumber('hourlyCost', f.hourlyCost),
    baselineRateUsdPer1M: f.baselineRate === undefined ? null : flagNumber('baselineRate', f.baselineRate),
    gpuLabel: f.gpu ?? null,
    clientBudgetMs: flagNumber('clientBudgetMs', f.clientBudgetMs),
    clientThreads: f.clientThreads === 'auto' ? 'auto' : flagNumber('clientThreads', f.clientThreads),
    timeouts: { totalMs: timeoutMs, idleMs: Math.min(idleMs, timeoutMs), headersMs: Math.min(120_000, timeoutMs) },
    command: redactedCommand(['goodput', ...argv]),
    ...telemetryFromFlags(f),
  };
}

/** `--tools`, `--tool-choice`, `--json-schema` and `--schema-control` → the spec's tools and answer schema (read and checked, every schema compiled). */
export async function toolsFromFlags(
  f: Pick<SweepFlags, 'tools' | 'toolChoice' | 'jsonSchema' | 'schemaControl'>,
): Promise<Pick<SweepSpecInput, 'tools' | 'responseSchema' | 'forceLength'>> {
  const out: Pick<SweepSpecInput, 'tools' | 'responseSchema' | 'forceLength'> = {};
  const given = f.toolChoice ?? 'auto';
  if (f.tools === undefined && given !== 'auto') throw badFlag('--tool-choice', 'needs --tools');
  const control = f.schemaControl ?? optionDefault('schemaControl');
  if (f.jsonSchema === undefined && control !== optionDefault('schemaControl')) throw badFlag('--schema-control', 'needs --json-schema');
  if (f.tools !== undefined) {
    const choice = given === 'auto' || given === 'required' ? given : { name: given };
    out.tools = await asUsageErrors(() => loadTools(f.tools as string, choice));
  }
  if (f.jsonSchema !== undefined) {
    const share = flagNumber('schemaControl', control);
    if (share > 0.9) throw badFlag('--schema-control', `${share} is above 0.9: most requests must carry the schema`);
    out.responseSchema = await asUsageErrors(() => loadResponseSchema(f.jsonSchema as string, share));
  }
  // A call or a JSON answer ends when it is complete: no forced length.
  if (out.tools !== undefined || out.responseSchema !== undefined) out.forceLength = false;
  return out;
}

/** Runs a sweep from a spec and does the output side: progress, raw records, JSON, the table. Returns the exit code. */
export async function sweepAndReport(spec: SweepSpecInput, out: SweepOutputs & { workers?: WorkersFlags }): Promise<{ code: number; result: SweepResult }> {
  return withWorkers(out.workers ?? null, (coordinator) => sweepWith(spec, out, coordinator));
}

/** Runs `fn` with the workers' coordinator when `--workers` is given (closed after, whatever happened), else without. */
async function withWorkers<T>(workers: WorkersFlags | null, fn: (coordinator: Coordinator | null) => Promise<T>): Promise<T> {
  // Workers first: a database that does not answer or too few workers stop the run before anything is stored.
  const coordinator = workers ? await startWorkers(workers) : null;
  try {
    return await fn(coordinator);
  } finally {
    await coordinator?.close();
  }
}

/** Where a sweep's outputs go: the result file, the raw records, the store, the percentiles printed after the table. */
export interface SweepOutputs {
  json?: string | undefined;
  raw?: string | undefined;
  save?: SaveTarget | null;
  percentiles?: readonly number[] | null;
}

/** `--workers N` with its database: validated here, connected by startWorkers. */
export interface WorkersFlags {
  count: number;
  databaseUrl: string;
  waitMs: number;
}

/** `--workers`, `--workers-wait` and the database they need, or null without --workers. */
export function workersFromFlags(f: Pick<SweepFlags, 'workers' | 'workersWait' | 'databaseUrl'>): WorkersFlags | null {
  if (f.workers === undefined) return null;
  const count = flagNumber('workers', f.workers);
  const databaseUrl = f.databaseUrl ?? (process.env['GOODPUT_DATABASE_URL'] || undefined);
  if (databaseUrl === undefined) throw badFlag('--workers', 'needs --database-url (or GOODPUT_DATABASE_URL): the workers meet in that PostgreSQL');
  const waitMs = flagNumber('workersWait', f.workersWait) * 1000;
  return { count, databaseUrl, waitMs };
}

async function startWorkers(w: WorkersFlags): Promise<Coordinator> {
  const { startCoordinator } = await import('../workers/index.js');
  const secret = await workerSecretFromEnv('--workers');
  const c = await startCoordinator(w.databaseUrl, w.count, w.waitMs, secret);
  // Names and hosts are the workers' own words, read from the database: cleaned before a terminal sees them.
  process.stderr.write(
    `${c.workers.length} workers live: ${c.workers.map((x) => `${clean(x.name)} (${clean(x.host)}, ${x.cores} cores, clock ${x.clockOffsetMs?.toFixed(2) ?? '?'} ms)`).join(', ')}\n`,
  );
  return c;
}

async function sweepWith(spec: SweepSpecInput, out: SweepOutputs, coordinator: Coordinator | null): Promise<{ code: number; result: SweepResult }> {
  const saving = out.save ? await startSaving(spec, out.save) : null;
  const ctrl = new AbortController();
  const onSignal = () => ctrl.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const progress = progressReporter(process.stderr, { warnings: liveWarnings(out.json === '-') });
  let firstLevel = true;
  const onEvent = (e: SweepEvent) => {
    progress(e);
    saving?.onEvent(e);
  };
  // Between levels, never during one: the raw lines and the store's commit.
  const percentiles: string[] = [];
  const afterLevel = async (level: LevelResult, records: readonly RequestRecord[]) => {
    if (out.percentiles) percentiles.push(percentileLine(level, records, out.percentiles));
    if (out.raw) await writeRecords(out.raw, records, firstLevel);
    firstLevel = false;
    await saving?.afterLevel(level, records);
  };
  try {
    const clients = coordinator ? { clients: coordinator.clients.text } : {};
    const result = await runSweep(spec, {
      signal: ctrl.signal,
      onEvent,
      afterLevel,
      ...(saving ? { beforeLevel: () => saving.beforeLevel() } : {}),
      ...clients,
    }).catch(async (err: unknown) => {
      await saving?.fail(err);
      throw err;
    });
    // A stop no signal asked for is our side going away (the workers' database), not the user.
    const byUser = ctrl.signal.aborted;
    if (await discardIfNothingFinished(result, saving)) return { code: byUser ? EXIT.stopped : EXIT.clientStopped, result };
    // Each step runs even when one before it failed: the file, the table and the stored run do not depend on each other.
    const after = new AfterMeasuring();
    const wrote = await writeResult(after, result, out.json, () => renderResult(result, process.stdout.isTTY === true) + percentileBlock(percentiles));
    sayWritten([wrote, firstLevel ? undefined : out.raw]);
    await after.step('storing the run', () => saving?.finish(result, out));
    // Last, so a script reading the final line sees it: which levels cannot be compared.
    const invalid = invalidLevelsLine(result.levels);
    if (invalid !== null) process.stderr.write(`${invalid}\n`);
    return { code: after.code(exitCodeOf(result, byUser)), result };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

export function registerSweepCommand(program: Command): void {
  addRunOptions(
    addImageOptions(addPoolingOptions(addSweepOptions(program.command('sweep').description('run a concurrency sweep against an OpenAI-compatible server')))),
    'arrival',
  ).action(async (flags: SweepFlags & PoolingFlags & ImageFlags & ArrivalFlags, cmd: Command) => {
    const given = (key: string) => cmd.getOptionValueSource(key) === 'cli';
    if (flags.endpoint === 'transcriptions') {
      const spec = transcriptionSpecFromFlags(flags, process.argv.slice(2), given);
      const code = await transcriptionSweepAndReport(spec, { json: flags.json, raw: flags.raw, save: saveTarget(flags, false, 'goodput sweep') });
      if (code !== EXIT.ok) throw new CliError(code, '');
      return;
    }
    const images = imagesFromFlags(flags, flags.endpoint);
    const audio = audioFromFlags(flags, flags.endpoint);
    if (flags.endpoint === 'embeddings' || flags.endpoint === 'rerank') {
      const spec = poolingSpecFromFlags(flags, flags.endpoint, process.argv.slice(2), given);
      const save = saveTarget(flags, false, 'goodput sweep');
      // Stored as a text sweep is: with --save, or by default when a store is configured; over the workers as a text sweep is.
      const code = await withWorkers(workersFromFlags(flags), (coordinator) =>
        poolingSweepAndReport(spec, { json: flags.json, raw: flags.raw, save, clients: coordinator?.clients.pooling }),
      );
      if (code !== EXIT.ok) throw new CliError(code, '');
      return;
    }
    refusePoolingFlags(flags, flags.endpoint);
    const load = arrivalFromFlags(flags, given);
    const percentiles = percentilesFromFlags(flags);
    const spec = {
      ...specFromFlags(flags, process.argv.slice(2), load),
      ...(await toolsFromFlags(flags)),
      images,
      imageBaseUrl: imageBaseUrlFromFlags(flags, images),
      audio,
    };
    const workers = workersFromFlags(flags);
    // Split over workers, each worker's process opens only its share's sockets.
    if (!workers && Array.isArray(spec.levels)) refuseLevelsPastFileLimit(spec.levels, spec.arrival?.kind ?? 'concurrency');
    const { code } = await sweepAndReport(spec, {
      json: flags.json,
      raw: flags.raw,
      save: saveTarget(flags, false, 'goodput sweep'),
      percentiles,
      ...(workers ? { workers } : {}),
    });
    if (code !== EXIT.ok) throw new CliError(code, '');
  });
}
