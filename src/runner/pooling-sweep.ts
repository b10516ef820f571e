/**
 * sweepPooling: an embeddings or rerank sweep, reached through runSweep
 * (run-kinds.ts). Preflight (the server, the
 * model, the engine, and one small request proving the route is served), then
 * inputs of exact token length (pooling-setup.ts), then each concurrency level
 * ascending — warm-up, measured requests closed-loop — summarised from its records.
 */
import { randomBytes } from 'node:crypto';
import {
  type PoolingLevel,
  type PoolingRecord,
  type PoolingResult,
  type Warning,
  SCHEMA_VERSION,
  poolingCapacity,
  poolingClientLoad,
  poolingLevel,
  poolingPeak,
} from '../core/index.js';
import {
  type Clock,
  type DialectKind,
  type PoolingClient,
  type PoolingRoute,
  type Target,
  createPoolingClient,
  monotonicNs,
  resolveTarget,
} from '../client/index.js';
import { type PoolingThreads, startPoolingThreads, threadsFor } from './client-threads.js';
import { type EngineSetup, resolveEngine } from './engine-setup.js';
import { type PoolingInputs, modelOf, poolingInputs, probeRoute, routeOf } from './pooling-setup.js';
import { poolingSharePlans, runPoolingShare, type PoolingShareRun } from './pooling-share.js';
import { type PoolingTelemetry, startPoolingTelemetry } from './pooling-telemetry.js';
import { type PoolingSpec, type PoolingSpecInput, poolingSpecSchema } from './pooling-spec.js';
import { PROMPT_MISMATCH_SHARE } from './prompt-lengths.js';
import { closedLoopRequests, levelOrder } from './sweep-spec.js';
import { runEnd, type LevelAt, type LevelKind, type LevelsEnd, failedWarning, parseSpec, sweepLevels, sweepTalk, unanswered } from './level-loop.js';
import type { SweepHooks } from './sweep-events.js';

/** What a pooling sweep takes besides its spec: the hooks every kind offers, clients elsewhere, and a clock (tests). */
export interface PoolingDeps extends SweepHooks<'pooling'> {
  clock?: Clock;
  /** Clients elsewhere every level is split over (goodput worker processes), given the run's identity; replaces client threads. */
  clients?: (init: { spec: PoolingSpec; model: string; dialect: DialectKind; connections: number }) => PoolingThreads;
}

/** An embeddings or rerank sweep: the pooling kind's driver (run-kinds.ts); callers go through runSweep. */
export async function sweepPooling(input: PoolingSpecInput, deps: PoolingDeps = {}): Promise<PoolingResult> {
  const spec = parseSpec(poolingSpecSchema, input);
  const talk = sweepTalk<'pooling'>(deps);
  const clock = deps.clock ?? monotonicNs;
  const target = { baseUrl: spec.url, apiKey: spec.apiKey };
  const model = await modelOf(target, spec);
  const engine = await resolveEngine(target, spec.engine, { model, endpoint: 'chat', thinking: false, forceLength: false });
  const { dialect } = engine;
  const route = routeOf(dialect, spec);
  const order = levelOrder(spec.levels);
  const most = order[order.length - 1] as number;
  const elsewhere = deps.clients?.({ spec, model, dialect: dialect.kind, connections: most }) ?? null;
  const senders = poolingSenders(spec, target, route, model, most, clock, deps.clock !== undefined, elsewhere);
  const telemetry = await startPoolingTelemetry(spec.url, resolveTarget(target).authHeaders, dialect);
  const startedAt = new Date().toISOString();
  let tokenizer = { exact: false, label: '' };
  let end: LevelsEnd<'pooling'>;
  try {
    await probeRoute(senders.client, spec, model, route, dialect);
    talk.emit({ kind: 'preflight', model, path: route.path, engine: dialect.label });
    const inputs = await poolingInputs(spec, model, route, order, randomBytes(4).toString('hex'), talk.warn);
    tokenizer = inputs.tokenizer;
    end = await sweepLevels<'pooling'>(talk, deps, poolingLevels({ spec, model, order, inputs, senders, telemetry, clock, signal: talk.signal }));
  } finally {
    await senders.close();
  }
  return poolingResult(spec, { model, route, engine, tokenizer, startedAt, warnings: talk.warnings, ...end });
}

/** What sends a pooling level: the client on this loop, and client threads started for the first level that is split (or the clients elsewhere). */
interface PoolingSenders {
  client: PoolingClient;
  threadCount: number;
  /** Every level goes to the clients elsewhere, even one with a single share: this process sends none. */
  always: boolean;
  threads(): PoolingThreads;
  close(): Promise<void>;
}

function poolingSenders(
  spec: PoolingSpec,
  target: Target,
  route: PoolingRoute,
  model: string,
  most: number,
  clock: Clock,
  clockInjected: boolean,
  elsewhere: PoolingThreads | null,
): PoolingSenders {
  // Client threads as a text sweep has them; one loop when the clock is injected (tests) or one stream is the most.
  const threadCount = elsewhere?.size ?? (clockInjected ? 1 : threadsFor(spec.clientThreads, most));
  const client = createPoolingClient(target, route, {
    connections: threadCount > 1 ? 1 : most,
    clock,
    timeoutMs: spec.timeoutMs,
    idleMs: spec.idleMs,
    retry: spec.retry,
    traceparent: spec.traceparent,
  });
  // Started for the first level that is split, not before: a thread loading its modules would take the CPU from a level on one loop.
  let threads: PoolingThreads | null = elsewhere;
  return {
    client,
    threadCount,
    always: elsewhere?.always === true,
    threads: () =>
      (threads ??= startPoolingThreads(
        threadCount,
        { target, route, model, timeoutMs: spec.timeoutMs, idleMs: spec.idleMs, retry: spec.retry, traceparent: spec.traceparent },
        most,
      )),
    close: async () => {
      await Promise.all([client.close(), (threads as PoolingThreads | null)?.close()]);
    },
  };
}

/** What every level of a pooling sweep reads. */
interface PoolingRun {
  spec: PoolingSpec;
  model: string;
  order: number[];
  inputs: PoolingInputs;
  senders: PoolingSenders;
  telemetry: PoolingTelemetry;
  clock: Clock;
  signal: AbortSignal;
}

/** The pooling kind's part of the level loop: its shares, its sender and summary, and the warnings a level earns. */
function poolingLevels(run: PoolingRun): LevelKind<'pooling'> {
  const { spec } = run;
  const sharesAt = (c: number, requests: number) => threadsFor(run.senders.threadCount, Math.min(c, requests));
  let lengthsChecked = false;
  return {
    order: run.order,
    warmup: spec.warmup,
    requestsAt: (c) => closedLoopRequests(spec, c),
    startFields: (c, requests) => ({ threads: sharesAt(c, requests), ...(run.senders.always ? { over: 'workers' } : {}) }),
    level: async (at, done) => {
      await run.telemetry.before();
      const { runs, records } = await sendPoolingLevel(run, at, sharesAt(at.concurrency, at.requests));
      if (run.signal.aborted) return { kind: 'aborted' };
      const stop = unanswered<'pooling'>(records, at.concurrency, done);
      if (stop) return stop;
      const serverTruth = await run.telemetry.after(records);
      // A lagging client would time the server late: the level is judged on its worst share's loop, and is then no peak.
      const level = {
        ...poolingLevel(at.concurrency, records, spec.hourlyCostUsd, spec.latencySlo, poolingClientLoad(runs, spec.clientBudgetMs)),
        ...(serverTruth === undefined ? {} : { serverTruth }),
      };
      const bound = level.clientBound?.bound === true ? [{ code: 'client-bound', message: `concurrency ${at.concurrency}: ${level.clientBound.reason}` }] : [];
      const later = () => {
        const mismatch = lengthsChecked ? null : inputLengthWarning(spec, level, run.inputs);
        if (mismatch !== null) lengthsChecked = true;
        return [...(mismatch === null ? [] : [mismatch]), ...failedWarning(level)];
      };
      return { kind: 'level', level, records, warnings: bound, later };
    },
  };
}

/** One level sent over the client threads (or workers) when it is split, else on this loop; its records warm-ups first, in send order. */
async function sendPoolingLevel(
  run: PoolingRun,
  at: LevelAt<'pooling'>,
  shares: number,
): Promise<{ runs: Array<PoolingShareRun & { label: string }>; records: PoolingRecord[] }> {
  const c = at.concurrency;
  const plans = poolingSharePlans(c, run.spec.warmup, at.requests, shares, (k) => run.inputs.payloadAt(at.offset + k));
  const runs: Array<PoolingShareRun & { label: string }> =
    shares > 1 || run.senders.always
      ? await run.senders.threads().runLevel(c, plans, run.signal, at.onRecord)
      : [
          {
            label: 'the client',
            ...(await runPoolingShare({
              client: run.senders.client,
              model: run.model,
              concurrency: c,
              plan: plans[0] as (typeof plans)[number],
              clock: run.clock,
              signal: run.signal,
              onRecord: at.onRecord,
            })),
          },
        ];
  const records = runs.flatMap((r) => r.records).sort((a, b) => (a.warmup === b.warmup ? a.seq - b.seq : a.warmup ? -1 : 1));
  return { runs, records };
}

/** The server counted input tokens off ours by more than the tolerance: said once, naming both counts. */
function inputLengthWarning(spec: PoolingSpec, level: PoolingLevel, inputs: PoolingInputs): Warning | null {
  const served = level.inputTokensPerRequest;
  const { sentTokens, tokenizer } = inputs;
  if (served === null || !(Math.abs(served / sentTokens - 1) > PROMPT_MISMATCH_SHARE)) return null;
  return {
    code: 'input-length-mismatch',
    message:
      `the server counted ${served.toFixed(1)} input tokens per request (its usage), ${sentTokens} sent by ${tokenizer.label}: ` +
      `${((served - sentTokens) / spec.itemsPerRequest).toFixed(1)} per ${spec.endpoint === 'rerank' ? 'document' : 'input'} (special tokens, a template, or a different tokenizer); input tokens/s is the server's count`,
  };
}

/** The result file: the run as asked and as it went, its warnings, levels, peak and capacity. */
function poolingResult(
  spec: PoolingSpec,
  r: LevelsEnd<'pooling'> & {
    model: string;
    route: PoolingRoute;
    engine: EngineSetup;
    tokenizer: { exact: boolean; label: string };
    startedAt: string;
    warnings: Warning[];
  },
): PoolingResult {
  const { dialect } = r.engine;
  return {
    schemaVersion: SCHEMA_VERSION,
    run: {
      url: spec.url,
      model: r.model,
      endpoint: spec.endpoint,
      path: r.route.path,
      engine: { name: dialect.engine, version: r.engine.version, dialect: dialect.kind, detection: r.engine.source },
      itemsPerRequest: spec.itemsPerRequest,
      itemTokens: spec.itemTokens,
      queryTokens: spec.endpoint === 'rerank' ? spec.queryTokens : null,
      tokenizer: r.tokenizer,
      levelsRequested: spec.levels,
      requestsPerLevel: spec.requestsPerLevel,
      warmupPerLevel: spec.warmup,
      hourlyCostUsd: spec.hourlyCostUsd,
      seed: spec.seed,
      ...runEnd(spec.command, r),
      latencySlo: spec.latencySlo,
    },
    warnings: r.warnings,
    levels: r.levels,
    peak: poolingPeak(r.levels),
    capacity: spec.latencySlo === null ? null : poolingCapacity(r.levels, spec.latencySlo),
  };
}
