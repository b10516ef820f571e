/**
 * Figures per LoRA adapter by level, for the page and the report: a run over
 * several adapters (--lora) gives each its requests, failures, throughput and
 * TTFT/TPOT percentiles; the adapters' requests, failures and throughputs add
 * up to the level's. A run without adapters has no table.
 */
import type { LevelResult } from '../../core/index.js';
import { num } from './format.js';

export const ADAPTER_HEADERS = [
  'Level',
  'Adapter',
  'Requests',
  'Failed',
  'Throughput tok/s',
  'TTFT p50 ms',
  'TTFT p99 ms',
  'TPOT p50 ms',
  'TPOT p95 ms',
] as const;

/** One row per adapter of each level that names adapters, in level order and by name; none for a result without. */
export function adapterRows(levels: readonly LevelResult[]): string[][] {
  return levels.flatMap((l) =>
    (l.adapters ?? []).map((a) => [
      l.load?.label ?? `${l.concurrency} streams`,
      a.name,
      String(a.requests),
      String(a.failed),
      num(a.throughputTokS, 1),
      num(a.ttftMs?.p50, 1),
      num(a.ttftMs?.p99, 1),
      num(a.tpotMs?.p50, 1),
      num(a.tpotMs?.p95, 1),
    ]),
  );
}

/** The caption both views give the table. */
export const ADAPTER_CAPTION =
  "Each request named one LoRA adapter as its model, drawn by weight from the run's seed: each adapter's throughput is its output tokens over the level's whole measured window, so the adapters' requests, failures and throughputs add up to the level's.";
