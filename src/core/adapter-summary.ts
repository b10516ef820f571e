/**
 * A level's figures per LoRA adapter, from its records alone (each names the
 * adapter it was sent to): requests, failures, output tokens over the level's
 * own measured duration, TTFT and TPOT percentiles. Throughput is each
 * adapter's tokens over the level's whole window, not a window of its own, so
 * the adapters' requests, failures and throughputs add up to the level's.
 */
import { z } from 'zod';
import { LIMITS } from './limits.js';
import { loraNameSchema } from './lora-mix.js';
import { percentiles } from './percentiles.js';
import { type RequestRecord, isOk } from './record.js';
import { tpotMs, ttftMs } from './request-metrics.js';

const ms = z.number().nonnegative();
const count = z.number().int().nonnegative();

export const adapterLevelSchema = z
  .object({
    name: loraNameSchema,
    requests: count,
    succeeded: count,
    failed: count,
    outputTokensTotal: z.number().nonnegative(),
    /** The adapter's output tokens over the level's measured duration (its share of the level's throughput). */
    throughputTokS: z.number().nonnegative(),
    ttftMs: z.object({ p50: ms, p95: ms, p99: ms }).nullable(),
    tpotMs: z.object({ p50: ms, p95: ms }).nullable(),
  })
  .strict();

export type AdapterLevel = z.infer<typeof adapterLevelSchema>;

export const adapterLevelsSchema = z.array(adapterLevelSchema).max(LIMITS.loraAdapters.max);

const valuesOf = (records: readonly RequestRecord[], f: (r: RequestRecord) => number | null): number[] =>
  records.flatMap((r) => ((v) => (v === null ? [] : [v]))(f(r)));

/** Each adapter's figures over the level's measured records, by name; null when no record names an adapter (a run without --lora). */
export function summarizeAdapters(records: readonly RequestRecord[], durationMs: number): AdapterLevel[] | null {
  const by = new Map<string, RequestRecord[]>();
  for (const r of records) {
    if (r.warmup || r.adapter === undefined) continue;
    const mine = by.get(r.adapter);
    if (mine === undefined) by.set(r.adapter, [r]);
    else mine.push(r);
  }
  if (by.size === 0) return null;
  return [...by.keys()].sort().map((name) => {
    const mine = by.get(name) as RequestRecord[];
    const ok = mine.filter(isOk);
    let tokens = 0;
    for (const r of ok) tokens += r.outputTokens;
    return {
      name,
      requests: mine.length,
      succeeded: ok.length,
      failed: mine.length - ok.length,
      outputTokensTotal: tokens,
      throughputTokS: durationMs > 0 ? tokens / (durationMs / 1000) : 0,
      ttftMs: percentiles(valuesOf(ok, ttftMs), [50, 95, 99]),
      tpotMs: percentiles(valuesOf(ok, tpotMs), [50, 95]),
    };
  });
}
