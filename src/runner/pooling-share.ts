/**
 * One client's share of an embeddings or rerank level, run where it is sent
 * from (the main loop, or a client thread): its warm-ups one after another,
 * then — from the agreed start instant — its measured requests closed-loop over
 * its own streams, with the client's view of itself (event-loop delay, how busy
 * its loop was) over the measured part. The level's C streams are split over
 * the shares as a text level's closed loop is (share-parts.ts).
 */
import { performance } from 'node:perf_hooks';
import type { PoolingRecord, Spread } from '../core/index.js';
import type { Clock, PoolingClient, PoolingPayload } from '../client/index.js';
import { startLoopMonitor } from './loop-delay.js';
import { waitUntil } from './open-loop.js';
import { closedPart, openPart } from './share-parts.js';

/** One request of a share: its sequence number in the level and what it carries. */
export interface PoolingSend {
  seq: number;
  payload: PoolingPayload;
}

/** What share `index` of `count` sends at a level of `concurrency` streams: its streams, warm-ups and measured requests. */
export interface PoolingSharePlan {
  streams: number;
  warmups: PoolingSend[];
  measured: PoolingSend[];
}

/**
 * The plan of every share: streams split as evenly as they go, the measured
 * requests in proportion, the warm-ups dealt round-robin (the level's counts
 * stay those of one client). `payloadAt(k)` is the level's k-th request (warm-ups first).
 */
export function poolingSharePlans(
  concurrency: number,
  warmup: number,
  requests: number,
  count: number,
  payloadAt: (k: number) => PoolingPayload,
): PoolingSharePlan[] {
  const send = (seq: number): PoolingSend => ({ seq, payload: payloadAt(seq) });
  return Array.from({ length: count }, (_, index) => {
    const part = closedPart(concurrency, requests, { index, count });
    const measured = Array.from({ length: part.to - part.from }, (_, k) => send(warmup + part.from + k));
    return { streams: part.slots, warmups: openPart(warmup, { index, count }).map(send), measured };
  });
}

export interface PoolingShareInput {
  client: PoolingClient;
  model: string;
  /** The level's concurrency (what each record names). */
  concurrency: number;
  plan: PoolingSharePlan;
  clock: Clock;
  signal: AbortSignal;
  onRecord(r: PoolingRecord): void;
  /** After the warm-ups: resolves with the level's start instant on `clock` (ns) once every share is ready; absent, the share starts at once. */
  ready?(): Promise<number>;
}

export interface PoolingShareRun {
  records: PoolingRecord[];
  loopDelayMs: Spread | null;
  busyPct: number | null;
}

export async function runPoolingShare(o: PoolingShareInput): Promise<PoolingShareRun> {
  const records: PoolingRecord[] = [];
  const keep = (r: PoolingRecord) => {
    records.push(r);
    o.onRecord(r);
  };
  for (const w of o.plan.warmups) {
    if (o.signal.aborted) break;
    keep(await o.client.send(o.model, w.payload, { seq: w.seq, concurrency: o.concurrency, warmup: true }, o.signal));
  }
  if (o.ready) {
    // A share without warm-ups (they are dealt to the first shares) still opens its socket before the start.
    if (o.plan.warmups.length === 0 && !o.signal.aborted) await o.client.warm();
    const atNs = await o.ready();
    await waitUntil(o.clock, atNs, o.signal);
  }
  const loop = startLoopMonitor();
  const busy0 = performance.eventLoopUtilization();
  let next = 0;
  const stream = async () => {
    for (let i = next++; i < o.plan.measured.length && !o.signal.aborted; i = next++) {
      const m = o.plan.measured[i] as PoolingSend;
      keep(await o.client.send(o.model, m.payload, { seq: m.seq, concurrency: o.concurrency, warmup: false }, o.signal));
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.plan.streams, o.plan.measured.length) }, stream));
  return { records, loopDelayMs: loop.stop(), busyPct: performance.eventLoopUtilization(busy0).utilization * 100 };
}
