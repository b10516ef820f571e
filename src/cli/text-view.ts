/**
 * Text generation as `goodput sweep` reads it: the flags → a sweep spec (with
 * its images, audio, tools, answer schema and arrival), and its terminal view
 * (the progress bar, the table, the invalid-levels line). `demo`, `replay`
 * and `sessions` read their specs with the same functions.
 */
import { isSecretHeader, optionDefault } from '../core/index.js';
import { type EngineChoice, parseEngineChoice } from '../client/index.js';
import type { SweepSpecInput } from '../runner/index.js';
import { loadResponseSchema, loadTools } from '../workload/index.js';
import { asUsageErrors } from './contract-errors.js';
import { exitCodeOf, invalidLevelsLine } from './exit-codes.js';
import { refuseLevelsPastFileLimit } from './socket-room.js';
import { apiKeyFromEnv, badFlag, parseChoice, parseLevels, redactedCommand } from './parse-flags.js';
import { flagNumber, flagParsed, retryFromFlags } from './option-flags.js';
import { apiKeyFromFile, providerFromFlags } from './provider-flags.js';
import { arrivalFromFlags, loadShapeFromFlags, percentilesFromFlags } from './arrival-flags.js';
import { datasetFromFlags } from './dataset-flags.js';
import { sweepHooksFromFlags } from './hook-flags.js';
import { cancelFromFlags } from './cancel-flags.js';
import { telemetryFromFlags } from './telemetry-flags.js';
import { fleetFromFlags } from './fleet-flags.js';
import { liveWarnings, progressReporter } from './progress.js';
import { audioFromFlags, imageBaseUrlFromFlags, imagesFromFlags } from './image-flags.js';
import { renderResult } from './render-table.js';
import { refusePoolingFlags } from './pooling-view.js';
import type { KindView } from './kind-view.js';
import type { SweepFlags } from './sweep-flags.js';
import { providerPriceFromFlags } from './spend-guard.js';

/** `--engine` → a dialect kind or 'auto', or a CliError listing the valid values. */
function parseEngine(text: string): EngineChoice {
  const parsed = parseEngineChoice(text);
  if (!parsed.ok) throw badFlag('--engine', parsed.message);
  return parsed.choice;
}

/** Flags → spec input, or a CliError naming the flag; `load` gives the levels and arrival when the command reads them itself. Pure apart from reading the API key's variable. */
export function specFromFlags(
  f: SweepFlags,
  argv: readonly string[],
  load?: Pick<SweepSpecInput, 'levels' | 'arrival' | 'durationS' | 'rampUpS'>,
): SweepSpecInput {
  if (f.apiKeyFile !== undefined && (f.apiKey !== undefined || f.apiKeyEnv !== undefined))
    throw badFlag('--api-key-file', 'give the key one way: --api-key-file, --api-key-env or --api-key');
  const apiKey = f.apiKeyFile !== undefined ? apiKeyFromFile(f.apiKeyFile) : (f.apiKey ?? apiKeyFromEnv(f.apiKeyEnv, 'GOODPUT_API_KEY'));
  const requests = f.requestsPerLevel === 'auto' ? 'auto' : flagNumber('requestsPerLevel', f.requestsPerLevel);
  const timeoutMs = flagNumber('timeoutS', f.timeoutS) * 1000;
  const idleMs = flagNumber('idleTimeoutS', f.idleTimeoutS) * 1000;
  if (f.json !== undefined && f.json === f.raw) throw badFlag('--raw', 'must be a different file from --json');
  return {
    ...fleetFromFlags(f),
    apiKey: apiKey === '' ? undefined : apiKey,
    model: f.model,
    endpoint: parseChoice('--endpoint', f.endpoint, ['chat', 'completions', 'responses', 'messages'] as const),
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
    providerPrice: providerPriceFromFlags(f),
    gpuLabel: f.gpu ?? null,
    clientBudgetMs: flagNumber('clientBudgetMs', f.clientBudgetMs),
    clientThreads: f.clientThreads === 'auto' ? 'auto' : flagNumber('clientThreads', f.clientThreads),
    timeouts: { totalMs: timeoutMs, idleMs: Math.min(idleMs, timeoutMs), headersMs: Math.min(120_000, timeoutMs) },
    retry: retryFromFlags(f),
    ...(f.rateLimit === undefined ? {} : { rateLimit: flagParsed('rateLimit', f.rateLimit) }),
    ...(f.lora === undefined ? {} : { lora: flagParsed('lora', f.lora) }),
    command: redactedCommand(['goodput', ...argv]),
    ...providerFromFlags(f),
    ...telemetryFromFlags(f),
    traceparent: f.traceparent ?? true,
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

/** Text generation's view: its flags (each checked before anything runs), its progress bar, its table and the percentiles after it. */
export const TEXT_VIEW: KindView<'text'> = {
  async fromFlags(f, given, argv) {
    const images = imagesFromFlags(f, f.endpoint);
    const audio = audioFromFlags(f, f.endpoint);
    refusePoolingFlags(f, f.endpoint);
    const arrival = arrivalFromFlags(f, given);
    const load = { ...arrival, ...loadShapeFromFlags(f, given, arrival.arrival?.kind ?? 'concurrency') };
    const percentiles = percentilesFromFlags(f);
    const base = specFromFlags(f, argv, load);
    const dataset = await datasetFromFlags(f, given, base.seed ?? flagNumber('seed', optionDefault('seed')));
    const serverHooks = sweepHooksFromFlags(f, load.levels);
    const spec = {
      ...base,
      ...dataset,
      ...(await toolsFromFlags(f)),
      images,
      imageBaseUrl: imageBaseUrlFromFlags(f, images),
      audio,
      serverHooks,
      ...cancelFromFlags(f),
    };
    // A worker's job is stored where every worker reads it: a key travels apart from it, a secret header could not.
    if (f.workers !== undefined && (spec.headers ?? []).some((h) => isSecretHeader(h.name, h.value)))
      throw badFlag('--header', 'a secret-looking header is never handed to worker processes (their jobs are stored): run it without --workers');
    // Split over workers, each worker's process opens only its share's sockets.
    if (f.workers === undefined && Array.isArray(spec.levels)) refuseLevelsPastFileLimit(spec.levels, spec.arrival?.kind ?? 'concurrency');
    return { spec, percentiles };
  },
  progress: (jsonOnStdout) => progressReporter(process.stderr, { warnings: liveWarnings(jsonOnStdout) }),
  table: (result, color) => renderResult(result, color),
  exitCode: exitCodeOf,
  // Last, so a script reading the final line sees it: which levels cannot be compared.
  lastLine: (result) => invalidLevelsLine(result.levels),
  clients: (c) => c.clients.text,
};
