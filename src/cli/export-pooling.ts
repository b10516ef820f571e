/**
 * `goodput export` of an embeddings or rerank result: its levels as CSV or as a
 * Markdown table, one row per level with the endpoint's own figures. The
 * per-request formats (jsonl, parquet-free-json, vllm) are text-generation
 * records and are refused naming the format.
 */
import { type PoolingResult, type SurfaceName, refusalOf } from '../core/index.js';
import { badFlag } from './parse-flags.js';

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

/** The result's levels in `format` (csv or markdown), or a CliError naming the format. */
export function exportPooling(result: PoolingResult, format: string): string {
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
