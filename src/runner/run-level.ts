/**
 * One level. Warm-ups go first, one at a time, tagged so no metric includes
 * them. Then the arrival kind's plan: a closed loop (C workers each send, wait
 * for the stream to end, and send again) or an open loop (each request leaves
 * at its scheduled time, see open-loop.ts). Each request's prompt is built the
 * moment it is sent (a closed loop's first C, which leave together, just before
 * the start), never a level's worth up front: memory stays that of the
 * requests in flight, and a stop is heard between any two sends.
 */
import { setMaxListeners } from 'node:events';
import { type LevelLoad, type RequestRecord, isOk, splitConcurrency, splitRequests } from '../core/index.js';
import { type Clock, type RequestSpec, type StreamingClient, answerOf, responseIdOf } from '../client/index.js';
import { type AgentsSource, type PromptItem, type SessionsSource, agentPrompt, arrivalOps, promptFor, sessionUserText } from '../workload/index.js';
import { runAgents, sleepUntilOn } from './agent-run.js';
import { levelLoad } from './level-load.js';
import { runOpenLoop } from './open-loop.js';
import type { RunState } from './run-state.js';
import type { SweepSpec } from './sweep-spec.js';
import { audioPool, imagePool, imagesOf } from './image-pool.js';

export interface LevelContext {
  client: StreamingClient;
  spec: SweepSpec;
  /** What the sweep set for itself (its image server's address); none when absent. */
  state?: RunState;
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
  /** Chat with images: the level's drawn images (see image-pool.ts); set by runLevel. */
  imagePool?: readonly string[];
  /** Chat with audio: the level's drawn clips (base64 WAV); set by runLevel. */
  audioPool?: readonly string[];
  /** Set when this client sends only its share of the level (a client thread); the other shares run elsewhere. */
  share?: LevelShare;
}

/**
 * One client's part of a level split over `count` clients. Every share computes
 * the same plan from the same spec and takes its own part of it: a closed loop's
 * streams and a contiguous run of its requests (splitConcurrency, splitRequests),
 * an open loop's sends (and session starts) round-robin, so each share's arrivals
 * thin the whole schedule evenly. Share 0 alone sends the warm-ups.
 */
export interface LevelShare {
  index: number;
  count: number;
  /** Resolves with the level's agreed start instant (ns, on `clock`) once every share is ready to send. */
  startAt(): Promise<number>;
}

type ShareOf = Pick<LevelShare, 'index' | 'count'>;

/**
 * The sequence numbers of the measured requests `share` sends at `level` (sessions:
 * of the turns it sends), so a share that never finished can be accounted for.
 */
export function shareSeqs(spec: SweepSpec, level: number, requests: number, share: ShareOf): number[] {
  const plan = arrivalOps(spec.arrival).plan(level, spec.prompts.kind === 'sessions' ? spec.prompts.sessions.length : requests);
  if (spec.prompts.kind === 'sessions') {
    const sessions = spec.prompts.sessions;
    let ids: number[];
    if (plan.kind === 'closed') {
      const part = closedPart(plan.slots, sessions.length, share);
      ids = Array.from({ length: part.to - part.from }, (_, k) => part.from + k);
    } else ids = openPart(plan.offsetsNs.length, share);
    const turns = ids.reduce((a, id) => a + (sessions[id]?.turns.length ?? 0), 0);
    return Array.from({ length: turns }, (_, k) => k * share.count + share.index);
  }
  if (plan.kind === 'closed') {
    const part = closedPart(plan.slots, requests, share);
    return Array.from({ length: part.to - part.from }, (_, k) => spec.warmup + part.from + k);
  }
  return openPart(plan.offsetsNs.length, share).map((i) => spec.warmup + i);
}

/** This share's slots and request range of a closed loop of `slots` streams and `total` requests. */
function closedPart(slots: number, total: number, share: ShareOf | undefined): { slots: number; from: number; to: number } {
  const streams = Math.min(slots, total);
  if (!share) return { slots: streams, from: 0, to: total };
  const each = splitConcurrency(streams, share.count);
  const range = splitRequests(total, each)[share.index] as { from: number; to: number };
  return { slots: each[share.index] as number, ...range };
}

/** The positions of `n` scheduled sends this share makes (every count-th, from its index). */
function openPart(n: number, share: ShareOf | undefined): number[] {
  const step = share?.count ?? 1;
  const out: number[] = [];
  for (let i = share?.index ?? 0; i < n; i += step) out.push(i);
  return out;
}

/** An open loop's in-flight cap for this share (at least 1: the sweep never runs more shares than the cap). */
const capPart = (max: number, share: ShareOf | undefined) => (share ? Math.max(1, splitConcurrency(max, share.count)[share.index] as number) : max);

export interface LevelRun {
  records: RequestRecord[];
  /** Set when the server stopped answering mid-level; the level is then incomplete. */
  serverFailure: string | null;
  /** How the load was applied and achieved. */
  load: LevelLoad;
  /** An open loop's whole schedule (every share's sends), ns; null for a closed loop. */
  scheduledNs: number[] | null;
}

/**
 * The salt a level's shared prompts (trace blocks, session openings) start with:
 * the run's and the level's, so no level is served from the prefix cache another
 * level warmed, while the trace's own shared prefixes stay shared inside the level.
 */
export function levelSalt(ctx: { runId: string; concurrency: number }): string {
  return `${ctx.runId}l${ctx.concurrency}`;
}

/** Request `seq` of the level; `given` is its prompt when the caller built it (a session's turn). */
function requestSpec(ctx: LevelContext, seq: number, given?: PromptItem): RequestSpec {
  const { spec } = ctx;
  const salt = `${ctx.runId}c${ctx.concurrency}n${seq}`;
  const item = given ?? promptFor(spec.prompts, { index: (ctx.promptOffset ?? 0) + seq, promptTokens: spec.promptTokens, seed: spec.seed + seq, salt, run: levelSalt(ctx) });
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
    ...(spec.tools === null ? {} : { tools: spec.tools }),
    ...(spec.images === null || ctx.imagePool === undefined ? {} : { images: imagesOf(ctx.imagePool, spec.images.perRequest, seq) }),
    ...(ctx.audioPool === undefined || ctx.audioPool.length === 0 ? {} : { audio: ctx.audioPool[seq % ctx.audioPool.length] as string }),
    ...(spec.responseSchema === null ? {} : { structured: { spec: spec.responseSchema, control: isControl(seq, spec.responseSchema.control) } }),
  };
}

/** Request `seq` is a plain control of a structured-output level: the control share spread evenly over the sequence. */
export const isControl = (seq: number, share: number): boolean => Math.floor((seq + 1) * share) > Math.floor(seq * share);

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
 * model's own answers — after the session's think time, or, on the Responses API of
 * an engine that keeps answers, only the new message with `previous_response_id`;
 * a turn that fails ends its session (the next turn would need its answer).
 */
async function runSessions(ctx: LevelContext, src: SessionsSource, startNs: number, signal: AbortSignal, finish: (r: RequestRecord) => void): Promise<void> {
  // Shares number their turns apart: share i of n sends seq i, i + n, i + 2n…
  const stride = ctx.share?.count ?? 1;
  let sent = 0;
  const nextSeq = () => (sent++) * stride + (ctx.share?.index ?? 0);
  const runSession = async (id: number, firstTargetNs: number): Promise<Pick<RequestRecord, 'endNs'>> => {
    const session = src.sessions[id] as SessionsSource['sessions'][number];
    const history: Array<{ role: 'user' | 'assistant'; content: string }> = [];
    const responses = ctx.spec.endpoint === 'responses';
    let previous: string | undefined;
    let targetSendNs = firstTargetNs;
    let endNs: number | null = null;
    for (const [turn, t] of session.turns.entries()) {
      if (turn > 0) {
        await pause(session.thinkMs[turn - 1] ?? 0, signal);
        targetSendNs = ctx.clock();
      }
      if (signal.aborted) break;
      const user = sessionUserText(src, id, turn, levelSalt(ctx));
      const seq = nextSeq();
      // Responses: an engine that keeps answers gets only the new message after the last answer's id; one that keeps none, the history.
      const spec: RequestSpec = {
        ...requestSpec(ctx, seq, { text: user, outputTokens: t.o }), history: [...history], keepAnswer: true,
        ...(previous === undefined ? {} : { previousResponseId: previous }),
      };
      const r = await ctx.client.send(spec, { seq, concurrency: ctx.concurrency, warmup: false, targetSendNs, session: { id, turn } }, signal);
      finish(r);
      endNs = r.endNs;
      if (!isOk(r)) break;
      if (responses) {
        previous = responseIdOf(r);
        // A Responses turn whose answer named no response id cannot be continued.
        if (previous === undefined) break;
      }
      history.push({ role: 'user', content: user }, { role: 'assistant', content: answerOf(r) ?? '' });
    }
    return { endNs: endNs ?? ctx.clock() };
  };
  const n = src.sessions.length;
  const plan = arrivalOps(ctx.spec.arrival).plan(ctx.concurrency, n);
  if (plan.kind === 'closed') {
    const part = closedPart(plan.slots, n, ctx.share);
    let next = part.from;
    const worker = async () => {
      let target = startNs;
      while (next < part.to && !signal.aborted) target = (await runSession(next++, target)).endNs ?? ctx.clock();
    };
    await Promise.all(Array.from({ length: part.slots }, worker));
  } else {
    const mine = openPart(plan.offsetsNs.length, ctx.share);
    await runOpenLoop({
      offsetsNs: mine.map((i) => plan.offsetsNs[i] as number), maxInFlight: capPart(plan.maxInFlight, ctx.share), startNs, clock: ctx.clock, signal,
      send: (j, target) => runSession(mine[j] as number, target),
    });
  }
}

/** An agent trace's level (agent-run.ts): every turn built with its context when it leaves, recorded with its session and turn. */
async function runAgentLevel(ctx: LevelContext, src: AgentsSource, startNs: number, signal: AbortSignal, finish: (r: RequestRecord) => void): Promise<void> {
  // Each turn is built before its wait (prompts of a long context take a while), used once, then dropped.
  const prepared = new Map<number, RequestSpec>();
  const build = (id: number, turn: number, seq: number) => requestSpec(ctx, seq, { text: agentPrompt(src, id, turn, levelSalt(ctx)), outputTokens: src.sessions[id]?.turns[turn]?.o });
  await runAgents(src, ctx.concurrency, startNs, signal, {
    clock: ctx.clock,
    sleepUntil: sleepUntilOn(ctx.clock),
    prepare: (id, turn, seq) => { prepared.set(seq, build(id, turn, seq)); },
    send: async (id, turn, seq, targetSendNs) => {
      const spec = prepared.get(seq) ?? build(id, turn, seq);
      prepared.delete(seq);
      const r = await ctx.client.send(spec, { seq, concurrency: ctx.concurrency, warmup: false, targetSendNs, session: { id, turn } }, signal);
      finish(r);
      return { endNs: r.endNs ?? ctx.clock(), ok: isOk(r) };
    },
  });
}

export async function runLevel(given: LevelContext): Promise<LevelRun> {
  const { images, audio, warmup } = given.spec;
  const seed = given.spec.mediaSeed ?? given.spec.seed;
  const offset = given.promptOffset ?? 0;
  const ctx = {
    ...given,
    ...(images === null ? {} : { imagePool: imagePool(images, seed, offset, warmup + given.requests, given.state?.imagesServedAt ?? null) }),
    ...(audio === null ? {} : { audioPool: audioPool(audio, seed, offset, warmup + given.requests) }),
  };
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
    for (let i = 0; i < (ctx.share && ctx.share.index > 0 ? 0 : warmups) && !stop.signal.aborted; i++) {
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
    const sockets = ops.warmSockets(ctx.concurrency, total);
    if (!stop.signal.aborted) await ctx.client.openConnections(ctx.share ? (splitConcurrency(sockets, ctx.share.count)[ctx.share.index] as number) : sockets);
    if (!stop.signal.aborted) await ctx.beforeMeasured?.();
    // A closed loop's first C sends all leave at the start: their prompts are built before it, so the
    // burst pays only the writes (each is used once, then dropped, as an open loop's early ones).
    if (plan.kind === 'closed' && ctx.spec.prompts.kind !== 'sessions' && ctx.spec.prompts.kind !== 'agents' && !stop.signal.aborted) {
      const part = closedPart(plan.slots, total, ctx.share);
      for (let i = part.from; i < Math.min(part.to, part.from + part.slots); i++) prepared.set(i, requestSpec(ctx, warmups + i));
    }
    const startNs = ctx.share ? await ctx.share.startAt() : ctx.clock();
    if (stop.signal.aborted) {
      // Stopped before the start: nothing measured was sent.
    } else if (ctx.spec.prompts.kind === 'sessions') {
      await runSessions(ctx, ctx.spec.prompts, startNs, stop.signal, finish);
    } else if (ctx.spec.prompts.kind === 'agents') {
      await runAgentLevel(ctx, ctx.spec.prompts, startNs, stop.signal, finish);
      // The schedule follows the graph, known only as turns end: each send's target, by its sequence number.
      scheduledNs = [];
      for (const r of records) if (!r.warmup) scheduledNs[r.seq] = r.targetSendNs;
    } else if (plan.kind === 'closed') {
      const part = closedPart(plan.slots, total, ctx.share);
      let next = part.from;
      const worker = async () => {
        let targetSendNs = startNs;
        while (next < part.to && !stop.signal.aborted) {
          const r = await send(next++, targetSendNs);
          // Closed loop: the replacement is meant to leave the moment this one ended.
          targetSendNs = r.endNs ?? ctx.clock();
        }
      };
      await Promise.all(Array.from({ length: part.slots }, worker));
    } else {
      const mine = openPart(plan.offsetsNs.length, ctx.share);
      const at = (j: number) => mine[j] as number;
      const prepare = (j: number) => { prepared.set(at(j), requestSpec(ctx, warmups + at(j))); };
      const open = await runOpenLoop({
        offsetsNs: mine.map((i) => plan.offsetsNs[i] as number), maxInFlight: capPart(plan.maxInFlight, ctx.share), startNs, clock: ctx.clock, signal: stop.signal,
        prepare, send: (j, target) => send(at(j), target),
      });
      // The whole level's schedule: every share's sends are judged against it.
      scheduledNs = plan.offsetsNs.map((o) => startNs + o);
      waitedForSlot = open.waitedForSlot;
    }
    if (checking) await checking;
  } finally {
    ctx.signal.removeEventListener('abort', onOuterAbort);
  }
  return { records, serverFailure, load: loadOf(ctx.spec, ctx.concurrency, records, scheduledNs, waitedForSlot), scheduledNs };
}

/** How a level's load was applied, from its records (every share's, merged) and its whole schedule. */
export function loadOf(spec: SweepSpec, level: number, records: readonly RequestRecord[], scheduledNs: readonly number[] | null, waitedForSlot: number): LevelLoad {
  const measured = records.filter((r) => !r.warmup).map((record) => ({ record, index: record.seq - spec.warmup }));
  return levelLoad({
    kind: spec.arrival.kind, level, measured, scheduledNs, waitedForSlot,
    label: spec.prompts.kind !== 'sessions' ? arrivalOps(spec.arrival).label(level)
      : spec.arrival.kind === 'rate' ? `${level} sessions/s ${spec.arrival.process}` : `${level} session${level === 1 ? '' : 's'} at once`,
  });
}
