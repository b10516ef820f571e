/**
 * `goodput sweep --metric-percentiles 50,90,99`: after the table, each level's
 * TTFT, TPOT, ITL and E2EL at the chosen percentiles, computed from the
 * level's raw records with vLLM's definitions (core's vllmBenchMetrics), as
 * `vllm bench serve --metric-percentiles` prints them. Nothing stored changes.
 */
import { type LevelResult, type RequestRecord, type VllmStats, vllmBenchMetrics, vllmView } from '../core/index.js';

const METRICS = [
  ['ttft', 'TTFT'],
  ['tpot', 'TPOT'],
  ['itl', 'ITL'],
  ['e2el', 'E2EL'],
] as const;

function statsText(name: string, s: VllmStats): string {
  if (s === null) return `${name} n/a`;
  return `${name} ${s.percentiles.map(([p, v]) => `p${p} ${v.toFixed(2)}`).join(' ')}`;
}

/** One level's line: "4 streams: TTFT p50 12.31 p99 20.02 · TPOT … · ITL … · E2EL … ms". */
export function percentileLine(level: LevelResult, records: readonly RequestRecord[], percentiles: readonly number[]): string {
  const views = records
    .filter((r) => !r.warmup)
    .sort((a, b) => a.seq - b.seq)
    .map((r) => vllmView(r, 0));
  const m = vllmBenchMetrics(views, percentiles);
  const label = level.load?.label ?? `${level.concurrency} stream${level.concurrency === 1 ? '' : 's'}`;
  return `${label}: ${METRICS.map(([key, name]) => statsText(name, m[key])).join(' · ')} ms`;
}

/** The block printed after the table (after a blank line), or nothing without lines. */
export function percentileBlock(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `\n\nPercentiles (ms, vLLM's definitions, from the raw records):\n${lines.map((l) => `  ${l}`).join('\n')}`;
}
