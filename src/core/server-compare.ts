/**
 * Our figures beside the server's, with the difference and a stated tolerance:
 * client TTFT should exceed the server's by about one network round trip (the
 * request travels one way, the first token the other); inter-token means should
 * match (the round trip cancels out); tokens and requests should match unless
 * someone else uses the server. Also judges whether the server queued requests,
 * which shows load as latency instead of as errors.
 */
import { type RequestRecord, inServerWindow, isCancelled, isOk } from './record.js';
import { chunkGapsMs, itlPerTokenMs, tpotMs, ttftMs } from './request-metrics.js';
import type { ServerFigures } from './server-truth.js';
import type { ComparisonRow, ServerTruth } from './telemetry-schema.js';

/** Tolerances of the comparison (why: README "Server-side ground truth"). */
export const SERVER_TOLERANCE = {
  /** Latency means may differ by this share of the server's figure (the acceptance bar at low load). */
  relative: 0.05,
  /** …but never less than this, ms: timer and event-loop wake-up granularity on both sides. */
  ttftFloorMs: 2,
  itlFloorMs: 0.5,
  /** Generated tokens may differ by this share (requests cut short, the server counting a final token). */
  tokensRelative: 0.02,
  /** A mean queue time above max(this, 2 decode steps, 10% of TTFT) means requests waited for capacity. */
  queueFloorMs: 5,
  queueStepFactor: 2,
  queueShareOfTtft: 0.1,
  /** Without a queue-time histogram: this many requests waiting on average. */
  waitingMean: 0.5,
} as const;

const mean = (xs: readonly number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);
const fmt = (x: number, d = 1) => x.toFixed(d);

/** One row of a comparison: our figure, the server's, their difference and whether it lies in the allowed range. */
export function comparisonRow(metric: ComparisonRow['metric'], client: number, server: number, min: number, max: number, basis: string): ComparisonRow {
  const diff = client - server;
  return {
    metric,
    client,
    server,
    diff,
    diffPct: server === 0 ? null : (diff / server) * 100,
    allowedMin: min,
    allowedMax: max,
    agrees: diff >= min && diff <= max,
    basis,
  };
}

/**
 * The client's inter-token mean measured the way the server's observation is defined,
 * and how far a late read can move it: within one request the gaps sum to last read −
 * first read, so only a late first or last read shifts the mean, by the lateness over
 * the request's gap count. `perLateMs` is that shift per ms of lateness, over the level.
 */
function clientItl(ok: readonly RequestRecord[], per: ServerFigures['itlPer']): { itl: number; perLateMs: number } | null {
  if (per === 'request') {
    const tpots = ok.map(tpotMs).filter((v): v is number => v !== null);
    const inverse = ok.filter((r) => tpotMs(r) !== null).map((r) => 1 / Math.max(1, r.outputTokens - 1));
    const itl = mean(tpots);
    return itl === null ? null : { itl, perLateMs: mean(inverse) ?? 0 };
  }
  const gaps: number[] = [];
  let requests = 0;
  for (const r of ok) {
    const before = gaps.length;
    (per === 'token' ? itlPerTokenMs : chunkGapsMs)(r, gaps);
    if (gaps.length > before) requests++;
  }
  const itl = mean(gaps);
  return itl === null ? null : { itl, perLateMs: requests / gaps.length };
}

/** TTFT from the send of the attempt the server answered: a retried request's last one, sent after the wait that followed the attempt before it. */
function servedTtftMs(r: RequestRecord): number | null {
  const before = r.attempts?.at(-1);
  if (before === undefined) return ttftMs(r);
  return r.firstTokenNs === null ? null : (r.firstTokenNs - (before.endNs + before.waitMs * 1e6)) / 1e6;
}

/** The fastest measured response's headers after its send, ms: no round trip to that server was longer. */
export function fastestHeadersMs(records: readonly RequestRecord[]): number | null {
  let best: number | null = null;
  for (const r of records) {
    if (r.warmup || r.headersNs === null) continue;
    const ms = (r.headersNs - r.sendNs) / 1e6;
    if (best === null || ms < best) best = ms;
  }
  return best;
}

/**
 * The round trip a level states: the connect probe's median, measured beside the level, is
 * an estimate that a busy moment can stretch past what the level itself shows; the fastest
 * response's headers bound it from above, so the stated figure is the smaller of the two.
 */
export function boundedRttMs(probeMs: number | null, records: readonly RequestRecord[]): number | null {
  const fastest = fastestHeadersMs(records);
  return probeMs === null || fastest === null ? probeMs : Math.min(probeMs, fastest);
}

/**
 * The rows and the verdicts for one level. `records` may include warm-ups; they are left out.
 * `clientLateMs` is our own event-loop delay during the level (p99): a first token read that
 * late is our scheduling, not the server's, so it widens the TTFT allowance by that much, and
 * the inter-token one by that much over a request's gaps (a late first or last read); so
 * does the server's own write lateness (p99), where it reports it: a server whose loop runs
 * that late also reads a request that late, and its TTFT clock starts only then.
 */
export function compareWithServer(
  records: readonly RequestRecord[],
  s: ServerFigures,
  rttMs: number | null,
  clientLateMs: number | null = null,
): { comparison: ComparisonRow[]; queued: boolean } {
  const T = SERVER_TOLERANCE;
  // A timed level's ramp requests are in the server's window too: compared like with like, they count here.
  const measured = records.filter(inServerWindow);
  const ok = measured.filter(isOk);
  // The server timed the first token and the steps of a request we cancelled as of any other: compared like with like, they count here.
  const streamed = measured.filter((r) => isOk(r) || isCancelled(r));
  const rows: ComparisonRow[] = [];
  // The server saw a retried request's last attempt only: ours is compared from that send (its wait after the attempt before it).
  const ttft = mean(streamed.map(servedTtftMs).filter((v): v is number => v !== null));
  if (ttft !== null && s.ttftMeanMs !== null) {
    const slack = Math.max(T.relative * s.ttftMeanMs, T.ttftFloorMs);
    const rtt = rttMs ?? 0;
    const late = (clientLateMs ?? 0) + (s.lateP99Ms ?? 0);
    const ours =
      (clientLateMs === null ? '' : ` + our event-loop delay ${fmt(clientLateMs, 2)} ms (p99)`) +
      (s.lateP99Ms === null ? '' : ` + the server's write lateness ${fmt(s.lateP99Ms, 2)} ms (p99)`);
    const basis =
      rttMs === null
        ? `±max(${T.relative * 100}%, ${T.ttftFloorMs} ms)${ours}; no round trip was measured`
        : `one ${fmt(rtt, 2)} ms round trip${ours} + max(${T.relative * 100}%, ${T.ttftFloorMs} ms)`;
    rows.push(comparisonRow('ttft-mean-ms', ttft, s.ttftMeanMs, -slack, rtt + late + slack, basis));
  }
  // A per-request figure (TPOT) is observed as a request finishes: a cancelled one has none.
  const ours = clientItl(s.itlPer === 'request' ? ok : streamed, s.itlPer);
  if (ours !== null && s.itlMeanMs !== null) {
    const late = (clientLateMs ?? 0) * ours.perLateMs;
    const slack = Math.max(T.relative * s.itlMeanMs, T.itlFloorMs) + late;
    const why = clientLateMs === null ? '' : ` + our event-loop delay ${fmt(clientLateMs, 2)} ms (p99) over ${fmt(1 / ours.perLateMs)} gaps a request`;
    rows.push(
      comparisonRow('itl-mean-ms', ours.itl, s.itlMeanMs, -slack, slack, `±max(${T.relative * 100}%, ${T.itlFloorMs} ms)${why}, per ${s.itlPer ?? 'chunk'}`),
    );
  }
  if (s.generatedTokens !== null && measured.length > 0) {
    const tokens = measured.reduce((a, r) => a + r.outputTokens, 0);
    const slack = Math.max(T.tokensRelative * s.generatedTokens, 1);
    // A request we gave up on purpose: one engine counts what it generated for it until it heard the socket close (tokens we never read,
    // as many as its noticing took), another leaves it out of its count altogether (llama.cpp's tokens_predicted_total). Either is no
    // disagreement: the range opens below by the server's count and above by what we read of them; the excess is shown apart.
    const cancelled = measured.filter(isCancelled);
    const cancelledRead = cancelled.reduce((a, r) => a + r.outputTokens, 0);
    const min = cancelled.length > 0 ? -Math.max(slack, s.generatedTokens) : -slack;
    const n = cancelled.length;
    const basis = `±${T.tokensRelative * 100}% of the server's count${n > 0 ? `, or apart from the ${n} ${n === 1 ? 'request' : 'requests'} we cancelled (what it generated for them before it heard them go, or the ${cancelledRead} tokens we read of them)` : ''}`;
    rows.push(comparisonRow('generated-tokens', tokens, s.generatedTokens, min, slack + cancelledRead, basis));
  }
  if (s.requests !== null && measured.length > 0) {
    rows.push(
      comparisonRow('requests', measured.length, s.requests, 0, measured.length, 'the server may count fewer (rejected before it started them), never more'),
    );
  }
  const stepMs = s.itlPer === 'request' ? 0 : (s.itlMeanMs ?? 0);
  const queueLimit = Math.max(T.queueFloorMs, T.queueStepFactor * stepMs, T.queueShareOfTtft * (s.ttftMeanMs ?? 0));
  const queued = s.queueMeanMs !== null ? s.queueMeanMs > queueLimit : (s.waiting?.mean ?? 0) >= T.waitingMean;
  return { comparison: rows, queued };
}

const WHAT: Readonly<Record<ComparisonRow['metric'], string>> = {
  'ttft-mean-ms': 'TTFT mean',
  'itl-mean-ms': 'inter-token mean',
  'generated-tokens': 'generated tokens',
  requests: 'requests',
  'e2e-mean-ms': 'latency mean',
};

/** "TTFT mean: ours 80.2, server 20.1 (+60.1; allowed −1.0…+1.3: one 0.30 ms round trip + …)" for each disagreeing row; null when all agree. */
export function describeDisagreement(rows: readonly ComparisonRow[]): string | null {
  const bad = rows.filter((r) => !r.agrees);
  if (bad.length === 0) return null;
  return bad
    .map((r) => {
      const unit = r.metric.endsWith('-ms') ? ' ms' : '';
      const sign = r.diff >= 0 ? '+' : '';
      return `${WHAT[r.metric]}: ours ${fmt(r.client)}${unit}, server ${fmt(r.server)}${unit} (${sign}${fmt(r.diff)}${unit}; allowed ${fmt(r.allowedMin)}…+${fmt(r.allowedMax)}: ${r.basis})`;
    })
    .join('; ');
}

/** Why we call the level queued, in words. */
export function describeQueue(t: Pick<ServerTruth, 'queueMeanMs' | 'ttftMeanMs' | 'waiting'>): string {
  const parts: string[] = [];
  if (t.queueMeanMs !== null) {
    const share = t.ttftMeanMs ? ` (${fmt((t.queueMeanMs / t.ttftMeanMs) * 100, 0)}% of its TTFT)` : '';
    parts.push(`mean queue time ${fmt(t.queueMeanMs)} ms${share}`);
  }
  if (t.waiting !== null) parts.push(`up to ${fmt(t.waiting.max, 0)} waiting (mean ${fmt(t.waiting.mean)})`);
  return parts.join(', ');
}
