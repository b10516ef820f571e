/**
 * The client checks itself. When our own send lag or event-loop delay is large
 * against what it distorts, the timestamps of that level can no longer be
 * trusted to the stated accuracy, and the level says so rather than blaming
 * the server.
 */
import type { ClientBound } from './result-schema.js';

export interface Spread {
  p50: number;
  p99: number;
  max: number;
}

/**
 * The fixed floor (ms) of every budget: lateness at or under it never makes a
 * level client-bound, however fast the server. Each budget grows above it with
 * the level's own timings (CLIENT_BUDGET_SHARE).
 */
export const DEFAULT_CLIENT_BUDGET_MS = 10;

/**
 * The share of what a lateness distorts that it may reach (at p99) before the
 * level is client-bound: 15 ms late against a 1 s TTFT is 1.5 % of it, no
 * bottleneck; against a 40 ms TTFT it is not a measurement of the server.
 */
export const CLIENT_BUDGET_SHARE = 0.05;

/**
 * A client thread busy this much of the time (% of one core) reads its sockets
 * late: reads queue behind one another, so token instants (TPOT above all) drift
 * before the loop delay shows it. Measured: at 87 % our TPOT was 53 % off with a
 * loop delay still under budget. At or above this, the level is client-bound.
 */
export const CLIENT_CPU_BOUND_PCT = 70;

/**
 * What a level's lateness can distort, its own medians (ms), null when it has
 * none. A late send moves the request's start, so it distorts TTFT (and e2e,
 * which is longer); a delayed event loop moves every instant we stamp, so it
 * distorts the shortest interval we report, TPOT (and ITL). A non-streaming
 * answer (embeddings, rerank) has one interval: its latency is both.
 */
export interface LevelTimings {
  ttftP50Ms: number | null;
  tpotP50Ms: number | null;
}

/** The budgets a level is judged against, ms: for late sends and for the event loop's delay. */
export interface ClientBudgets {
  sendMs: number;
  loopMs: number;
}

const scaled = (floorMs: number, ms: number | null): number => Math.max(floorMs, ms === null ? 0 : CLIENT_BUDGET_SHARE * ms);

/** Each budget: CLIENT_BUDGET_SHARE of what it distorts, never below the floor. */
export function clientBudgets(floorMs: number, t: LevelTimings | null): ClientBudgets {
  const finest = t === null ? null : [t.ttftP50Ms, t.tpotP50Ms].reduce<number | null>((m, x) => (x === null ? m : m === null ? x : Math.min(m, x)), null);
  return { sendMs: scaled(floorMs, t?.ttftP50Ms ?? null), loopMs: scaled(floorMs, finest) };
}

export interface ClientJudgeInput {
  /** Replacement sends' lag (send − the end of the request each replaced). */
  sendLagMs: Spread | null;
  loopDelayMs: Spread | null;
  /** The floor of every budget (the --client-budget-ms setting). */
  budgetMs: number;
  clientCpuPct: number | null;
  rampMs?: number | null;
  /**
   * Each request's last byte written minus its slot freeing or scheduled
   * instant, the burst included: a thousand requests that all start at once and
   * take us 40 ms to write show here, and nowhere else.
   */
  sendLatenessMs?: Spread | null;
  /**
   * The level's own timings the budgets scale with. Null judges every lateness
   * at the floor alone, as results of earlier versions were judged (no `budgets`
   * kept, the reason saying "budget N ms"), so they still recompute.
   */
  timings?: LevelTimings | null;
}

const f1 = (x: number) => x.toFixed(1);

function budgetText(floorMs: number, b: ClientBudgets, t: LevelTimings): string {
  const of = (what: string, ms: number | null, budget: number) =>
    ms !== null && budget > floorMs ? `${f1(budget)} ms (${CLIENT_BUDGET_SHARE * 100} % of ${what} p50 ${f1(ms)} ms)` : `${floorMs} ms (the floor)`;
  const loopBy =
    t.tpotP50Ms !== null && (t.ttftP50Ms === null || t.tpotP50Ms <= t.ttftP50Ms) ? (['TPOT', t.tpotP50Ms] as const) : (['TTFT', t.ttftP50Ms] as const);
  return `budget for sends ${of('TTFT', t.ttftP50Ms, b.sendMs)}, for the event loop ${of(loopBy[0], loopBy[1], b.loopMs)}`;
}

/**
 * Whether the client, not the server, bounded a level: each lateness against
 * the budget of what it distorts (clientBudgets), and the client's busy share
 * against CLIENT_CPU_BOUND_PCT.
 */
export function judgeClientBound(input: ClientJudgeInput): ClientBound {
  const { sendLagMs, loopDelayMs, budgetMs, clientCpuPct } = input;
  const rampMs = input.rampMs ?? null;
  const sendLatenessMs = input.sendLatenessMs ?? null;
  const timings = input.timings ?? null;
  const budgets = clientBudgets(budgetMs, timings);
  const stated = timings === null ? `budget ${budgetMs} ms` : budgetText(budgetMs, budgets, timings);
  const reasons: string[] = [];
  if (sendLagMs && sendLagMs.p99 > budgets.sendMs) {
    reasons.push(`replacement requests left ${f1(sendLagMs.p99)} ms (p99) after the slot freed`);
  }
  if (sendLatenessMs && sendLatenessMs.p99 > budgets.sendMs) {
    reasons.push(
      `requests were fully written ${f1(sendLatenessMs.p99)} ms (p99, max ${f1(sendLatenessMs.max)} ms) after their slot freed or their scheduled instant (send lateness, bursts included)`,
    );
  }
  if (loopDelayMs && loopDelayMs.p99 > budgets.loopMs) {
    reasons.push(`the client's event loop was delayed ${f1(loopDelayMs.p99)} ms (p99)`);
  }
  if (clientCpuPct !== null && clientCpuPct >= CLIENT_CPU_BOUND_PCT) {
    reasons.push(`the client was busy ${clientCpuPct.toFixed(0)} % of one core (limit ${CLIENT_CPU_BOUND_PCT} %)`);
  }
  return {
    bound: reasons.length > 0,
    reason: reasons.length > 0 ? `${reasons.join('; ')}; ${stated}` : null,
    sendLagMs,
    loopDelayMs,
    budgetMs,
    ...(timings === null ? {} : { budgets }),
    clientCpuPct,
    rampMs,
    sendLatenessMs,
  };
}
