/**
 * One level. Warm-ups go first, one at a time, tagged so no metric includes
 * them. Then the arrival kind's plan: a closed loop (C workers each send, wait
 * for the stream to end, and send again) or an open loop (each request leaves
 * at its scheduled time, see open-loop.ts). Each request's prompt is built the
 * moment it is sent, never a level's worth up front: memory stays that of the
 * requests in flight, and a stop is heard between any two sends.
 */
import { setMaxListeners } from 'node:events';
import { type LevelLoad, type RequestRecord, isOk } from '../core/index.js';
import { type Clock, type RequestSpec, type StreamingClient, answerOf } from '../client/index.js';
import { type PromptItem, type SessionsSource, arrivalOps, promptFor, sessionUserText } from '../workload/index.js';
import { levelLoad } from './level-load.js';
import { runOpenLoop } from './open-loop.js';
import type { SweepSpec } from './sweep-spec.js';

export interface LevelContext {
  client: StreamingClient;
  spec: SweepSpec;
  model: string;
  /** The level value on the arrival kind's axis (streams, req/s or burst size); recorded as each record's `concurrency`. */
  concurrency: number;
  requests: number;
  clock: Clock;
  /** Distinguishes this run's prompts from every other run's (prefix-cache salt). */
  runId: string;
  /** Requests (warm-ups included) the sweep sent before this level: where a prompt list continues. */
  promptOffset?: number;
  signal: AbortSignal;
  /** Called for every finished request, warm-ups included. */
  onRecord(r: RequestRecord): void;
  /** Asked after a connection failure: does the server still answer? Resolves a reason when it does not. */
  checkServer(): Promise<string | null>;
  /** Awaited after the warm-ups, just before the measured requests: telemetry opens its window here. */
  beforeMeasured?(): Promise<void>;
}

export interface LevelRun {
  records: RequestRecord[];
  /** Set when the server stopped answering mid-level; the level is then incomplete. */
  serverFailure: string | null;
  /** How the load was applied and achieved. */
  load: LevelLoad;
}

/** Request `seq` of the level; `given` is its prompt when the caller built it (a session's turn). */
function requestSpec(ctx: LevelContext, seq: number, given?: PromptItem): RequestSpec {
  const { spec } = ctx;
  const salt = `${ctx.runId}c${ctx.concurrency}n${seq}`;
  const item = given ?? promptFor(spec.prompts, { index: (ctx.promptOffset ?? 0) + seq, promptTokens: spec.promptTokens, seed: spec.seed + seq, salt, run: ctx.runId });
  return {
    endpoint: spec.endpoint,
    model: ctx.model,
    prompt: item.text,
    maxTokens: item.outputTokens ?? spec.outputTokens,
    forceLength: spec.forceLength,
    thinking: spec.thinking,
    temperature: spec.temperature,
    seed: spec.seed,
    // A cold run also asks the engine's own switch (cache_salt, cache_prompt: false) to keep the prefix cache cold.
    ...(spec.cache === 'cold' ? { cacheSalt: salt } : {}),
    ...(spec.topP === null ? {} : { topP: spec.topP }),
  };
}

/** Waits `ms`, or less when the signal stops the run. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const done = () => { clearTimeout(timer); signal.removeEventListener('abort', done); resolve(); };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Multi-turn sessions: at a session concurrency (C sessions at once, the next one
 * starting when one ends) or a session rate (open loop over session starts). Each
 * turn is sent with the conversation so far — earlier user messages and the
 * model's own answers — after the session's think time; a turn that fails ends its
 * session (the next turn would need its answer).
 */
async function runSessions(ctx: LevelContext, src: SessionsSource, signal: AbortSignal, finish: (r: RequestRecord) => void): Promise<void> {
  let seq = 0;
  const runSession = async (id: number, firstTargetNs: number): Promise<Pick<RequestRecord, 'endNs'>> => {
    const session = src.sessions[id] as SessionsSource['sessions'][number];
    const history: Array<{ role: 'user' | 'assistant'; content: string }> = [];
    let targetSendNs = firstTargetNs;
    let endNs: number | null = null;
    for (const [turn, t] of session.turns.entries()) {
      if (turn > 0) {
        await pause(session.thinkMs[turn - 1] ?? 0, signal);
        targetSendNs = ctx.clock();
      }
      if (signal.aborted) break;
      const user = sessionUserText(session, id, turn, ctx.runId);
      const spec: RequestSpec = { ...requestSpec(ctx, seq, { text: user, outputTokens: t.o }), history: [...history], keepAnswer: true };
      const r = await ctx.client.send(spec, { seq: seq++, concurrency: ctx.concurrency, warmup: false, targetSendNs, session: { id, turn } }, signal);
      finish(r);
      endNs = r.endNs;
      if (!isOk(r)) break;
      history.push({ role: 'user', content: user }, { role: 'assistant', content: answerOf(r) ?? '' });
    }
    return { endNs: endNs ?? ctx.clock() };
  };
  const n = src.sessions.length;
  const plan = arrivalOps(ctx.spec.arrival).plan(ctx.concurrency, n);
  if (plan.kind === 'closed') {
    let next = 0;
    const worker = async () => {
      let target = ctx.clock();
      while (next < n && !signal.aborted) target = (await runSession(next++, target)).endNs ?? ctx.clock();
    };
    await Promise.all(Array.from({ length: Math.min(plan.slots, n) }, worker));
  } else {
    await runOpenLoop({ offsetsNs: plan.offsetsNs, maxInFlight: plan.maxInFlight, startNs: ctx.clock(), clock: ctx.clock, signal, send: runSession });
  }
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
  const ops = arrivalOps(ctx.spec.arrival);
  const plan = ops.plan(ctx.concurrency, ctx.requests);
  let scheduledNs: number[] | null = null;
  let waitedForSlot = 0;

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

  const warmups = ctx.spec.warmup;
  try {
    for (let i = 0; i < warmups && !stop.signal.aborted; i++) {
      const now = ctx.clock();
      const r = await ctx.client.send(requestSpec(ctx, i), { seq: i, concurrency: ctx.concurrency, warmup: true, targetSendNs: now }, stop.signal);
      finish(r);
      if (checking) await checking;
    }

    const total = ctx.requests;
    // Open loops build requests due soon while they wait (open-loop.ts): each is used once, then dropped.
    const prepared = new Map<number, RequestSpec>();
    const specAt = (i: number) => {
      const spec = prepared.get(i) ?? requestSpec(ctx, warmups + i);
      prepared.delete(i);
      return spec;
    };
    const send = async (i: number, targetSendNs: number) => {
      const r = await ctx.client.send(specAt(i), { seq: warmups + i, concurrency: ctx.concurrency, warmup: false, targetSendNs }, stop.signal);
      finish(r);
      return r;
    };
    // After the warm-ups (which may outlast an idle socket's keep-alive): sockets open, so no measured request pays a handshake.
    if (!stop.signal.aborted) await ctx.client.openConnections(ops.warmSockets(ctx.concurrency, total));
    if (!stop.signal.aborted) await ctx.beforeMeasured?.();
    const startNs = ctx.clock();
    if (ctx.spec.prompts.kind === 'sessions') {
      await runSessions(ctx, ctx.spec.prompts, stop.signal, finish);
    } else if (plan.kind === 'closed') {
      let next = 0;
      const worker = async () => {
        let targetSendNs = startNs;
        while (next < total && !stop.signal.aborted) {
          const r = await send(next++, targetSendNs);
          // Closed loop: the replacement is meant to leave the moment this one ended.
          targetSendNs = r.endNs ?? ctx.clock();
        }
      };
      await Promise.all(Array.from({ length: Math.min(plan.slots, total) }, worker));
    } else {
      const prepare = (i: number) => { prepared.set(i, requestSpec(ctx, warmups + i)); };
      const open = await runOpenLoop({ offsetsNs: plan.offsetsNs, maxInFlight: plan.maxInFlight, startNs, clock: ctx.clock, signal: stop.signal, prepare, send });
      scheduledNs = open.scheduledNs;
      waitedForSlot = open.waitedForSlot;
    }
    if (checking) await checking;
  } finally {
    ctx.signal.removeEventListener('abort', onOuterAbort);
  }
  const measured = records.filter((r) => !r.warmup).map((record) => ({ record, index: record.seq - warmups }));
  const load = levelLoad({
    kind: ctx.spec.arrival.kind, level: ctx.concurrency, measured, scheduledNs, waitedForSlot,
    label: ctx.spec.prompts.kind !== 'sessions' ? ops.label(ctx.concurrency)
      : ctx.spec.arrival.kind === 'rate' ? `${ctx.concurrency} sessions/s ${ctx.spec.arrival.process}` : `${ctx.concurrency} session${ctx.concurrency === 1 ? '' : 's'} at once`,
  });
  return { records, serverFailure, load };
}
