/**
 * The client checks itself. When our own send lag or event-loop delay exceeds
 * the budget, the timestamps of that level can no longer be trusted to the
 * stated accuracy, and the level says so rather than blaming the server.
 */
import type { ClientBound } from './result-schema.js';

export interface Spread { p50: number; p99: number; max: number }

/** Default budget (ms) for our send lag, send lateness and event-loop delay, each at p99. */
export const DEFAULT_CLIENT_BUDGET_MS = 10;

/**
 * A client thread busy this much of the time (% of one core) reads its sockets
 * late: reads queue behind one another, so token instants (TPOT above all) drift
 * before the loop delay shows it. Measured: at 87 % our TPOT was 53 % off with a
 * loop delay still under budget. At or above this, the level is client-bound.
 */
export const CLIENT_CPU_BOUND_PCT = 70;

/**
 * `sendLatenessMs` is each request's last byte written minus its slot freeing or
 * scheduled instant, the burst included: a thousand requests that all start at
 * once and take us 40 ms to write show here, and nowhere else.
 */
export function judgeClientBound(
  sendLagMs: Spread | null,
  loopDelayMs: Spread | null,
  budgetMs: number,
  clientCpuPct: number | null,
  rampMs: number | null = null,
  sendLatenessMs: Spread | null = null,
): ClientBound {
  const reasons: string[] = [];
  if (sendLagMs && sendLagMs.p99 > budgetMs) {
    reasons.push(`replacement requests left ${sendLagMs.p99.toFixed(1)} ms (p99) after the slot freed`);
  }
  if (sendLatenessMs && sendLatenessMs.p99 > budgetMs) {
    reasons.push(`requests were fully written ${sendLatenessMs.p99.toFixed(1)} ms (p99, max ${sendLatenessMs.max.toFixed(1)} ms) after their slot freed or their scheduled instant (send lateness, bursts included)`);
  }
  if (loopDelayMs && loopDelayMs.p99 > budgetMs) {
    reasons.push(`the client's event loop was delayed ${loopDelayMs.p99.toFixed(1)} ms (p99)`);
  }
  if (clientCpuPct !== null && clientCpuPct >= CLIENT_CPU_BOUND_PCT) {
    reasons.push(`the client was busy ${clientCpuPct.toFixed(0)} % of one core (limit ${CLIENT_CPU_BOUND_PCT} %)`);
  }
  return {
    bound: reasons.length > 0,
    reason: reasons.length > 0 ? `${reasons.join('; ')}; budget ${budgetMs} ms` : null,
    sendLagMs,
    loopDelayMs,
    budgetMs,
    clientCpuPct,
    rampMs,
    sendLatenessMs,
  };
}
