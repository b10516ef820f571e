/**
 * Embeddings and rerank (the pooling kind) as the command line shows them:
 * the sweep flags that apply to a non-streaming endpoint → a pooling spec
 * (flags that only mean something for text generation are refused by name
 * rather than ignored), its progress words, its table (one row per level with
 * its rates and latency percentiles, every failure reason, the peak the
 * Engine card reports), and its levels exported as CSV or Markdown.
 */
import type { Command } from 'commander';
import pc from 'picocolors';
import {
  type PoolingEndpoint,
  type PoolingLevel,
  type PoolingResult,
  type SurfaceName,
  allFailed,
  poolingExclusion,
  refusalOf,
  sanitizeForTerminal as clean,
} from '../core/index.js';
import type { PoolingSpecInput } from '../runner/index.js';
import { apiKeyFromEnv, badFlag, oneUrl, parseLevels, redactedCommand } from './parse-flags.js';
import { addRunOptions, flagNumber, flagNumberOr, groupKeys, retryFromFlags } from './option-flags.js';
import { type KindView, levelRows, wholeAnswerExit, wholeAnswerProgress, wholeAnswerText } from './kind-view.js';
import { audioFromFlags, imagesFromFlags } from './image-flags.js';
import type { PoolingFlags, SweepFlags } from './sweep-flags.js';

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
  // A disaggregated server's pools split prefill and decode: a pooling request only encodes.
  ['poolGpus', '--pool-gpus'],
  ['kvLinkGbps', '--kv-link-gbps'],
  ['prometheus', '--prometheus'],
  ['selector', '--selector'],
  // A provider's price is per generated token: pooling is never priced.
  ['providerPrice', '--provider-price'],
  ['providerPrices', '--provider-prices'],
  ['maxSpend', '--max-spend'],
  ['yes', '--yes'],
  // Spans and live metrics are made of text generation's records (TTFT, tokens); a traceparent every request carries.
  ['otlp', '--otlp'],
  ['otlpHeader', '--otlp-header'],
  ['serveMetrics', '--serve-metrics'],
  // An adapter is a generation model's: per-adapter figures are TTFT and tokens.
  ['lora', '--lora'],
  // Pacing is of text sends (its token estimate counts output tokens): a pooling request is retried, never paced.
  ['rateLimit', '--rate-limit'],
  // How requests arrive: a pooling sweep runs closed loops only.
  ...groupKeys('arrival').map(({ key, flag }): [string, string] => [key, flag]),
  // The server hooks reset a generation engine's prefix cache and profile its decoding.
  ...groupKeys('hooks').map(({ key, flag }): [string, string] => [key, flag]),
];

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
    url: oneUrl(f.url, endpoint),
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
    retry: retryFromFlags(f),
    traceparent: f.traceparent ?? true,
    command: redactedCommand(['goodput', ...argv]),
  };
}

/** What stderr says while a pooling sweep runs (a contract's run says the same). */
export const poolingProgress = wholeAnswerProgress<'pooling'>((e) => `${clean(e.engine)} serves ${clean(e.path)} for model ${clean(e.model)}`);

const fmt = (x: number | null | undefined, digits = 1) => (x === null || x === undefined ? '—' : x.toFixed(digits));

/** What the table's columns depend on: the run's endpoint, cost and objective (a stored run's spec has them too). */
export type PoolingShape = Pick<PoolingResult['run'], 'endpoint' | 'hourlyCostUsd' | 'latencySlo'>;

function headers(r: { run: PoolingShape }): string[] {
  const items = r.run.endpoint === 'rerank' ? 'Documents/s' : 'Inputs/s';
  return [
    'Concurrency',
    'Requests/s',
    items,
    'Input tok/s',
    'Latency p50 (ms)',
    'p95 (ms)',
    'p99 (ms)',
    ...(r.run.endpoint === 'embeddings' ? ['Dimension'] : []),
    ...(r.run.hourlyCostUsd === null ? [] : ['$/1M input tok']),
    'Failed',
    ...(r.run.latencySlo === null ? [] : [`SLO p${r.run.latencySlo.p} ≤ ${r.run.latencySlo.maxMs} ms`]),
  ];
}

function row(l: PoolingLevel, r: { run: PoolingShape }): string[] {
  // A level where every request failed has no rates, whatever an older stored level says.
  const rate = (x: number | null, digits = 1) => (allFailed(l) ? '—' : fmt(x, digits));
  return [
    String(l.concurrency),
    rate(l.requestsPerS),
    rate(l.itemsPerS),
    rate(l.inputTokensPerS, 0),
    fmt(l.latencyMs?.p50),
    fmt(l.latencyMs?.p95),
    fmt(l.latencyMs?.p99),
    ...(r.run.endpoint === 'embeddings' ? [l.dimension === null ? '—' : String(l.dimension)] : []),
    ...(r.run.hourlyCostUsd === null ? [] : [rate(l.costPerMInputTokensUsd, 4)]),
    `${l.failed}/${l.requests}${allFailed(l) ? ' all failed' : ''}`,
    ...(l.slo === null ? [] : [`${l.slo.holds ? 'holds' : 'misses'} (${l.slo.observedMs === null ? 'failed' : `${fmt(l.slo.observedMs)} ms`})`]),
  ];
}

/** One row per level, then every failure reason: the levels of a run that has no result yet (running or interrupted) show this alone. */
export function renderPoolingLevels(levels: readonly PoolingLevel[], shape: PoolingShape, color: boolean): string[] {
  const c = color ? pc : pc.createColors(false);
  const r = { run: shape };
  const bound = (l: PoolingLevel) => l.failed === 0 && l.clientBound?.bound === true;
  return levelRows(levels, headers(r), (l) => row(l, r), color, {
    mark: (l, line) => (l.clientBound?.bound === true ? c.yellow(line) : line),
    notes: (l) =>
      bound(l) ? [c.yellow(`concurrency ${l.concurrency}: client-bound, no peak: ${clean(l.clientBound?.reason ?? 'our own client lagged')}`)] : [],
  });
}

/** The table, failure reasons and peak; `color` adds emphasis for a terminal. */
export function renderPoolingResult(r: PoolingResult, color: boolean): string {
  const c = color ? pc : pc.createColors(false);
  const what =
    r.run.endpoint === 'rerank'
      ? `rerank ${clean(r.run.path)}: a query of ${r.run.queryTokens} tokens with ${r.run.itemsPerRequest} documents of ${r.run.itemTokens} tokens (${clean(r.run.tokenizer.label)})`
      : `embeddings ${clean(r.run.path)}: ${r.run.itemsPerRequest} inputs of ${r.run.itemTokens} tokens per request (${clean(r.run.tokenizer.label)})`;
  return wholeAnswerText(`${what}, model ${clean(r.run.model)}`, r, color, () => {
    const out = renderPoolingLevels(r.levels, r.run, color);
    if (r.peak) {
      const tok = r.peak.inputTokensPerS === null ? '' : `, ${r.peak.inputTokensPerS.toFixed(0)} input tok/s`;
      out.push(
        `Engine: peak ${r.peak.itemsPerS.toFixed(1)} ${r.run.endpoint === 'rerank' ? 'documents' : 'inputs'}/s${tok} at concurrency ${r.peak.concurrency} (levels without failures, not client-bound)`,
      );
    } else {
      const why = (l: PoolingLevel) => ((x) => (x === null || x.startsWith('client-bound') ? 'client-bound' : x))(poolingExclusion(l));
      out.push(c.red(`Engine: no peak: no level counts (${r.levels.map((l) => `concurrency ${l.concurrency}: ${why(l)}`).join('; ')})`));
    }
    if (r.capacity) out.push(r.capacity.concurrency === null ? c.red(r.capacity.statement) : `Capacity: ${r.capacity.statement}`);
    return out;
  });
}

type Cell = string | number | null;

const COLUMNS: ReadonlyArray<{ name: string; get(l: PoolingResult['levels'][number]): Cell }> = [
  { name: 'concurrency', get: (l) => l.concurrency },
  { name: 'requests', get: (l) => l.requests },
  { name: 'failed', get: (l) => l.failed },
  { name: 'duration_s', get: (l) => l.durationS },
  { name: 'requests_per_s', get: (l) => l.requestsPerS },
  { name: 'items_per_s', get: (l) => l.itemsPerS },
  { name: 'input_tokens_per_s', get: (l) => l.inputTokensPerS },
  { name: 'input_tokens_per_request', get: (l) => l.inputTokensPerRequest },
  { name: 'latency_p50_ms', get: (l) => l.latencyMs?.p50 ?? null },
  { name: 'latency_p95_ms', get: (l) => l.latencyMs?.p95 ?? null },
  { name: 'latency_p99_ms', get: (l) => l.latencyMs?.p99 ?? null },
  { name: 'dimension', get: (l) => l.dimension },
  { name: 'cost_per_m_input_tokens_usd', get: (l) => l.costPerMInputTokensUsd },
  { name: 'slo_holds', get: (l) => (l.slo === null ? null : String(l.slo.holds)) },
  { name: 'failure_reasons', get: (l) => (l.failures.length === 0 ? null : l.failures.map((f) => `${f.count}x ${f.reason}`).join('; ')) },
];

const csvCell = (v: Cell) => (v === null ? '' : /[",\n\r]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
const mdCell = (v: Cell) =>
  v === null
    ? '—'
    : String(v)
        .replace(/\|/g, '\\|')
        .replace(/[\r\n]+/g, ' ');

/** The result's levels in `format` (csv or markdown), or a CliError naming the format or a flag that asks for records. */
export function exportPooling(result: PoolingResult, format: string, flags: { raw?: string; level?: string; outDir?: string } = {}): string {
  for (const [given, flag] of [
    [flags.raw, '--raw'],
    [flags.level, '--level'],
    [flags.outDir, '--out-dir'],
  ] as const) {
    if (given !== undefined)
      throw badFlag(flag, `does not apply to ${result.run.endpoint === 'rerank' ? 'a rerank' : 'an embeddings'} result (its levels export whole)`);
  }
  const rows = result.levels.map((l) => COLUMNS.map((c) => c.get(l)));
  if (format === 'csv') return [COLUMNS.map((c) => c.name).join(','), ...rows.map((r) => r.map(csvCell).join(','))].join('\n') + '\n';
  if (format === 'markdown') {
    const head = `${result.run.endpoint} ${result.run.path}, model ${mdCell(result.run.model)}: ${result.run.itemsPerRequest} ${result.run.endpoint === 'rerank' ? 'documents' : 'inputs'} of ${result.run.itemTokens} tokens per request`;
    return (
      [
        head,
        '',
        `| ${COLUMNS.map((c) => c.name).join(' | ')} |`,
        `|${COLUMNS.map(() => ' --- |').join('')}`,
        ...rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`),
      ].join('\n') + '\n'
    );
  }
  throw badFlag('--format', refusalOf('pooling', `export-${format}` as SurfaceName, { endpoint: result.run.endpoint, format }));
}

/** The pooling kind's view for `goodput sweep`. */
export const POOLING_VIEW: KindView<'pooling'> = {
  async fromFlags(f, given, argv) {
    // Images and audio are refused naming the endpoint, as for any endpoint but chat.
    imagesFromFlags(f, f.endpoint);
    audioFromFlags(f, f.endpoint);
    return { spec: poolingSpecFromFlags(f, f.endpoint as PoolingEndpoint, argv, given) };
  },
  progress: () => poolingProgress,
  table: renderPoolingResult,
  exitCode: wholeAnswerExit,
  clients: (c) => c.clients.pooling,
  showsEmpty: true,
  exportLevels: exportPooling,
};

/** Adds the pooling flags to a sweep command, as the option catalogue declares them. */
export function addPoolingOptions(cmd: Command): Command {
  return addRunOptions(cmd, 'pooling');
}
