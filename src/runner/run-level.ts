/**
 * One level. Warm-ups go first, one at a time, tagged so no metric includes
 * them. Then the arrival kind's plan: a closed loop (C workers each send, wait
 * for the stream to end, and send again; bounded by time and ramped, see
 * timed-loop.ts) or an open loop (each request leaves at its scheduled time,
 * see open-loop.ts). Each request's prompt is built the
 * moment it is sent (a closed loop's first C, which leave together, just before
 * the start), never a level's worth up front: memory stays that of the
 * requests in flight, and a stop is heard between any two sends.
 */
import { setMaxListeners } from 'node:events';
import { type LevelLoad, type RequestRecord, splitConcurrency } from '../core/index.js';
import type { PreparedRequest } from '../client/index.js';
import { type LevelPlan, arrivalOps } from '../workload/index.js';
import { audioPool, imagePool } from './image-pool.js';
import { type LevelContext, requestSpec, withAdapter } from './level-request.js';
import { levelLoad } from './level-load.js';
import { runAgentLevel, runSessions } from './level-sessions.js';
import { runClosedLoop } from './closed-loop.js';
import { runOpenLoop } from './open-loop.js';
import { runTimedLoop } from './timed-loop.js';
import { capPart, closedPart, openPart } from './share-parts.js';
import type { SweepSpec } from './sweep-spec.js';

export interface LevelRun {
  records: RequestRecord[];
  /** Set when the server stopped answering mid-level; the level is then incomplete. */
  serverFailure: string | null;
  /** How the load was applied and achieved. */
  load: LevelLoad;
  /** An open loop's whole schedule (every share's sends), ns; null for a closed loop. */
  scheduledNs: number[] | null;
}

export async function runLevel(given: LevelContext): Promise<LevelRun> {
  const ctx = withMediaPools(given);
  const stop = new AbortController();
  // Every in-flight request listens on this one signal.
  setMaxListeners(0, stop.signal);
  const onOuterAbort = () => stop.abort();
  ctx.signal.addEventListener('abort', onOuterAbort, { once: true });
  const tally = levelTally(ctx, stop);
  const plan = arrivalOps(ctx.spec.arrival).plan(ctx.concurrency, ctx.requests);
  let schedule: Schedule = { scheduledNs: null, waitedForSlot: 0 };
  try {
    await sendWarmups(ctx, tally, stop.signal);
    const sends = levelSends(ctx, tally, stop.signal);
    await beforeStart(ctx, plan, sends, stop.signal);
    const startNs = ctx.share ? await ctx.share.startAt() : ctx.clock();
    // Stopped before the start: nothing measured was sent.
    if (!stop.signal.aborted) schedule = await sendMeasured(ctx, plan, tally, sends, startNs, stop.signal);
    await tally.settled();
  } finally {
    ctx.signal.removeEventListener('abort', onOuterAbort);
  }
  return {
    records: tally.records,
    serverFailure: tally.serverFailure(),
    load: loadOf(ctx.spec, ctx.concurrency, tally.records, schedule.scheduledNs, schedule.waitedForSlot),
    scheduledNs: schedule.scheduledNs,
  };
}

/** The level's drawn images and clips, when it sends any. */
function withMediaPools(given: LevelContext): LevelContext {
  const { images, audio, warmup } = given.spec;
  const seed = given.spec.mediaSeed ?? given.spec.seed;
  const offset = given.promptOffset ?? 0;
  return {
    ...given,
    ...(images === null ? {} : { imagePool: imagePool(images, seed, offset, warmup + given.requests, given.state?.imagesServedAt ?? null) }),
    ...(audio === null ? {} : { audioPool: audioPool(audio, seed, offset, warmup + given.requests) }),
  };
}

/** A level's records as they finish; a lost connection asks whether the server still answers, and stops the level when it does not. */
interface LevelTally {
  records: RequestRecord[];
  finish(r: RequestRecord): void;
  /** Resolves once the server check in flight (if any) has answered. */
  settled(): Promise<void>;
  serverFailure(): string | null;
}

function levelTally(ctx: LevelContext, stop: AbortController): LevelTally {
  const records: RequestRecord[] = [];
  let serverFailure: string | null = null;
  let checking: Promise<void> | null = null;
  return {
    records,
    finish(sent) {
      // Tagged here, where every loop's and every share's records pass, from the same draw that named its model.
      const r = withAdapter(ctx, sent);
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
    },
    async settled() {
      if (checking) await checking;
    },
    serverFailure: () => serverFailure,
  };
}

/** Warm-ups, one at a time (share 0 alone sends them), each waiting for the server check it may start. */
async function sendWarmups(ctx: LevelContext, tally: LevelTally, signal: AbortSignal): Promise<void> {
  for (let i = 0; i < (ctx.share && ctx.share.index > 0 ? 0 : ctx.spec.warmup) && !signal.aborted; i++) {
    const spec = requestSpec(ctx, i);
    const now = ctx.pacer ? await ctx.pacer.before(spec, signal) : ctx.clock();
    const r = await ctx.client.send(spec, { seq: i, concurrency: ctx.concurrency, warmup: true, targetSendNs: now }, signal);
    ctx.pacer?.seen(r);
    tally.finish(r);
    await tally.settled();
  }
}

/** The level's measured sends by index: each request built when it leaves, or taken from those built ahead (each used once, then dropped). */
interface LevelSends {
  prepared: Map<number, PreparedRequest>;
  /** Builds measured request `i` (its prompt, body and head) ahead of its send. */
  prepare(i: number): void;
  /**
   * As `prepare`, for a request not sent yet (a quiet moment may come after it left: a closed loop sends in index
   * order), while those built and not yet sent hold less than AHEAD_BYTES: long prompts are built as they leave.
   */
  prepareAhead(i: number): void;
  /** Sends measured request `i`; `onEnded` hears its good end first (a closed loop replaces it from there); `ramp`: sent while a ramped level opens its streams, so marked and kept out of the numbers. */
  send(i: number, targetSendNs: number, o?: { onEnded?: (endNs: number) => void; ramp?: boolean }): Promise<RequestRecord>;
}

/** Most bytes of requests a level builds ahead of their sends (beyond a closed loop's first round). */
const AHEAD_BYTES = 32 * 1024 * 1024;

function levelSends(ctx: LevelContext, tally: LevelTally, signal: AbortSignal): LevelSends {
  const warmups = ctx.spec.warmup;
  const prepared = new Map<number, PreparedRequest>();
  let preparedBytes = 0;
  let sentUpTo = -1;
  const build = (i: number) =>
    ctx.client.prepare(requestSpec(ctx, warmups + i), { seq: warmups + i, concurrency: ctx.concurrency, warmup: false, targetSendNs: 0 });
  const prepare = (i: number) => {
    if (prepared.has(i) || signal.aborted) return;
    const request = build(i);
    prepared.set(i, request);
    preparedBytes += request.bytes;
  };
  return {
    prepared,
    prepare,
    prepareAhead: (i) => {
      if (i > sentUpTo && preparedBytes < AHEAD_BYTES) prepare(i);
    },
    async send(i, scheduledNs, o = {}) {
      sentUpTo = Math.max(sentUpTo, i);
      const ahead = prepared.get(i);
      const request = ahead ?? build(i);
      if (ahead !== undefined) {
        prepared.delete(i);
        preparedBytes -= ahead.bytes;
      }
      // Paced to a rate limit: the request is meant to leave when the budget lets it, not before.
      const targetSendNs = ctx.pacer ? Math.max(scheduledNs, await ctx.pacer.before(request.spec, signal)) : scheduledNs;
      const ramp = o.ramp === true;
      const r = await ctx.client.send(request, { seq: warmups + i, concurrency: ctx.concurrency, warmup: ramp, targetSendNs }, signal, o.onEnded);
      if (ramp) r.ramp = true;
      ctx.pacer?.seen(r);
      tally.finish(r);
      return r;
    },
  };
}

/**
 * After the warm-ups (which may outlast an idle socket's keep-alive): sockets
 * open, so no measured request pays a handshake; telemetry's window opens; a
 * closed loop's first C requests, which all leave at the start, are built
 * before it, so the burst pays only the writes.
 */
async function beforeStart(ctx: LevelContext, plan: LevelPlan, sends: LevelSends, signal: AbortSignal): Promise<void> {
  const sockets = arrivalOps(ctx.spec.arrival).warmSockets(ctx.concurrency, ctx.requests);
  if (!signal.aborted) await ctx.client.openConnections(ctx.share ? (splitConcurrency(sockets, ctx.share.count)[ctx.share.index] as number) : sockets);
  if (!signal.aborted) await ctx.beforeMeasured?.();
  if (plan.kind === 'closed' && ctx.spec.prompts.kind !== 'sessions' && ctx.spec.prompts.kind !== 'agents' && !signal.aborted) {
    const part = closedPart(plan.slots, ctx.requests, ctx.share);
    // A timed level's streams each send their own interleaved indices, the first of stream g being g.
    const first = ctx.spec.durationS === null ? part.from : part.firstSlot;
    for (let i = first; i < Math.min(part.to, first + part.slots); i++) sends.prepare(i);
  }
}

/** A level's schedule as sent: an open loop's whole schedule (every share's sends) and the sends that waited for a free slot. */
interface Schedule {
  scheduledNs: number[] | null;
  waitedForSlot: number;
}

/** The measured requests from `startNs` on, by what the level sends: sessions, an agent trace, a closed or an open loop. */
async function sendMeasured(ctx: LevelContext, plan: LevelPlan, tally: LevelTally, sends: LevelSends, startNs: number, signal: AbortSignal): Promise<Schedule> {
  if (ctx.spec.prompts.kind === 'sessions') {
    await runSessions(ctx, ctx.spec.prompts, startNs, signal, tally.finish);
    return { scheduledNs: null, waitedForSlot: 0 };
  }
  if (ctx.spec.prompts.kind === 'agents') {
    await runAgentLevel(ctx, ctx.spec.prompts, startNs, signal, tally.finish);
    // The schedule follows the graph, known only as turns end: each send's target, by its sequence number.
    const scheduledNs: number[] = [];
    for (const r of tally.records) if (!r.warmup) scheduledNs[r.seq] = r.targetSendNs;
    return { scheduledNs, waitedForSlot: 0 };
  }
  if (plan.kind === 'closed') {
    const part = closedPart(plan.slots, ctx.requests, ctx.share);
    if (ctx.spec.durationS !== null) {
      const shape = { durationS: ctx.spec.durationS, rampUpS: ctx.spec.rampUpS ?? 0 };
      await runTimedLoop({
        shape,
        streams: plan.slots,
        firstSlot: part.firstSlot,
        slots: part.slots,
        startNs,
        clock: ctx.clock,
        signal,
        send: (i, at, ramp) => sends.send(i, at, { ramp }),
      });
      return { scheduledNs: null, waitedForSlot: 0 };
    }
    // Closed loop: the replacement is meant to leave the moment its slot's request ended (a paced one waits for the pacer).
    const quiet = ctx.client.whenQuiet?.bind(ctx.client);
    await runClosedLoop({
      ...part,
      startNs,
      clock: ctx.clock,
      signal,
      early: !ctx.pacer,
      send: (i, at, onEnded) => sends.send(i, at, { onEnded }),
      ...(quiet === undefined ? {} : { prepareAhead: (i: number) => quiet(() => sends.prepareAhead(i)) }),
    });
    return { scheduledNs: null, waitedForSlot: 0 };
  }
  const mine = openPart(plan.offsetsNs.length, ctx.share);
  const at = (j: number) => mine[j] as number;
  // Open loops build requests due soon while they wait (open-loop.ts).
  const open = await runOpenLoop({
    offsetsNs: mine.map((i) => plan.offsetsNs[i] as number),
    maxInFlight: capPart(plan.maxInFlight, ctx.share),
    startNs,
    clock: ctx.clock,
    signal,
    prepare: (j) => sends.prepare(at(j)),
    send: (j, target) => sends.send(at(j), target),
  });
  // The whole level's schedule: every share's sends are judged against it.
  return { scheduledNs: plan.offsetsNs.map((o) => startNs + o), waitedForSlot: open.waitedForSlot };
}

/** How a level's load was applied, from its records (every share's, merged) and its whole schedule. */
export function loadOf(
  spec: SweepSpec,
  level: number,
  records: readonly RequestRecord[],
  scheduledNs: readonly number[] | null,
  waitedForSlot: number,
): LevelLoad {
  const measured = records.filter((r) => !r.warmup).map((record) => ({ record, index: record.seq - spec.warmup }));
  return levelLoad({
    kind: spec.arrival.kind,
    level,
    measured,
    scheduledNs,
    waitedForSlot,
    label:
      spec.prompts.kind !== 'sessions'
        ? arrivalOps(spec.arrival).label(level)
        : spec.arrival.kind === 'rate'
          ? `${level} sessions/s ${spec.arrival.process}`
          : `${level} session${level === 1 ? '' : 's'} at once`,
  });
}
