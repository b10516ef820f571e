/**
 * One client's share of a level, run where it is sent from (a client thread, a
 * worker process): the level's requests for this share, and the client's own
 * view of itself over the measured part — its event-loop delay and how busy its
 * loop was — both taken from the agreed start instant on.
 */
import { performance } from 'node:perf_hooks';
import type { RequestRecord, Spread } from '../core/index.js';
import { type Clock, type StreamingClient, preflight } from '../client/index.js';
import { startLoopMonitor } from './loop-delay.js';
import { waitUntil } from './open-loop.js';
import { type LevelRun, runLevel } from './run-level.js';
import type { RunState } from './run-state.js';
import { type SweepSpec, targetOf } from './sweep-spec.js';

export interface ShareInput {
  client: StreamingClient;
  spec: SweepSpec;
  /** What the sweep set for itself (its image server's address); none when absent. */
  state?: RunState;
  model: string;
  runId: string;
  clock: Clock;
  index: number;
  count: number;
  concurrency: number;
  requests: number;
  promptOffset: number;
  signal: AbortSignal;
  onRecord(r: RequestRecord): void;
  /** Says this share is ready (warm-ups sent, sockets open) and resolves with the level's start instant on `clock`, ns. */
  ready(): Promise<number>;
}

export interface ShareRun {
  run: LevelRun;
  loopDelayMs: Spread | null;
  busyPct: number | null;
}

export async function runShare(o: ShareInput): Promise<ShareRun> {
  let loop: ReturnType<typeof startLoopMonitor> | null = null;
  let busy0: ReturnType<typeof performance.eventLoopUtilization> | null = null;
  const target = targetOf(o.spec);
  const run = await runLevel({
    client: o.client,
    spec: o.spec,
    state: o.state,
    model: o.model,
    concurrency: o.concurrency,
    requests: o.requests,
    clock: o.clock,
    runId: o.runId,
    promptOffset: o.promptOffset,
    signal: o.signal,
    onRecord: o.onRecord,
    checkServer: async () => {
      const again = await preflight(target, o.model, { timeoutMs: 3000 });
      return again.ok ? null : again.message;
    },
    share: {
      index: o.index,
      count: o.count,
      startAt: async () => {
        const atNs = await o.ready();
        loop = startLoopMonitor();
        busy0 = performance.eventLoopUtilization();
        await waitUntil(o.clock, atNs, o.signal);
        return atNs;
      },
    },
  });
  const loopDelayMs = (loop as ReturnType<typeof startLoopMonitor> | null)?.stop() ?? null;
  const busyPct = busy0 === null ? null : performance.eventLoopUtilization(busy0).utilization * 100;
  return { run, loopDelayMs, busyPct };
}
