/**
 * One level under closed-loop concurrency: C workers each send, wait for the
 * stream to end, and send again, until the level's requests are done. Warm-ups
 * go first, one at a time, and are tagged so no metric includes them. Prompts
 * are built before the clock starts so the hot path only sends and times.
 */
import { setMaxListeners } from 'node:events';
import type { RequestRecord } from '../core/index.js';
import type { Clock, RequestSpec, StreamingClient } from '../client/index.js';
import { syntheticPrompt } from '../workload/index.js';
import type { SweepSpec } from './sweep-spec.js';

export interface LevelContext {
  client: StreamingClient;
  spec: SweepSpec;
  model: string;
  concurrency: number;
  requests: number;
  clock: Clock;
  /** Distinguishes this run's prompts from every other run's (prefix-cache salt). */
  runId: string;
  signal: AbortSignal;
  /** Called for every finished request, warm-ups included. */
  onRecord(r: RequestRecord): void;
  /** Asked after a connection failure: does the server still answer? Resolves a reason when it does not. */
  checkServer(): Promise<string | null>;
}

export interface LevelRun {
  records: RequestRecord[];
  /** Set when the server stopped answering mid-level; the level is then incomplete. */
  serverFailure: string | null;
}

function requestSpec(ctx: LevelContext, seq: number): RequestSpec {
  const { spec } = ctx;
  return {
    endpoint: spec.endpoint,
    model: ctx.model,
    prompt: syntheticPrompt(spec.promptTokens, spec.seed + seq, `${ctx.runId}c${ctx.concurrency}n${seq}`),
    maxTokens: spec.outputTokens,
    forceLength: spec.forceLength,
    thinking: spec.thinking,
    temperature: spec.temperature,
    seed: spec.seed,
  };
}

export async function runLevel(ctx: LevelContext): Promise<LevelRun> {
  const records: RequestRecord[] = [];
  const stop = new AbortController();
  // Every in-flight request listens on this one signal.
  setMaxListeners(0, stop.signal);
  const onOuterAbort = () => stop.abort();
  ctx.signal.addEventListener('abort', onOuterAbort, { once: true });
  let serverFailure: string | null = null;
  let checking: Promise<void> | null = null;

  const finish = (r: RequestRecord) => {
    records.push(r);
    ctx.onRecord(r);
    const lost = r.outcome.kind === 'connection-error' || r.outcome.kind === 'truncated';
    if (lost && !checking && !serverFailure) {
      checking = ctx.checkServer().then((reason) => {
        if (reason) {
          serverFailure = reason;
          stop.abort();
        }
        checking = null;
      });
    }
  };

  try {
    const warmups = ctx.spec.warmup;
    for (let i = 0; i < warmups && !stop.signal.aborted; i++) {
      const now = ctx.clock();
      const r = await ctx.client.send(requestSpec(ctx, i), { seq: i, concurrency: ctx.concurrency, warmup: true, targetSendNs: now }, stop.signal);
      finish(r);
      if (checking) await checking;
    }

    const specs = Array.from({ length: ctx.requests }, (_, i) => requestSpec(ctx, warmups + i));
    // After the warm-ups (which may outlast an idle socket's keep-alive): C sockets open, so no measured request pays a handshake.
    if (!stop.signal.aborted) await ctx.client.openConnections(Math.min(ctx.concurrency, specs.length));
    let next = 0;
    const startNs = ctx.clock();
    const worker = async () => {
      let targetSendNs = startNs;
      while (next < specs.length && !stop.signal.aborted) {
        const i = next++;
        const r = await ctx.client.send(specs[i] as RequestSpec, { seq: warmups + i, concurrency: ctx.concurrency, warmup: false, targetSendNs }, stop.signal);
        finish(r);
        // Closed loop: the replacement is meant to leave the moment this one ended.
        targetSendNs = r.endNs ?? ctx.clock();
      }
    };
    await Promise.all(Array.from({ length: Math.min(ctx.concurrency, specs.length) }, worker));
    if (checking) await checking;
  } finally {
    ctx.signal.removeEventListener('abort', onOuterAbort);
  }
  return { records, serverFailure };
}
