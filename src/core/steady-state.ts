/**
 * Steady-state throughput: tokens that arrived while all C slots were busy,
 * over that window. The window opens when C requests are first in flight and
 * closes when the count last falls below C (the drain). The brief dips between
 * one request ending and its replacement being sent count as busy: they are
 * our client's turnaround, not idle server capacity.
 */
import type { RequestRecord } from './record.js';
import { tokensPerChunk } from './request-metrics.js';

export interface SteadyWindow {
  startNs: number;
  endNs: number;
  tokens: number;
  throughputTokS: number;
}

/** The steady window of successful, measured records at concurrency `c`, or null when C was never reached. */
export function steadyWindow(records: readonly RequestRecord[], c: number): SteadyWindow | null {
  const events: Array<[number, number]> = [];
  for (const r of records) {
    if (r.endNs === null) continue;
    events.push([r.sendNs, +1], [r.endNs, -1]);
  }
  // Ends before sends at the same instant: a slot is free before it is refilled.
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let inFlight = 0;
  let startNs: number | null = null;
  let endNs: number | null = null;
  for (const [t, d] of events) {
    const before = inFlight;
    inFlight += d;
    if (before < c && inFlight >= c && startNs === null) startNs = t;
    if (before >= c && inFlight < c) endNs = t;
  }
  if (startNs === null || endNs === null || endNs <= startNs) return null;
  let tokens = 0;
  for (const r of records) {
    if (r.outcome.kind !== 'ok') continue;
    const perChunk = tokensPerChunk(r);
    for (let i = 0; i < r.chunkNs.length; i++) {
      const t = r.chunkNs[i] as number;
      if (t >= startNs && t <= endNs) tokens += perChunk[i] as number;
    }
  }
  return { startNs, endNs, tokens, throughputTokS: tokens / ((endNs - startNs) / 1e9) };
}
