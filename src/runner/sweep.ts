/**
 * sweepText: a text-generation sweep, reached through runSweep (run-kinds.ts).
 * Preflight, then each level in ascending order — warm-up, measured requests,
 * summary — emitting typed events the terminal, files and stores subscribe to.
 * Its steps: prepareSweep and the image server (sweep-setup.ts), the levels
 * (the level loop every kind runs, level-loop.ts, given the text sender here
 * and judgeLevel and levelEndWarnings in sweep-level.ts) and the result
 * (sweep-result.ts).
 */
import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import { type LevelResult, type SweepResult, type Warning, levelAxis, sharesLoad } from '../core/index.js';
import { type Clock, type Dialect, type DialectKind, type StreamingClient, type Target, monotonicNs, preflight, resolveTarget } from '../client/index.js';
import type { GpuSource } from '../telemetry/index.js';
import { arrivalOps } from '../workload/index.js';
import { withPriming } from './cache-priming.js';
import { type ClientThreads, startClientThreads, threadsFor } from './client-threads.js';
import type { EngineSetup } from './engine-setup.js';
import { SweepError } from './errors.js';
import { imageBytesProblem } from './image-pool.js';
import { type LevelTelemetry, startRunTelemetry } from './level-telemetry.js';
import { type LoopMonitor, startLoopMonitor } from './loop-delay.js';
import { ratePacer } from './rate-pacer.js';
import { loadOf, runLevel } from './run-level.js';
import type { RunState } from './run-state.js';
import { type LevelAt, type LevelStep, levelsComplete, parseSpec, sweepLevels, sweepTalk } from './level-loop.js';
import { type SentLevel, imageConnectionsClosed, judgeLevel, levelEndWarnings } from './sweep-level.js';
import { type SweepEnd, sweepResult } from './sweep-result.js';
import { type OpenSweep, type PreparedSweep, closeSweep, imageServerFor, prepareSweep } from './sweep-setup.js';
import { type SweepSpec, type SweepSpecInput, requestsFor, sweepSpecSchema, targetOf } from './sweep-spec.js';
import { sweepClient, targetUrls } from './sweep-client.js';
import type { SweepEvent, SweepHooks } from './sweep-events.js';

export interface SweepDeps extends SweepHooks<'text'> {
  clock?: Clock;
  /** A GPU source instead of the one `gpuSource` chooses (tests). */
  gpu?: GpuSource;
  /** Clients elsewhere every level is split over (goodput worker processes), given the run's identity; replaces client threads. */
  clients?: (init: { spec: SweepSpec; state: RunState; model: string; dialect: DialectKind; runId: string; connections: number }) => ClientThreads;
  /** Builds the client (tests swap in timeouts); defaults to the streaming client speaking the engine's dialect. */
  client?: (spec: SweepSpec, connections: number, dialect: Dialect) => StreamingClient;
}

/** A text-generation sweep: the text kind's driver (runner/run-kinds.ts); callers go through runSweep. */
export async function sweepText(input: SweepSpecInput, deps: SweepDeps = {}): Promise<SweepResult> {
  const spec = parseSpec(sweepSpecSchema, input);
  const imagesProblem = imageBytesProblem(spec.images, spec.audio, spec.mediaSeed ?? spec.seed);
  if (imagesProblem !== null) throw new SweepError('bad-input', imagesProblem);
  // A worker's lost share is accounted for by the sequence numbers it was given, which a level bounded by time does not know ahead.
  if (deps.clients && spec.durationS !== null)
    throw new SweepError('bad-input', "durationS: a level bounded by time runs on this machine's client threads, not on goodput workers");
  const talk = sweepTalk<'text'>(deps);
  const { emit, warn } = talk;
  const clock = deps.clock ?? monotonicNs;
  const target = targetOf(spec);
  const prep = await prepareSweep(spec, target, {
    preflight: (model, models) => emit({ kind: 'preflight', model, models }),
    engine: (engine) => emit(engineEvent(engine)),
    warn,
  });
  const opened = await openSweep(spec, prep, target, deps, clock, warn);
  const startedAt = new Date().toISOString();
  // Every target of a fleet is asked: the first that no longer answers is named.
  const checkServer = async () => {
    const urls = targetUrls(spec);
    const answers = await Promise.all(urls.map((url) => preflight({ ...target, baseUrl: url }, prep.model, { timeoutMs: 3000 })));
    const i = answers.findIndex((a) => !a.ok);
    const failed = answers[i];
    if (failed === undefined || failed.ok) return null;
    return spec.fleet === null ? failed.message : `${urls[i]}: ${failed.message}`;
  };
  let end: SweepEnd;
  try {
    const run: SweepRun = { spec, prep, opened, clock, signal: talk.signal, checkServer };
    // The text kind's part of the level loop: its levels, its sender and judge (sweepLevel), counting output tokens.
    end = await sweepLevels<'text'>(talk, deps, {
      order: prep.order,
      warmup: spec.warmup,
      requestsAt: (c) => requestsFor(spec, c),
      // A level bounded by time says so as it starts: its request count is only the most it may send.
      ...(spec.durationS === null ? {} : { startFields: () => ({ durationS: spec.durationS }) }),
      tokensOf: (r) => r.outputTokens,
      level: (at, done) => sweepLevel(run, at, done),
      // A primed cell's prefix is sent after the hooks' own calls (a reset first), over the sweep's client.
      serverHooks: withPriming(prep.hooks, spec, { client: opened.client, dialect: prep.engine.dialect, model: prep.model, clock, signal: talk.signal }),
    });
  } finally {
    await closeSweep(opened);
  }
  for (const w of prep.checks.warnings()) warn(w);
  if (end.stopReason) emit({ kind: 'stopped', status: end.status as 'stopped' | 'server-failed', reason: end.stopReason });
  return sweepResult(spec, prep, { ...end, startedAt, serverMetrics: opened.telemetry.serverMetrics, warnings: talk.warnings });
}

/** The engine event: the dialect the run speaks, detected (with its evidence) or given. */
function engineEvent(engine: EngineSetup): SweepEvent {
  const { dialect } = engine;
  return {
    kind: 'engine',
    name: dialect.engine,
    label: dialect.label,
    version: engine.version,
    dialect: dialect.kind,
    source: engine.source,
    evidence: engine.evidence,
    context: engine.context,
  };
}

/** Opens what the sweep keeps for its lifetime: telemetry, the image server, the client and the client threads (or the deps' clients elsewhere). */
async function openSweep(spec: SweepSpec, prep: PreparedSweep, target: Target, deps: SweepDeps, clock: Clock, warn: (w: Warning) => void): Promise<OpenSweep> {
  const { dialect } = prep.engine;
  const telemetry = await startRunTelemetry(spec, resolveTarget(target).authHeaders, warn, deps.gpu, dialect);
  // Images by URL: our own image server, for the sweep's lifetime (closed with the rest, a stop included).
  const imageServer = await imageServerFor(spec, telemetry);
  const state: RunState = { imagesServedAt: imageServer === null ? null : imageServer.servedAt };
  const sendSpec: SweepSpec = { ...spec, ...(prep.lengths ? { prompts: prep.lengths.prompts } : {}) };
  const maxC = arrivalOps(spec.arrival).connections(prep.order[prep.order.length - 1] as number);
  const client =
    deps.client?.(sendSpec, maxC, dialect) ??
    sweepClient(spec, {
      connections: maxC,
      clock,
      timeouts: spec.timeouts,
      dialect,
      retry: spec.retry,
      traceparent: spec.traceparent,
    });
  // An injected client or clock lives on this thread: such a sweep runs in it.
  // An agent trace's joins wait on turns of other sessions, and one pacer holds a rate limit's budget: their levels run on one thread.
  const threadsAsked = deps.client || deps.clock || spec.prompts.kind === 'agents' || spec.rateLimit !== null ? 1 : spec.clientThreads;
  const threadsMax = threadsFor(threadsAsked, maxC);
  const init = { spec: sendSpec, state, model: prep.model, dialect: dialect.kind, runId: prep.runId };
  const threads: ClientThreads | null = deps.clients?.({ ...init, connections: maxC }) ?? (threadsMax > 1 ? startClientThreads(threadsMax, init, maxC) : null);
  const pacer = spec.rateLimit === null ? null : ratePacer(spec.rateLimit, clock);
  return { sendSpec, state, telemetry, imageServer, client, threads, pacer };
}

/** What every level of a sweep reads: fixed once the sweep is open. */
interface SweepRun {
  spec: SweepSpec;
  prep: PreparedSweep;
  opened: OpenSweep;
  clock: Clock;
  signal: AbortSignal;
  /** Asked after a connection failure: does the server still answer? Resolves a reason when it does not. */
  checkServer(): Promise<string | null>;
}

/** One level: sent with its progress events, its telemetry read, and judged. */
async function sweepLevel(run: SweepRun, at: LevelAt<'text'>, done: readonly LevelResult[]): Promise<LevelStep<'text'>> {
  const { spec, opened, prep } = run;
  const c = at.concurrency;
  const imageFiles =
    opened.imageServer !== null && spec.images !== null
      ? opened.imageServer.serveLevel(spec.images, spec.mediaSeed ?? spec.seed, at.offset, spec.warmup + at.requests)
      : null;
  const imageClosed0 = imageConnectionsClosed(opened.imageServer);
  const loop = startLoopMonitor();
  let sent: SentLevel;
  let tel: LevelTelemetry;
  let name: string;
  try {
    sent = await sendLevel(run, at, loop);
    // A session run's levels are sessions at once (or per second) on its axis.
    name = levelAxis([{ concurrency: c, load: sent.load, ...(spec.prompts.kind === 'sessions' ? { sessions: true } : {}) }]).describe(c);
    tel = await opened.telemetry.afterMeasured(name, sent.records, sent.loopDelayMs ?? undefined);
  } finally {
    loop.stop();
  }
  if (sent.serverFailure) {
    // A level bounded by time has no count to be part of: its requests so far, of its duration.
    const sofar = spec.durationS === null ? `${at.counted.done} of ${at.requests} requests` : `${at.counted.done} requests of its ${spec.durationS} s`;
    const reason = `the server stopped answering during the ${name} level, after ${sofar} (${at.counted.failed} failed): ${sent.serverFailure.replace(/\.$/, '')}. ${levelsComplete(done)}`;
    return { kind: 'stop', status: 'server-failed', reason };
  }
  if (run.signal.aborted) return { kind: 'aborted' };
  const judged = judgeLevel(spec, sent, tel, at.offset, prep.lengths?.info ?? null);
  const { records } = sent;
  prep.checks.add(records);
  const later = () => {
    const imageClosed = imageConnectionsClosed(opened.imageServer) - imageClosed0;
    return levelEndWarnings(spec, prep.engine.dialect, prep.lengths?.info ?? null, { ...judged, records, tel, concurrency: c, imageClosed });
  };
  // What identifies the images the server fetched, kept where the address they came from is not (a receipt withholds it).
  const level = imageFiles === null ? judged.level : { ...judged.level, imageFiles };
  return { kind: 'level', level, records, later };
}

/**
 * Sends a level: over the client threads (or workers) when it is split, else on
 * this thread. Our side going away mid-level (the workers' database, a thread
 * or worker lost) rejects, and the level loop ends the sweep as a stop.
 */
async function sendLevel(run: SweepRun, lv: LevelAt<'text'>, loop: LoopMonitor): Promise<SentLevel> {
  const { spec, opened } = run;
  const c = lv.concurrency;
  // Our busy share: this event loop's utilisation over the measured requests (threads measure their own).
  let busy0: EventLoopUtilization | null = null;
  const beforeMeasured = async () => {
    await opened.telemetry.beforeMeasured();
    busy0 = performance.eventLoopUtilization();
  };
  const { threads } = opened;
  const n = threads ? threadsFor(threads.size, Math.min(arrivalOps(spec.arrival).connections(c), lv.requests)) : 1;
  const promptOffset = lv.offset;
  if (threads && (n > 1 || threads.always)) {
    const t = await threads.runLevel({
      concurrency: c,
      requests: lv.requests,
      promptOffset,
      count: n,
      signal: run.signal,
      onRecord: lv.onRecord,
      beforeMeasured,
    });
    return { ...t, load: loadOf(spec, c, t.records, t.scheduledNs, t.waitedForSlot), ...sharesLoad(t.shares) };
  }
  const r = await runLevel({
    client: opened.client,
    spec: opened.sendSpec,
    state: opened.state,
    model: run.prep.model,
    concurrency: c,
    requests: lv.requests,
    clock: run.clock,
    runId: run.prep.runId,
    promptOffset,
    signal: run.signal,
    checkServer: run.checkServer,
    beforeMeasured,
    onRecord: lv.onRecord,
    ...(opened.pacer === null ? {} : { pacer: opened.pacer }),
  });
  return {
    ...r,
    shares: undefined,
    loopDelayMs: loop.peek(),
    clientCpuPct: busy0 === null ? null : performance.eventLoopUtilization(busy0).utilization * 100,
  };
}
