/**
 * A level of a non-streaming sweep from its records: requests/s, items/s
 * (inputs or documents), input tokens/s, latency percentiles, failures by
 * reason, and cost per million input tokens when an hourly cost is known.
 * The level's duration runs from its first measured send to its last end.
 */
import { mean, percentileOfSorted, percentiles, sortedCopy } from './percentiles.js';
import type { PoolingRecord } from './pooling-record.js';
import type { ClientBound } from './result-schema.js';
import { type Spread, judgeClientBound } from './client-bound.js';
import { wholeLevelBase } from './whole-level.js';

/** One failure reason and how many requests ended with it. */
export interface PoolingFailure {
  reason: string;
  count: number;
}

export interface PoolingLevel {
  concurrency: number;
  requests: number;
  failed: number;
  /** First measured send to last end, seconds; null without measured requests. */
  durationS: number | null;
  requestsPerS: number | null;
  /** Inputs (embeddings) or documents (rerank) of successful requests per second. */
  itemsPerS: number | null;
  /** Server-reported input tokens of successful requests per second; null when some success reported none. */
  inputTokensPerS: number | null;
  /** Mean server-reported input tokens per successful request. */
  inputTokensPerRequest: number | null;
  /** Latency of successful requests, send to last byte, ms. */
  latencyMs: { p50: number; p95: number; p99: number; mean: number } | null;
  /** Embeddings: the vectors' dimension (one for the level), null otherwise. */
  dimension: number | null;
  /** Hourly cost over input tokens at this level's rate, USD per million; null without a cost or a rate. */
  costPerMInputTokensUsd: number | null;
  /** The most common reasons first (at most 5 kept). */
  failures: PoolingFailure[];
  /** The latency objective's verdict at this level; null without one. */
  slo: PoolingSloVerdict | null;
  /** Whether our own client bounded the level (then it is no peak); absent in results of earlier versions. */
  clientBound?: ClientBound;
}

/**
 * What the records cannot hold of the client's check on itself: its worst
 * share's event-loop delay, its busiest client thread (null with one client on
 * the main loop, which may host other work), and the budget's floor.
 */
export interface PoolingClientLoad {
  loopDelayMs: Spread | null;
  clientCpuPct: number | null;
  budgetMs: number;
}

/**
 * The level's client load from its shares: the worst loop delay and, with client
 * threads, the busiest thread (a thread does nothing but send; the main loop may
 * host other work, so one client's busy share is not judged).
 */
export function poolingClientLoad(shares: ReadonlyArray<{ loopDelayMs: Spread | null; busyPct: number | null }>, budgetMs: number): PoolingClientLoad {
  let loopDelayMs: Spread | null = null;
  for (const s of shares) if (s.loopDelayMs !== null && (loopDelayMs === null || s.loopDelayMs.p99 > loopDelayMs.p99)) loopDelayMs = s.loopDelayMs;
  const busy = shares.length > 1 ? shares.flatMap((s) => (s.busyPct === null ? [] : [s.busyPct])) : [];
  return { loopDelayMs, clientCpuPct: busy.length > 0 ? Math.max(...busy) : null, budgetMs };
}

/** A latency objective of a non-streaming endpoint: the p-th percentile of latency at most `maxMs`. */
export interface PoolingSlo {
  p: number;
  maxMs: number;
}

/**
 * The verdict: the p-th percentile over every measured request, a failed one counting as
 * infinitely slow (it met no objective); `observedMs` is null when that percentile is a failure.
 */
export interface PoolingSloVerdict extends PoolingSlo {
  observedMs: number | null;
  holds: boolean;
  /** Requests that succeeded within `maxMs`, per second of the level, and as a share of its requests. */
  metPerS: number | null;
  metShare: number | null;
}

function sloVerdict(slo: PoolingSlo, measured: readonly PoolingRecord[], durationS: number | null): PoolingSloVerdict {
  const lat = measured.map((r) => (r.outcome.kind === 'ok' ? (r.endNs - r.sentNs) / 1e6 : Number.POSITIVE_INFINITY));
  const at = percentileOfSorted(sortedCopy(lat), slo.p);
  const observedMs = at === null || !Number.isFinite(at) ? null : at;
  const met = lat.filter((x) => x <= slo.maxMs).length;
  return {
    ...slo,
    observedMs,
    holds: observedMs !== null && observedMs <= slo.maxMs,
    metPerS: durationS === null ? null : met / durationS,
    metShare: measured.length === 0 ? null : met / measured.length,
  };
}

/** Every measured request of the level failed: it has no rates, only its failures (its requests/s would count refusals). */
export function allFailed(l: Pick<PoolingLevel, 'requests' | 'failed'>): boolean {
  return l.requests > 0 && l.failed === l.requests;
}

/** The level's figures from its records (warm-ups are ignored); a level where every request failed has no rates. */
export function poolingLevel(
  concurrency: number,
  records: readonly PoolingRecord[],
  hourlyCostUsd: number | null,
  slo: PoolingSlo | null = null,
  client: PoolingClientLoad | null = null,
): PoolingLevel {
  const { head, measured, ok, durationS, per, latenciesMs: lat, failures } = wholeLevelBase(concurrency, records);
  const tokens = ok.map((r) => r.inputTokens);
  const allTokens = ok.length > 0 && tokens.every((t): t is number => t !== null);
  const inputTokensPerS = allTokens ? per((tokens as number[]).reduce((a, b) => a + b, 0)) : null;
  const p = percentiles(lat, [50, 95, 99] as const);
  const dims = new Set(ok.map((r) => r.dimension).filter((d): d is number => d !== null));
  return {
    ...head,
    itemsPerS: per(ok.reduce((a, r) => a + r.items, 0)),
    inputTokensPerS,
    inputTokensPerRequest: allTokens ? mean(tokens as number[]) : null,
    latencyMs: p === null ? null : { ...p, mean: mean(lat) as number },
    dimension: dims.size === 1 ? ([...dims][0] as number) : null,
    costPerMInputTokensUsd:
      hourlyCostUsd === null || inputTokensPerS === null || inputTokensPerS === 0 ? null : (hourlyCostUsd / (inputTokensPerS * 3600)) * 1e6,
    failures,
    slo: slo === null ? null : sloVerdict(slo, measured, durationS),
    // One answer per request: its latency is what a delayed loop distorts, both its start and its end.
    ...(client === null ? {} : { clientBound: judgeClientBound({ ...client, sendLagMs: null, timings: { ttftP50Ms: p?.p50 ?? null, tpotP50Ms: null } }) }),
  };
}
