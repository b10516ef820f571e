/**
 * One level's figures from its raw records: every number in a LevelResult is
 * computed here, from records only. Warm-up requests are excluded from all of it.
 */
import { type RequestRecord, isFailed, isOk } from './record.js';
import { summarizeCancelled } from './cancel-summary.js';
import type { ClientBound, FailureKind, GpuMem, LevelResult } from './result-schema.js';
import { maxOf, mean, minOf, percentiles } from './percentiles.js';
import { chunkGapsMs, e2eMs, itlPerTokenMs, perRequestTokS, sendLagMs, tokensPerChunk, tpotMs, ttfaMs, ttftMs } from './request-metrics.js';
import { steadyWindow } from './steady-state.js';
import { inFlightHeld } from './in-flight.js';
import { summarizeStructured } from './structured-summary.js';
import { summarizeToolCalls } from './tool-call-summary.js';
import { type Spread, judgeClientBound } from './client-bound.js';
import { summarizeRateLimit, summarizeRetries } from './rate-limit-summary.js';
import type { RatePacing } from './rate-pacing.js';

export interface LevelInput {
  concurrency: number;
  /** All records of the level, warm-ups included (they are filtered here). */
  records: readonly RequestRecord[];
  /** The requested output length, tokens. */
  targetOutputTokens: number;
  /** Whether the length was forced (ignore_eos/min_tokens): then a shorter output is flagged. */
  forceLength: boolean;
  loopDelayMs: Spread | null;
  clientCpuPct: number | null;
  clientBudgetMs: number;
  /**
   * 'scaled' (the default): budgets scale with the level's TTFT and TPOT; 'floor':
   * every lateness against clientBudgetMs alone, as a result of an earlier version
   * (one without clientBound.budgets) was judged, so it recomputes as it was.
   */
  clientBudgetRule?: ClientBudgetRule;
  gpu: GpuMem;
  /** How the sweep paced its sends to a rate limit; absent or null: not paced. */
  pacing?: RatePacing | null;
  /** The concurrency the in-flight figures are judged against; absent: `concurrency`; null: none was asked (an open loop). */
  heldAgainst?: number | null;
}

export type ClientBudgetRule = 'scaled' | 'floor';

const MAX_FAILURE_EXAMPLES = 3;

function collect(records: readonly RequestRecord[], f: (r: RequestRecord) => number | null): number[] {
  const out: number[] = [];
  for (const r of records) {
    const v = f(r);
    if (v !== null) out.push(v);
  }
  return out;
}

function describeFailure(r: RequestRecord): string {
  const o = r.outcome;
  switch (o.kind) {
    case 'http-error':
      return `HTTP ${o.status}: ${o.message}`;
    case 'stream-error':
    case 'truncated':
      return `${o.kind}: ${o.message}`;
    case 'timeout':
      return `timeout (${o.phase}): ${o.message}`;
    case 'connection-error':
      return `connection error (${o.phase}): ${o.message}`;
    case 'response-too-large':
      return `response too large (${o.phase}): ${o.message}`;
    case 'stream-overrun':
      return `stream overrun: ${o.message}`;
    case 'client-lost':
      return `client lost: ${o.message}`;
    case 'not-sent':
      return `not sent (refused by us, not a server failure): ${o.message}`;
    case 'aborted':
      return 'aborted';
    case 'cancelled':
      return `cancelled by the client after its ${o.after}`;
    case 'ok':
      return 'ok';
  }
}

/** The instant the level's first sends targeted (its start), or Infinity without records. */
function levelStartOf(measured: readonly RequestRecord[]): number {
  let start = Infinity;
  for (const r of measured) start = Math.min(start, r.targetSendNs);
  return start;
}

/**
 * The client's judgement of itself over a level's measured records. The first C
 * sends all target the level's start: putting them on the wire takes time in any
 * client (the ramp, reported apart). Replacements target the end of the request
 * they replace, so their lag is our turnaround. Every send, the burst too, is
 * also judged on its lateness: written to the socket minus meant to leave.
 * Both are judged, with our event-loop delay and CPU, against budgets scaled by
 * the records' own TTFT and TPOT medians (what a lateness distorts).
 */
export function judgeRecordsClientBound(
  measured: readonly RequestRecord[],
  loopDelayMs: Spread | null,
  budgetMs: number,
  clientCpuPct: number | null,
  rule: ClientBudgetRule = 'scaled',
): ClientBound {
  const levelStartNs = levelStartOf(measured);
  const ramp = measured.filter((r) => r.targetSendNs === levelStartNs);
  const lags = measured.filter((r) => r.targetSendNs !== levelStartNs).map(sendLagMs);
  const lagSpread = percentiles(lags, [50, 99]);
  const rampMs = ramp.length > 0 ? ((maxOf(ramp.map((r) => r.sendNs)) as number) - levelStartNs) / 1e6 : null;
  const late = measured.flatMap((r) => (r.writtenNs === undefined ? [] : [Math.max(0, r.writtenNs - r.targetSendNs) / 1e6]));
  const lateSpread = percentiles(late, [50, 99]);
  const ok = measured.filter(isOk);
  const p50 = (xs: number[]) => percentiles(xs, [50])?.p50 ?? null;
  return judgeClientBound({
    sendLagMs: lagSpread ? { ...lagSpread, max: maxOf(lags) as number } : null,
    loopDelayMs,
    budgetMs,
    clientCpuPct,
    rampMs,
    sendLatenessMs: lateSpread ? { ...lateSpread, max: maxOf(late) as number } : null,
    timings: rule === 'floor' ? null : { ttftP50Ms: p50(collect(ok, ttftMs)), tpotP50Ms: p50(collect(ok, tpotMs)) },
  });
}

export function summarizeLevel(input: LevelInput): LevelResult {
  const measured = input.records.filter((r) => !r.warmup);
  const ok = measured.filter(isOk);
  // A request the workload gave up on purpose is neither: counted apart (cancelled), in no figure below.
  const failedRecords = measured.filter(isFailed);
  const cancelled = summarizeCancelled(measured);

  const failures: Partial<Record<FailureKind, number>> = {};
  const examples = new Set<string>();
  for (const r of failedRecords) {
    const kind = r.outcome.kind as FailureKind;
    failures[kind] = (failures[kind] ?? 0) + 1;
    if (examples.size < MAX_FAILURE_EXAMPLES) examples.add(describeFailure(r));
  }
  const failed = failedRecords.length;
  const summary = Object.entries(failures)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  const invalidReason = failed > 0 ? `${failed} of ${measured.length} requests failed (${summary})` : null;

  let startNs = Infinity;
  let endNs = -Infinity;
  for (const r of measured) {
    startNs = Math.min(startNs, r.sendNs);
    endNs = Math.max(endNs, r.endNs ?? r.chunkNs[r.chunkNs.length - 1] ?? r.sendNs);
  }
  const durationMs = measured.length > 0 ? Math.max(0, (endNs - startNs) / 1e6) : 0;

  let outputTokensTotal = 0;
  for (const r of ok) outputTokensTotal += r.outputTokens;
  const throughputTokS = durationMs > 0 ? outputTokensTotal / (durationMs / 1000) : 0;
  // Failed requests held slots too: they count for in-flight, not for tokens.
  const steady = steadyWindow(measured, input.concurrency);
  const inFlight = inFlightHeld(measured, input.heldAgainst === undefined ? input.concurrency : input.heldAgainst);

  const icl: number[] = [];
  const itl: number[] = [];
  const perChunk: number[] = [];
  for (const r of ok) {
    chunkGapsMs(r, icl);
    itlPerTokenMs(r, itl);
    for (const k of tokensPerChunk(r)) perChunk.push(k);
  }

  const lengths = ok.map((r) => r.outputTokens);
  const sources = new Set(ok.map((r) => r.outputTokenSource));
  const reasoningCounted = ok.filter((r) => r.reasoningTokens !== null);
  const reasoningFromChunks = ok.some((r) => r.reasoningTokens === null && r.reasoningChunks > 0);
  const perReq = mean(collect(ok, perRequestTokS));
  const clientBound = judgeRecordsClientBound(measured, input.loopDelayMs, input.clientBudgetMs, input.clientCpuPct, input.clientBudgetRule);
  const burstStart = levelStartOf(measured);
  const split = (burst: boolean) =>
    percentiles(
      collect(
        ok.filter((r) => (r.targetSendNs === burstStart) === burst),
        ttftMs,
      ),
      [50, 99],
    );

  const toolCalls = summarizeToolCalls(input.records);
  const structured = summarizeStructured(input.records);
  const retries = summarizeRetries(input.records);
  const rateLimit = summarizeRateLimit(input.records, input.pacing ?? null);
  return {
    concurrency: input.concurrency,
    requests: measured.length,
    succeeded: ok.length,
    failed,
    failures,
    failureExamples: [...examples],
    invalid: failed > 0,
    invalidReason,
    ...(cancelled === null ? {} : { cancelled }),
    clientRetries: measured.filter((r) => r.clientRetry === true).length,
    ...(retries === null ? {} : { retries }),
    ...(rateLimit === null ? {} : { rateLimit }),
    warmupRequests: input.records.length - measured.length,
    durationMs,
    outputTokensTotal,
    throughputTokS,
    steadyThroughputTokS: steady?.throughputTokS ?? null,
    steadyWindowMs: steady ? (steady.endNs - steady.startNs) / 1e6 : null,
    ...(inFlight === null ? {} : { inFlight }),
    perRequestTokS: perReq === null ? null : { mean: perReq },
    ttftMs: percentiles(collect(ok, ttftMs), [50, 95, 99]),
    ttftSplitMs: { burst: split(true), steady: split(false) },
    ttfaMs: percentiles(collect(ok, ttfaMs), [50, 95]),
    tpotMs: percentiles(collect(ok, tpotMs), [50, 95]),
    itlMs: percentiles(itl, [50, 99]),
    iclMs: percentiles(icl, [50, 99]),
    tokensPerChunk: perChunk.length > 0 ? { mean: mean(perChunk) as number } : null,
    e2eMs: percentiles(collect(ok, e2eMs), [50, 95]),
    outputTokens: {
      mean: mean(lengths),
      min: minOf(lengths),
      max: maxOf(lengths),
      source: sources.size === 0 ? 'none' : sources.size > 1 ? 'mixed' : ([...sources][0] as 'usage' | 'tokenizer' | 'chunks'),
      short: input.forceLength ? ok.filter((r) => r.outputTokens < input.targetOutputTokens).length : 0,
    },
    reasoningTokens: {
      total: ok.reduce((s, r) => s + (r.reasoningTokens ?? r.reasoningChunks), 0),
      source: reasoningCounted.length > 0 && !reasoningFromChunks ? 'usage' : reasoningFromChunks ? 'chunks' : 'none',
    },
    promptTokens: { mean: mean(collect(ok, (r) => r.promptTokens)) },
    clientBound,
    gpuMemMiB: input.gpu,
    ...(toolCalls === null ? {} : { toolCalls }),
    ...(structured === null ? {} : { structured }),
  };
}
