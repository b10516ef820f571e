/**
 * `--format vllm`: per level, the JSON `vllm bench serve --save-result --save-detailed`
 * writes (vllm/benchmarks/serve.py), same keys and units (seconds per request,
 * ms in the statistics), so dashboards built on it read our runs. vLLM writes one
 * result per concurrency: one level gives one JSON document, several give one
 * per line (as its `--append-result` does), and `--out-dir` writes one file per
 * level under vLLM's own file names. With `--raw` every figure is computed from
 * the records with vLLM's definitions; without it only what the result holds
 * under the same definition is written, and `goodput_omitted` lists the rest.
 */
import { type LevelResult, type RequestRecord, type SweepResult, type VllmStats, vllmBenchMetrics, vllmView } from '../core/index.js';
import type { ExportFile, ExportFormat, ExportInput } from './export-format.js';
import { CliError, EXIT } from './exit-codes.js';
import { vllmHeader } from './export-vllm-header.js';

type Json = Record<string, unknown>;
/** vLLM's default `--metric-percentiles`. */
const PERCENTILES = [99];

/** A level's value on the run's arrival axis (streams, req/s or burst size): what its records carry as `concurrency`. */
export function levelValue(level: LevelResult): number {
  return level.load?.level ?? level.concurrency;
}

function stats(out: Json, metric: string, s: VllmStats): void {
  if (s === null) return;
  out[`mean_${metric}_ms`] = s.mean;
  out[`median_${metric}_ms`] = s.median;
  out[`std_${metric}_ms`] = s.std;
  for (const [p, v] of s.percentiles) out[`p${p}_${metric}_ms`] = v;
}

function fromRecords(level: LevelResult, records: readonly RequestRecord[], promptTokens: number): Json {
  const views = records
    .filter((r) => !r.warmup)
    .sort((a, b) => a.seq - b.seq)
    .map((r) => vllmView(r, promptTokens));
  const m = vllmBenchMetrics(views, PERCENTILES);
  const dur = level.durationMs / 1000;
  const per = (x: number) => (dur > 0 ? x / dur : 0);
  const out: Json = {
    duration: dur,
    completed: m.completed,
    failed: m.failed,
    total_input_tokens: m.totalInput,
    total_output_tokens: m.totalOutput,
    request_throughput: per(m.completed),
    request_goodput: level.goodput?.requestsPerS ?? null,
    output_throughput: per(m.totalOutput),
    total_token_throughput: per(m.totalInput + m.totalOutput),
    input_lens: views.map((v) => v.promptLen),
    output_lens: views.map((v) => v.outputLen),
    ttfts: views.map((v) => v.ttftS),
    itls: views.map((v) => v.itlS),
    latencies: views.map((v) => v.latencyS),
    start_times: views.map((v) => v.startS),
    errors: views.map((v) => v.error),
    max_output_tokens_per_s: m.maxOutputTokensPerS,
    max_concurrent_requests: m.maxConcurrentRequests,
    rtfx: 0.0,
  };
  for (const k of ['ttft', 'tpot', 'itl', 'e2el'] as const) stats(out, k, m[k]);
  return out;
}

function fromSummary(level: LevelResult, notes: string[]): Json {
  const dur = level.durationMs / 1000;
  const per = (x: number) => (dur > 0 ? x / dur : 0);
  const input = level.promptTokens.mean === null ? null : Math.round(level.promptTokens.mean * level.succeeded);
  const out: Json = {
    duration: dur,
    completed: level.succeeded,
    failed: level.failed,
    ...(input === null ? {} : { total_input_tokens: input }),
    total_output_tokens: level.outputTokensTotal,
    request_throughput: per(level.succeeded),
    request_goodput: level.goodput?.requestsPerS ?? null,
    output_throughput: level.throughputTokS,
    ...(input === null ? {} : { total_token_throughput: per(input + level.outputTokensTotal) }),
    rtfx: 0.0,
  };
  // vLLM's ITL is our ICL (chunk gaps); our TPOT is vLLM's when the first chunk carries one token.
  const have: Record<string, Record<string, number> | null> = {
    ttft: level.ttftMs,
    itl: level.iclMs,
    tpot: level.tokensPerChunk?.mean === 1 ? level.tpotMs : null,
  };
  for (const [k, h] of Object.entries(have)) {
    if (h?.p50 !== undefined) out[`median_${k}_ms`] = h.p50;
    for (const p of PERCENTILES) if (h?.[`p${p}`] !== undefined) out[`p${p}_${k}_ms`] = h[`p${p}`];
  }
  notes.push(
    'without --raw: the per-request arrays (input_lens, output_lens, ttfts, itls, latencies, start_times, errors), every mean_ and std_ figure, ' +
      'the e2el figures, max_output_tokens_per_s and max_concurrent_requests need the raw records and are left out',
  );
  if (input !== null) notes.push('total_input_tokens is the mean prompt length the server reported × the completed requests');
  return out;
}

/** One level as vLLM's result object, with the file name vLLM would give it. */
function levelDocument(result: SweepResult, level: LevelResult, records: readonly RequestRecord[] | null): { json: Json; name: string } {
  if (result.matrix) {
    throw new CliError(
      EXIT.usage,
      `a vLLM result holds one configuration, and this result is a matrix of ${result.matrix.cells.length} cells: export each cell's run separately`,
    );
  }
  const value = levelValue(level);
  const notes = ['generated_texts: goodput records timings and token counts, not the generated text'];
  const { keys, fileName } = vllmHeader(result, level, value, notes);
  const mine = records?.filter((r) => r.concurrency === value) ?? null;
  const body = mine === null ? fromSummary(level, notes) : fromRecords(level, mine, result.run.promptTokens);
  if (level.invalid) notes.push(`goodput marks this level invalid: ${level.invalidReason}`);
  if (level.clientBound.bound) notes.push(`goodput marks this level client-bound: ${level.clientBound.reason}`);
  const json = {
    ...keys,
    ...body,
    goodput_source: `goodput ${result.run.toolVersion} result, level ${value}${level.load ? ` (${level.load.label})` : ''}`,
    goodput_ttft_definition: 'send → first chunk carrying generated text (vLLM counts the first chunk with choices, even a role-only one)',
    goodput_omitted: notes,
  };
  return { json, name: fileName };
}

export const vllmFormat: ExportFormat = {
  description: "vLLM bench serve's --save-result JSON: one document per level (one per line for several); --raw adds the per-request arrays",
  needsRecords: false,
  usesRecords: true,
  render({ result, records }: ExportInput) {
    const docs = result.levels.map((l) => levelDocument(result, l, records).json);
    return docs.length === 1 ? JSON.stringify(docs[0], null, 2) + '\n' : docs.map((d) => JSON.stringify(d)).join('\n') + '\n';
  },
  files({ result, records }: ExportInput): ExportFile[] {
    return result.levels.map((l) => {
      const { json, name } = levelDocument(result, l, records);
      return { name, text: JSON.stringify(json, null, 2) + '\n' };
    });
  },
};
