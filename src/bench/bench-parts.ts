/**
 * What the accuracy benches share: the simulator's flags for a known schedule
 * (fixed prefill, fixed decode step, no batching slowdown, no prefix cache),
 * one goodput level swept with its records kept, the floor's request body
 * and TPOT of a stream, a percentile of a list, and the table they print.
 */
import { type LevelResult, type RequestRecord, percentiles } from '../core/index.js';
import { type SweepSpecInput, runSweep } from '../runner/index.js';
import type { FloorRecord } from './floor-client.js';

/** The simulator's flags for fixed steps: every first token `prefillMs` after the request, then one token per `stepMs`, whatever the batch. */
export function stepFlags(prefillMs: number, stepMs: number): string[] {
  return [
    ...['--prefill-base-ms', String(prefillMs), '--prefill-ms-per-token', '0'],
    ...['--decode-step-ms', String(stepMs), '--decode-ms-per-extra-seq', '0'],
  ];
}

/** The simulator's flags for a schedule: fixed steps, a batch and cache never full, no prefix cache, natural lengths in a range. */
export function scheduleFlags(s: { prefillMs: number; stepMs: number; maxBatch: number; kvCacheTokens: number; natural: [number, number] }): string[] {
  return [
    ...stepFlags(s.prefillMs, s.stepMs),
    ...['--max-batch', String(s.maxBatch), '--kv-cache-tokens', String(s.kvCacheTokens), '--no-prefix-caching'],
    ...['--natural-min', String(s.natural[0]), '--natural-max', String(s.natural[1])],
  ];
}

/** A sweep of one level, its level and every record of it (warm-ups included); `noLevel` says whose level was missing. */
export async function sweepLevel(spec: SweepSpecInput, noLevel: string): Promise<{ level: LevelResult; records: readonly RequestRecord[] }> {
  let records: readonly RequestRecord[] = [];
  const result = await runSweep(spec, {
    onEvent: (e) => {
      if (e.kind === 'level-end') records = e.records;
    },
  });
  const level = result.levels[0];
  if (!level) throw new Error(`${noLevel}: ${result.run.stopReason}`);
  return { level, records };
}

/** The floor's request body: one streamed chat turn of `content` to the simulator's model, capped at `maxTokens`. */
export const floorChatBody = (content: string, maxTokens: number): string =>
  JSON.stringify({ model: 'goodput-sim-1', messages: [{ role: 'user', content }], max_tokens: maxTokens, stream: true });

/** The floor's TPOT of one stream, ms: first to last token over the tokens after the first; null with fewer than two. */
export const floorTpotMs = (r: FloorRecord): number | null =>
  r.firstTokenNs === null || r.lastTokenNs === null || r.tokens < 2 ? null : (r.lastTokenNs - r.firstTokenNs) / 1e6 / (r.tokens - 1);

/** The p50 or p99 of `xs`, null when empty. */
export const pct = (xs: readonly number[], q: 50 | 99) => percentiles(xs, [50, 99])?.[`p${q}`] ?? null;

/** Writes `table` to stdout, each column as wide as its widest cell. */
export function writeTable(table: readonly string[][]): void {
  const widths = (table[0] ?? []).map((_, i) => Math.max(...table.map((r) => (r[i] ?? '').length)));
  for (const r of table)
    process.stdout.write(
      r
        .map((cell, i) => cell.padEnd(widths[i] as number))
        .join('  ')
        .trimEnd() + '\n',
    );
}
