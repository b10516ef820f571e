/**
 * `goodput sweep`: flags → a validated spec → runSweep → table, JSON and raw
 * records. Every flag is checked before anything runs or is written.
 */
import { Command, Option } from 'commander';
import { type LevelResult, type RequestRecord, type SweepResult, sanitizeForTerminal as clean } from '../core/index.js';
import { ENGINE_CHOICES, type EngineChoice, parseEngineChoice } from '../client/index.js';
import { type SweepEvent, type SweepSpecInput, runSweep } from '../runner/index.js';
import { AfterMeasuring, writeResult } from './after-measuring.js';
import { asUsageErrors } from './contract-errors.js';
import { CliError, EXIT, exitCodeOf, invalidLevelsLine } from './exit-codes.js';
import { refuseLevelsPastFileLimit } from './socket-room.js';
import { loadResponseSchema, loadTools } from '../workload/index.js';
import { sayWritten, writeRecords } from './files.js';
import { apiKeyFromEnv, badFlag, parseChoice, parseLevels, parseNumber, parseUrl, redactedCommand } from './parse-flags.js';
import { telemetryFromFlags } from './telemetry-flags.js';
import { workerSecretFromEnv } from './worker-command.js';
import { GPU_SOURCE_CHOICES } from '../telemetry/index.js';
import { liveWarnings, progressReporter } from './progress.js';
import { type ImageFlags, addImageOptions, audioFromFlags, imageBaseUrlFromFlags, imagesFromFlags } from './image-flags.js';
import { renderResult } from './render-table.js';
import { type PoolingFlags, addPoolingOptions, poolingSpecFromFlags, poolingSweepAndReport, refusePoolingFlags } from './pooling-command.js';
import type { Coordinator } from '../workers/index.js';
import { type SaveTarget, addSaveOptions, discardIfNothingFinished, saveTarget, startSaving } from './save-run.js';
import type { SweepFlags } from './sweep-flags.js';

/** `--engine` → a dialect kind or 'auto', or a CliError listing the valid values. */
function parseEngine(text: string): EngineChoice {
  const parsed = parseEngineChoice(text);
  if (!parsed.ok) throw badFlag('--engine', parsed.message);
  return parsed.choice;
}

/** Adds the sweep flags to a command (shared with `demo`). */
export function addSweepOptions(cmd: Command, withUrl = true): Command {
  if (withUrl) cmd.requiredOption('--url <url>', 'base URL of the OpenAI-compatible server, e.g. http://127.0.0.1:8000');
  return addSaveOptions(cmd
    .option('--model <name>', 'model id (default: the first model the server lists)')
    .option('--levels <list>', 'concurrency levels, comma-separated; run ascending', '1,2,4,8,16')
    .option('--output-tokens <n>', 'output tokens per request (below 128 is recorded as a warning)', '256')
    .option('--prompt-tokens <n>', 'prompt length in the server\'s tokens (exact where it can count them: see --tokenizer)', '512')
    .option('--tokenizer <auto|file|approximate>', 'how prompt tokens are counted: auto (the server\'s tokenize route, else words labelled approximate), a tokenizer.json, or approximate (words)', 'auto')
    .option('--requests-per-level <n|auto>', 'measured requests per level; auto = max(8, 4 × concurrency)', 'auto')
    .option('--warmup <n>', 'warm-up requests before each level, excluded from every number', '1')
    .option('--hourly-cost <usd>', 'hardware cost per hour; enables cost per 1M output tokens')
    .option('--baseline-rate <usd>', 'what you pay now per 1M output tokens; enables the saving figure')
    .option('--gpu <label>', 'GPU label for the Platform card when nvidia-smi cannot tell')
    .addOption(new Option('--thinking <mode>', 'reasoning on or off (the engine-neutral switch)').choices(['off', 'on']).default('off'))
    .addOption(new Option('--endpoint <kind>', 'API to call (responses: the OpenAI Responses API; embeddings and rerank: docs/endpoints.md)').choices(['chat', 'completions', 'responses', 'embeddings', 'rerank']).default('chat'))
    .option('--engine <kind|auto>', `engine dialect: auto (detect from GET routes) or one of ${ENGINE_CHOICES.filter((c) => c !== 'auto').join(', ')}`, 'auto')
    .option('--no-force-length', 'do not send ignore_eos/min_tokens (the output may end early)')
    .option('--temperature <t>', 'sampling temperature sent with every request', '0')
    .option('--seed <n>', 'seed for prompts and sampling', '42')
    .option('--api-key-env <name>', 'environment variable holding the API key (default: GOODPUT_API_KEY)')
    .option('--api-key <key>', 'API key (prefer --api-key-env: flags show in process lists); never printed or stored')
    .option('--client-budget-ms <ms>', 'floor of our send-lag and event-loop-delay budgets (p99) before a level is marked client-bound; each budget is 5 % of what it distorts (TTFT, TPOT p50) when larger', '10')
    .option('--client-threads <n|auto>', 'client threads a level is split over, each with its own event loop and sockets (auto: the cores; at most the level\'s streams)', 'auto')
    .option('--workers <n>', 'split every level over N `goodput worker` processes coordinated through --database-url (this process sends nothing)')
    .option('--workers-wait <s>', 'with --workers: how long to wait for N live workers, seconds', '60')
    .option('--timeout-s <s>', 'per-request limit, seconds', '600')
    .option('--idle-timeout-s <s>', 'a request whose answer stays silent this long once its headers came (no byte arrives) fails as a timeout in the phase it was in, seconds', '60')
    .option('--gpu-source <kind>', `where GPU readings come from: ${GPU_SOURCE_CHOICES.join(', ')}`, 'auto')
    .option('--dcgm-url <url>', 'a DCGM exporter\'s metrics URL, e.g. http://gpu-host:9400/metrics')
    .option('--metrics-url <url>', 'the server\'s Prometheus endpoint (default: probe /prometheus/metrics, then /metrics)')
    .option('--no-server-metrics', 'do not scrape the server\'s Prometheus endpoint')
    .option('--metrics-interval-ms <ms>', 'how often the server\'s gauges are scraped during a level', '1000')
    .option('--tools <1|8|64|file>', 'offer tools with every chat request: a built-in set of 1, 8 or 64, or a JSON file of OpenAI-style tools (implies --no-force-length)')
    .option('--tool-choice <auto|required|name>', 'with --tools: tool_choice sent (a tool\'s name forces that tool)', 'auto')
    .option('--json-schema <file>', 'structured output: ask every chat answer to match this JSON schema (response_format or the engine\'s key) and check it (implies --no-force-length)')
    .option('--schema-control <share>', 'with --json-schema: share of requests sent without the schema, to measure what it costs', '0.5')
    .option('--json <file|->', 'write the result JSON to a file, or to stdout with -')
    .option('--raw <file>', 'write every request record as JSON lines, level by level'));
}

/** Flags → spec input, or a CliError naming the flag. Pure apart from reading the API key's variable. */
export function specFromFlags(f: SweepFlags, argv: readonly string[]): SweepSpecInput {
  const apiKey = f.apiKey ?? apiKeyFromEnv(f.apiKeyEnv, 'GOODPUT_API_KEY');
  const requests = f.requestsPerLevel === 'auto' ? 'auto' : parseNumber('--requests-per-level', f.requestsPerLevel, { integer: true, min: 1, limit: 'requestsPerLevel' });
  const timeoutMs = parseNumber('--timeout-s', f.timeoutS, { min: 0, exclusiveMin: true }) * 1000;
  const idleMs = parseNumber('--idle-timeout-s', f.idleTimeoutS, { min: 0, exclusiveMin: true }) * 1000;
  if (f.json !== undefined && f.json === f.raw) throw badFlag('--raw', 'must be a different file from --json');
  return {
    url: parseUrl('--url', f.url),
    apiKey: apiKey === '' ? undefined : apiKey,
    model: f.model,
    endpoint: parseChoice('--endpoint', f.endpoint, ['chat', 'completions', 'responses'] as const),
    engine: parseEngine(f.engine),
    levels: parseLevels('--levels', f.levels),
    outputTokens: parseNumber('--output-tokens', f.outputTokens, { integer: true, min: 1, limit: 'outputTokens' }),
    promptTokens: parseNumber('--prompt-tokens', f.promptTokens, { integer: true, min: 1, limit: 'promptTokens' }),
    tokenizer: f.tokenizer === undefined || f.tokenizer === 'auto' || f.tokenizer === 'approximate' ? { kind: f.tokenizer ?? 'auto' } : { kind: 'file', path: f.tokenizer },
    requestsPerLevel: requests,
    warmup: parseNumber('--warmup', f.warmup, { integer: true, min: 0, limit: 'warmupRequests' }),
    thinking: parseChoice('--thinking', f.thinking, ['off', 'on'] as const) === 'on',
    forceLength: f.forceLength,
    temperature: parseNumber('--temperature', f.temperature, { min: 0 }),
    seed: parseNumber('--seed', f.seed, { integer: true }),
    hourlyCostUsd: f.hourlyCost === undefined ? null : parseNumber('--hourly-cost', f.hourlyCost, { min: 0 }),
    baselineRateUsdPer1M: f.baselineRate === undefined ? null : parseNumber('--baseline-rate', f.baselineRate, { min: 0, exclusiveMin: true }),
    gpuLabel: f.gpu ?? null,
    clientBudgetMs: parseNumber('--client-budget-ms', f.clientBudgetMs, { min: 0, exclusiveMin: true }),
    clientThreads: f.clientThreads === 'auto' ? 'auto' : parseNumber('--client-threads', f.clientThreads, { integer: true, min: 1, limit: 'clientThreads' }),
    timeouts: { totalMs: timeoutMs, idleMs: Math.min(idleMs, timeoutMs), headersMs: Math.min(120_000, timeoutMs) },
    command: redactedCommand(['goodput', ...argv]),
    ...telemetryFromFlags(f),
  };
}

/** `--tools`, `--tool-choice`, `--json-schema` and `--schema-control` → the spec's tools and answer schema (read and checked, every schema compiled). */
export async function toolsFromFlags(f: Pick<SweepFlags, 'tools' | 'toolChoice' | 'jsonSchema' | 'schemaControl'>): Promise<Pick<SweepSpecInput, 'tools' | 'responseSchema' | 'forceLength'>> {
  const out: Pick<SweepSpecInput, 'tools' | 'responseSchema' | 'forceLength'> = {};
  const given = f.toolChoice ?? 'auto';
  if (f.tools === undefined && given !== 'auto') throw badFlag('--tool-choice', 'needs --tools');
  const control = f.schemaControl ?? '0.5';
  if (f.jsonSchema === undefined && control !== '0.5') throw badFlag('--schema-control', 'needs --json-schema');
  if (f.tools !== undefined) {
    const choice = given === 'auto' || given === 'required' ? given : { name: given };
    out.tools = await asUsageErrors(() => loadTools(f.tools as string, choice));
  }
  if (f.jsonSchema !== undefined) {
    const share = parseNumber('--schema-control', control, { min: 0 });
    if (share > 0.9) throw badFlag('--schema-control', `${share} is above 0.9: most requests must carry the schema`);
    out.responseSchema = await asUsageErrors(() => loadResponseSchema(f.jsonSchema as string, share));
  }
  // A call or a JSON answer ends when it is complete: no forced length.
  if (out.tools !== undefined || out.responseSchema !== undefined) out.forceLength = false;
  return out;
}

/** Runs a sweep from a spec and does the output side: progress, raw records, JSON, the table. Returns the exit code. */
export async function sweepAndReport(spec: SweepSpecInput, out: { json?: string | undefined; raw?: string | undefined; save?: SaveTarget | null; workers?: WorkersFlags }): Promise<{ code: number; result: SweepResult }> {
  // Workers first: a database that does not answer or too few workers stop the run before anything is stored.
  const coordinator = out.workers ? await startWorkers(out.workers) : null;
  try {
    return await sweepWith(spec, out, coordinator);
  } finally {
    await coordinator?.close();
  }
}

/** `--workers N` with its database: validated here, connected by startWorkers. */
export interface WorkersFlags { count: number; databaseUrl: string; waitMs: number }

/** `--workers`, `--workers-wait` and the database they need, or null without --workers. */
export function workersFromFlags(f: Pick<SweepFlags, 'workers' | 'workersWait' | 'databaseUrl'>): WorkersFlags | null {
  if (f.workers === undefined) return null;
  const count = parseNumber('--workers', f.workers, { integer: true, min: 1, limit: 'workers' });
  const databaseUrl = f.databaseUrl ?? (process.env['GOODPUT_DATABASE_URL'] || undefined);
  if (databaseUrl === undefined) throw badFlag('--workers', 'needs --database-url (or GOODPUT_DATABASE_URL): the workers meet in that PostgreSQL');
  const waitMs = parseNumber('--workers-wait', f.workersWait, { min: 0 }) * 1000;
  return { count, databaseUrl, waitMs };
}

async function startWorkers(w: WorkersFlags): Promise<Coordinator> {
  const { startCoordinator } = await import('../workers/index.js');
  const secret = await workerSecretFromEnv('--workers');
  const c = await startCoordinator(w.databaseUrl, w.count, w.waitMs, secret);
  // Names and hosts are the workers' own words, read from the database: cleaned before a terminal sees them.
  process.stderr.write(`${c.workers.length} workers live: ${c.workers.map((x) => `${clean(x.name)} (${clean(x.host)}, ${x.cores} cores, clock ${x.clockOffsetMs?.toFixed(2) ?? '?'} ms)`).join(', ')}\n`);
  return c;
}

async function sweepWith(spec: SweepSpecInput, out: { json?: string | undefined; raw?: string | undefined; save?: SaveTarget | null }, coordinator: Coordinator | null): Promise<{ code: number; result: SweepResult }> {
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
  const afterLevel = async (level: LevelResult, records: readonly RequestRecord[]) => {
    if (out.raw) await writeRecords(out.raw, records, firstLevel);
    firstLevel = false;
    await saving?.afterLevel(level, records);
  };
  try {
    const clients = coordinator ? { clients: coordinator.forSweep } : {};
    const result = await runSweep(spec, { signal: ctrl.signal, onEvent, afterLevel, ...(saving ? { beforeLevel: () => saving.beforeLevel() } : {}), ...clients }).catch(async (err: unknown) => { await saving?.fail(err); throw err; });
    // A stop no signal asked for is our side going away (the workers' database), not the user.
    const byUser = ctrl.signal.aborted;
    if (await discardIfNothingFinished(result, saving)) return { code: byUser ? EXIT.stopped : EXIT.clientStopped, result };
    // Each step runs even when one before it failed: the file, the table and the stored run do not depend on each other.
    const after = new AfterMeasuring();
    const wrote = await writeResult(after, result, out.json, () => renderResult(result, process.stdout.isTTY === true));
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
  addImageOptions(addPoolingOptions(addSweepOptions(program.command('sweep').description('run a concurrency sweep against an OpenAI-compatible server'))))
    .action(async (flags: SweepFlags & PoolingFlags & ImageFlags, cmd: Command) => {
      const images = imagesFromFlags(flags, flags.endpoint);
      const audio = audioFromFlags(flags, flags.endpoint);
      if (flags.endpoint === 'embeddings' || flags.endpoint === 'rerank') {
        const given = (key: string) => cmd.getOptionValueSource(key) === 'cli';
        const spec = poolingSpecFromFlags(flags, flags.endpoint, process.argv.slice(2), given);
        // Stored as a text sweep is: with --save, or by default when a store is configured.
        const code = await poolingSweepAndReport(spec, { json: flags.json, raw: flags.raw, save: saveTarget(flags, false, 'goodput sweep') });
        if (code !== EXIT.ok) throw new CliError(code, '');
        return;
      }
      refusePoolingFlags(flags, flags.endpoint);
      const spec = { ...specFromFlags(flags, process.argv.slice(2)), ...await toolsFromFlags(flags), images, imageBaseUrl: imageBaseUrlFromFlags(flags, images), audio };
      const workers = workersFromFlags(flags);
      // Split over workers, each worker's process opens only its share's sockets.
      if (!workers && Array.isArray(spec.levels)) refuseLevelsPastFileLimit(spec.levels, spec.arrival?.kind ?? 'concurrency');
      const { code } = await sweepAndReport(spec, { json: flags.json, raw: flags.raw, save: saveTarget(flags, false, 'goodput sweep'), ...(workers ? { workers } : {}) });
      if (code !== EXIT.ok) throw new CliError(code, '');
    });
}
