/**
 * Requests the workload gave up on purpose (`--cancel-after-ms`, `--cancel-after-tokens`): their
 * count per level, apart from the successes and the failures, and the one sentence every view
 * (table notes, page, report) shows about them beside the server's own view of the same level —
 * the tokens it generated and its running and waiting gauges, where the freed slots show.
 * They are kept out of every latency and throughput figure (docs/metrics.md, "Cancelled requests").
 */
import { z } from 'zod';
import type { RequestRecord } from './record.js';

const count = z.number().int().nonnegative();

export const cancelledSummarySchema = z.object({
  /** Measured requests given up on purpose. */
  requests: z.number().int().positive(),
  /** …of them because their time since the send ran out (`--cancel-after-ms`). */
  afterMs: count,
  /** …because they had read their tokens (`--cancel-after-tokens`). */
  afterTokens: count,
  /** …before any generated text arrived (still queued or prefilling at the server). */
  beforeFirstToken: count,
  /** Output tokens they had read when they were given up (work the server did for nobody). */
  outputTokens: z.number().nonnegative(),
});

export type CancelledSummary = z.infer<typeof cancelledSummarySchema>;

/** The level's cancelled requests (warm-ups are never cancelled, and skipped), or null when there were none. */
export function summarizeCancelled(records: readonly RequestRecord[]): CancelledSummary | null {
  const out = { requests: 0, afterMs: 0, afterTokens: 0, beforeFirstToken: 0, outputTokens: 0 };
  for (const r of records) {
    if (r.warmup || r.outcome.kind !== 'cancelled') continue;
    out.requests++;
    if (r.outcome.after === 'ms') out.afterMs++;
    else out.afterTokens++;
    if (r.firstTokenNs === null) out.beforeFirstToken++;
    out.outputTokens += r.outputTokens;
  }
  return out.requests === 0 ? null : out;
}

/** Why a level's cancelled count cannot be its own (more than its requests that did not succeed, parts that do not add up), or null. */
export function cancelledProblem(l: { requests: number; succeeded: number; failed: number; cancelled?: CancelledSummary }): string | null {
  const c = l.cancelled;
  if (c === undefined) return null;
  if (c.afterMs + c.afterTokens !== c.requests) return `afterMs ${c.afterMs} and afterTokens ${c.afterTokens} do not add up to requests ${c.requests}`;
  if (c.beforeFirstToken > c.requests) return `beforeFirstToken ${c.beforeFirstToken} is more than requests ${c.requests}`;
  if (l.succeeded + l.failed + c.requests !== l.requests)
    return `requests ${c.requests} with the level's ${l.succeeded} succeeded and ${l.failed} failed is not its ${l.requests} requests`;
  return null;
}

/** What a level shows of the server beside its cancelled requests: its tokens and its queue. */
export interface ServerQueueView {
  generatedTokens: number | null;
  /** Its count beside ours: a `generated-tokens` row whose diff (ours − its) is below 0 is work it did that no client read. */
  comparison?: ReadonlyArray<{ metric: string; diff: number }>;
  running: { mean: number; max: number } | null;
  waiting: { mean: number; max: number } | null;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const fixed = (x: number) => x.toFixed(1);

/**
 * "8 of 32 requests cancelled by the client (6 after the time, 2 after the tokens; 3 before their first token),
 * 410 tokens read before it; the server generated 9120 tokens (2280.0 tok/s over the level), 12 more than our
 * requests read, running mean 3.1 (max 4), waiting mean 0.2 (max 2)"; null when the level cancelled none.
 * What the server generated that nobody read is its work for clients already gone.
 */
export function cancelledNote(l: { requests: number; durationMs: number; cancelled?: CancelledSummary; serverTruth?: ServerQueueView | null }): string | null {
  const c = l.cancelled;
  if (c === undefined) return null;
  const why = [c.afterMs > 0 ? `${c.afterMs} after the time` : null, c.afterTokens > 0 ? `${c.afterTokens} after the tokens` : null].filter((x) => x !== null);
  const head = `${c.requests} of ${plural(l.requests, 'request', 'requests')} cancelled by the client (${why.join(', ')}; ${c.beforeFirstToken} before their first token), ${plural(c.outputTokens, 'token', 'tokens')} read before it`;
  const s = l.serverTruth ?? null;
  if (s === null) return `${head}; the server's own view was not scraped`;
  const server: string[] = [];
  if (s.generatedTokens !== null) {
    const rate = l.durationMs > 0 ? ` (${fixed(s.generatedTokens / (l.durationMs / 1000))} tok/s over the level)` : '';
    // Ours − its: below 0 it generated what nobody read; above 0 it left tokens we read out of its count (llama.cpp, for cancelled tasks).
    const diff = s.comparison?.find((r) => r.metric === 'generated-tokens')?.diff ?? 0;
    const excess = diff < 0 ? `, ${-diff} more than our requests read` : diff > 0 ? `, ${diff} fewer than our requests read` : '';
    server.push(`generated ${plural(s.generatedTokens, 'token', 'tokens')}${rate}${excess}`);
  }
  if (s.running !== null) server.push(`running mean ${fixed(s.running.mean)} (max ${s.running.max})`);
  if (s.waiting !== null) server.push(`waiting mean ${fixed(s.waiting.mean)} (max ${s.waiting.max})`);
  return server.length === 0 ? `${head}; the server reported neither its tokens nor its queue` : `${head}; the server ${server.join(', ')}`;
}
