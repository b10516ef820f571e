/**
 * The figures `vllm bench serve --save-result` writes (vllm/benchmarks/serve.py,
 * `calculate_metrics`), computed from our raw records with vLLM's definitions so
 * its dashboards read our runs: TTFT from send to the first chunk, ITL as the
 * gaps between chunks, TPOT = (latency − TTFT)/(output tokens − 1), latency to
 * the last token chunk, std as numpy's population std, percentiles by linear
 * interpolation, peak output tokens in 1-second buckets, peak concurrency by a
 * sweep line. Times in seconds per request, ms in the statistics (as vLLM).
 */
import { type RequestRecord, isOk } from './record.js';
import { percentileOfSorted, sortedCopy } from './percentiles.js';
import { peakOverlap } from './overlap.js';

/** One request as vLLM's RequestFuncOutput sees it. Seconds. */
export interface VllmRequestView {
  success: boolean;
  promptLen: number;
  /** 0 for a failed request, as vLLM records it. */
  outputLen: number;
  /** 0 when no token arrived, as vLLM records it. */
  ttftS: number;
  itlS: number[];
  /** Send → last token chunk; 0 for a failed request. */
  latencyS: number;
  startS: number;
  /** Tokens each chunk carried (for the per-second peak). */
  chunkTokens: number[];
  /** "" on success. */
  error: string;
}

/** mean, median, std and chosen percentiles of a metric, ms; null without samples. */
export type VllmStats = { mean: number; median: number; std: number; percentiles: Array<[number, number]> } | null;

export interface VllmBenchMetrics {
  completed: number;
  failed: number;
  totalInput: number;
  totalOutput: number;
  ttft: VllmStats;
  tpot: VllmStats;
  itl: VllmStats;
  e2el: VllmStats;
  maxOutputTokensPerS: number;
  maxConcurrentRequests: number;
}

function describeOutcome(r: RequestRecord): string {
  const o = r.outcome;
  if (o.kind === 'ok') return '';
  if (o.kind === 'http-error') return `HTTP ${o.status}: ${o.message}`;
  if (o.kind === 'cancelled') return `cancelled by the client after its ${o.after}`;
  return o.kind === 'aborted' ? 'aborted' : `${o.kind}: ${o.message}`;
}

/** A measured record in vLLM's terms; `promptTokens` stands in when the server reported none. */
export function vllmView(r: RequestRecord, promptTokens: number): VllmRequestView {
  const ok = isOk(r);
  const last = r.chunkNs[r.chunkNs.length - 1];
  const itlS: number[] = [];
  for (let i = 1; i < r.chunkNs.length; i++) itlS.push(((r.chunkNs[i] as number) - (r.chunkNs[i - 1] as number)) / 1e9);
  return {
    success: ok,
    promptLen: r.promptTokens ?? promptTokens,
    outputLen: ok ? r.outputTokens : 0,
    ttftS: r.firstTokenNs === null ? 0 : (r.firstTokenNs - r.sendNs) / 1e9,
    itlS,
    latencyS: ok && last !== undefined ? (last - r.sendNs) / 1e9 : 0,
    startS: r.sendNs / 1e9,
    chunkTokens: r.chunkTokens,
    error: describeOutcome(r),
  };
}

/** numpy-style statistics of seconds, reported in ms. */
export function vllmStats(valuesS: readonly number[], ps: readonly number[]): VllmStats {
  if (valuesS.length === 0) return null;
  const ms = valuesS.map((v) => v * 1000);
  const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
  const std = Math.sqrt(ms.reduce((a, b) => a + (b - mean) ** 2, 0) / ms.length);
  const sorted = sortedCopy(ms);
  return { mean, median: percentileOfSorted(sorted, 50) as number, std, percentiles: ps.map((p) => [p, percentileOfSorted(sorted, p) as number]) };
}

/** Output tokens in the busiest 1-second bucket since the first successful send (vLLM's max_output_tokens_per_s). */
function peakTokensPerSecond(ok: readonly VllmRequestView[]): number {
  if (ok.length === 0) return 0;
  const start = Math.min(...ok.map((v) => v.startS));
  const buckets = new Map<number, number>();
  for (const v of ok) {
    let t = v.startS + v.ttftS;
    v.chunkTokens.forEach((k, i) => {
      if (i > 0) t += v.itlS[i - 1] as number;
      const b = Math.floor(t - start);
      buckets.set(b, (buckets.get(b) ?? 0) + k);
    });
  }
  return Math.max(0, ...buckets.values());
}

/** Most requests in flight at once over [start, start + latency), departures first on ties. */
function peakConcurrency(ok: readonly VllmRequestView[]): number {
  return peakOverlap(ok.map((v) => [v.startS, v.startS + v.latencyS] as const));
}

/** vLLM's figures for a level's measured requests. */
export function vllmBenchMetrics(views: readonly VllmRequestView[], percentiles: readonly number[]): VllmBenchMetrics {
  const ok = views.filter((v) => v.success);
  const tpots = ok.filter((v) => v.outputLen > 1).map((v) => (v.latencyS - v.ttftS) / (v.outputLen - 1));
  return {
    completed: ok.length,
    failed: views.length - ok.length,
    totalInput: ok.reduce((a, v) => a + v.promptLen, 0),
    totalOutput: ok.reduce((a, v) => a + v.outputLen, 0),
    ttft: vllmStats(
      ok.map((v) => v.ttftS),
      percentiles,
    ),
    tpot: vllmStats(tpots, percentiles),
    itl: vllmStats(
      ok.flatMap((v) => v.itlS),
      percentiles,
    ),
    e2el: vllmStats(
      ok.map((v) => v.latencyS),
      percentiles,
    ),
    maxOutputTokensPerS: peakTokensPerSecond(ok),
    maxConcurrentRequests: peakConcurrency(ok),
  };
}
