/**
 * runSweep: the one programmatic entry the CLI, the API and tests share.
 * Preflight, then each level in ascending order — warm-up, measured requests,
 * summary — emitting typed events the terminal, files and stores subscribe to.
 */
import { createHash, randomBytes } from 'node:crypto';
import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import {
  type LevelResult, type RequestRecord, type RunInfo, SCHEMA_VERSION, SHORT_OUTPUT_TOKENS, type SweepResult, type ToolsSpec, type Warning, buildCards,
  canonicalJson, levelAxis, levelValue, sharesLoad, toolChoiceLabel,
} from '../core/index.js';
import { type Clock, type Dialect, type DialectKind, type StreamingClient, createStreamingClient, monotonicNs, preflight, resolveTarget } from '../client/index.js';
import { checkContext } from './context-check.js';
import { EngineChecks } from './engine-checks.js';
import { resolveEngine } from './engine-setup.js';
import { endpointsOffered } from './pooling-sweep.js';
import type { GpuSource } from '../telemetry/index.js';
import { levelWarnings, startRunTelemetry, withLostShares } from './level-telemetry.js';
import { SweepError } from './errors.js';
import { imageBytesProblem } from './image-pool.js';
import { imageServerWarning } from './image-connections.js';
import { startImageServer } from './image-server.js';
import { startLoopMonitor } from './loop-delay.js';
import { loadOf, runLevel } from './run-level.js';
import { type ClientThreads, startClientThreads, threadsFor } from './client-threads.js';
import { agentsOf, levelResult, outputCapOf } from './level-result.js';
import { exactPrompts, hasBuiltLengths, promptLengthWarning, runCounter, sentTokens, withPromptLengths } from './prompt-lengths.js';
import { arrivalOps } from '../workload/index.js';
import type { RunState } from './run-state.js';
import { type SweepSpec, type SweepSpecInput, levelOrder, requestsFor, sweepSpecSchema } from './sweep-spec.js';
import { TOOL_VERSION } from './version.js';

export type SweepEvent =
  | { kind: 'preflight'; model: string; models: string[] }
  /** The engine dialect the run speaks, detected (with its evidence) or given. */
  | {
    kind: 'engine'; name: string; label: string; version: string | null; dialect: string; source: 'detected' | 'override'; evidence: string[];
    /** The context length the server reports (prompt plus output, tokens), or null. */
    context: { tokens: number; source: string } | null;
  }
  | { kind: 'warning'; warning: Warning }
  | { kind: 'level-start'; concurrency: number; index: number; total: number; requests: number }
  | { kind: 'request'; concurrency: number; done: number; failed: number; requests: number; outputTokens: number; warmup: boolean }
  | { kind: 'level-end'; level: LevelResult; records: readonly RequestRecord[] }
  | { kind: 'stopped'; status: 'stopped' | 'server-failed'; reason: string };

export interface SweepDeps {
  clock?: Clock;
  /** A GPU source instead of the one `gpuSource` chooses (tests). */
  gpu?: GpuSource;
  signal?: AbortSignal;
  onEvent?: (e: SweepEvent) => void;
  /**
   * Awaited after each level ends and before the next one starts, so storing a
   * level's records (PGlite runs on this very event loop) never overlaps
   * measured time, and a killed run keeps every level this returned for.
   */
  afterLevel?: (level: LevelResult, records: readonly RequestRecord[]) => Promise<void>;
  /** Awaited before each level starts, warm-ups included: a reader of the store (an export) finishes before measured time begins. */
  beforeLevel?: () => Promise<void>;
  /** Clients elsewhere every level is split over (goodput worker processes), given the run's identity; replaces client threads. */
  clients?: (init: { spec: SweepSpec; state: RunState; model: string; dialect: DialectKind; runId: string; connections: number }) => ClientThreads;
  /** Builds the client (tests swap in timeouts); defaults to the streaming client speaking the engine's dialect. */
  client?: (spec: SweepSpec, connections: number, dialect: Dialect) => StreamingClient;
}


function parseSpec(input: SweepSpecInput): SweepSpec {
  const parsed = sweepSpecSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new SweepError('bad-input', `${issue?.path.join('.') || 'spec'}: ${issue?.message ?? 'invalid'}`);
}

export async function runSweep(input: SweepSpecInput, deps: SweepDeps = {}): Promise<SweepResult> {
  const spec = parseSpec(input);
  const imagesProblem = imageBytesProblem(spec.images, spec.audio, spec.mediaSeed ?? spec.seed);
  if (imagesProblem !== null) throw new SweepError('bad-input', imagesProblem);
  const emit = deps.onEvent ?? (() => {});
  const clock = deps.clock ?? monotonicNs;
  const signal = deps.signal ?? new AbortController().signal;
  const target = { baseUrl: spec.url, apiKey: spec.apiKey };

  const pre = await preflight(target, spec.model);
  if (!pre.ok) throw new SweepError('preflight-refused', `${spec.url} cannot be benchmarked: ${pre.message}`);
  emit({ kind: 'preflight', model: pre.model, models: pre.models });

  const warnings: Warning[] = [];
  const warn = (w: Warning) => {
    warnings.push(w);
    emit({ kind: 'warning', warning: w });
  };
  if (spec.outputTokens < SHORT_OUTPUT_TOKENS) {
    warn({
      code: 'short-output',
      message: `output length ${spec.outputTokens} is below ${SHORT_OUTPUT_TOKENS} tokens: per-request overhead dominates and real differences can vanish into it`,
    });
  }
  const underfilled = spec.arrival.kind === 'concurrency' ? spec.levels.filter((c) => requestsFor(spec, c) < c) : [];
  if (underfilled.length > 0) {
    warn({
      code: 'underfilled-level',
      message: `concurrency ${underfilled.join(', ')}: ${spec.requestsPerLevel} requests per level never put that many requests in flight at once; use more requests per level (or 'auto')`,
    });
  }
  if (spec.thinking) warn({ code: 'thinking-on', message: 'thinking is on: reasoning tokens are counted, and results are not comparable with thinking-off runs' });
  const engine = await resolveEngine(target, spec.engine, { model: pre.model, endpoint: spec.endpoint, thinking: spec.thinking, forceLength: spec.forceLength });
  const { dialect } = engine;
  if (dialect.generatesText === false) {
    throw new SweepError('bad-input', `endpoint ${spec.endpoint}: ${dialect.label} generates no text; it offers ${endpointsOffered(dialect)}`);
  }
  // Ollama's native chat takes images but no audio: a clip would be dropped, not measured.
  if (spec.audio !== null && dialect.kind === 'ollama-native') throw new SweepError('bad-input', `audio: ${dialect.label}'s native API takes no audio; use --engine ollama (its /v1 API)`);
  if (spec.images?.delivery === 'url' && dialect.kind === 'ollama-native') throw new SweepError('bad-input', `images.delivery: ${dialect.label}'s native API takes images as base64 only, no URLs; send them as data or use --engine ollama (its /v1 API)`);
  if (spec.endpoint === 'responses' && dialect.api.paths.responses === null) {
    throw new SweepError('bad-input', `endpoint responses: ${dialect.label} has no Responses API (/v1/responses); use --endpoint chat`);
  }
  // An engine that turns Responses into chat requests takes the chat's length keys.
  if (spec.endpoint === 'responses' && spec.forceLength && dialect.responsesMode !== 'via-chat') {
    warn({ code: 'cannot-force-length', message: 'the Responses API has no ignore_eos or min_tokens: actual lengths are checked and requests that end short are flagged' });
  }
  // Synthetic and traced prompts are counted with the run's tokenizer; the server's own counter also says what its chat template adds, before anything is sent.
  const counter = hasBuiltLengths(spec.prompts) ? await runCounter(spec, pre.model) : null;
  const templated = spec.endpoint === 'chat' || spec.endpoint === 'responses';
  const template = counter !== null && templated && engine.context !== null ? await counter.chatTemplateTokens?.() ?? null : null;
  checkContext(spec, engine.context, template);
  emit({
    kind: 'engine', name: dialect.engine, label: dialect.label, version: engine.version, dialect: dialect.kind, source: engine.source, evidence: engine.evidence,
    context: engine.context,
  });
  for (const w of engine.warnings) warn(w);
  const checks = new EngineChecks(dialect, spec.cache === 'cold', spec.prompts.kind === 'synthetic' ? spec.promptTokens : null);

  const order = levelOrder(spec.levels);
  const runId = randomBytes(4).toString('hex');
  // Prompts of exactly their lengths in the server's tokens, built before anything is measured.
  const lengths = counter !== null ? await exactPrompts(spec, order, runId, counter) : null;
  if (lengths && !lengths.info.exact) warn({ code: 'prompt-length-approximate', message: `prompt lengths are ${lengths.info.label}` });
  const telemetry = await startRunTelemetry(spec, resolveTarget(target).authHeaders, warn, deps.gpu, dialect);
  // Images by URL: our own image server, for the sweep's lifetime (closed with the rest, a stop included).
  const imageServer = spec.images?.delivery === 'url' ? await startImageServer(spec.imageBaseUrl).catch(async (err: unknown) => {
    await telemetry.close();
    throw new SweepError('bad-input', `the image server could not listen on ${spec.imageBaseUrl ?? '127.0.0.1'}: ${err instanceof Error ? err.message : String(err)}`);
  }) : null;
  const state: RunState = { imagesServedAt: imageServer === null ? null : imageServer.servedAt };
  const sendSpec: SweepSpec = { ...spec, ...(lengths ? { prompts: lengths.prompts } : {}) };
  const maxC = arrivalOps(spec.arrival).connections(order[order.length - 1] as number);
  const client = deps.client?.(sendSpec, maxC, dialect) ?? createStreamingClient(target, { connections: maxC, clock, timeouts: spec.timeouts, dialect });
  // An injected client or clock lives on this thread: such a sweep runs in it.
  // An agent trace's joins wait on turns of other sessions: its level runs on one thread.
  const threadsAsked = deps.client || deps.clock || spec.prompts.kind === 'agents' ? 1 : spec.clientThreads;
  const threadsMax = threadsFor(threadsAsked, maxC);
  const threads: ClientThreads | null = deps.clients?.({ spec: sendSpec, state, model: pre.model, dialect: dialect.kind, runId, connections: maxC })
    ?? (threadsMax > 1 ? startClientThreads(threadsMax, { spec: sendSpec, state, model: pre.model, dialect: dialect.kind, runId }, maxC) : null);
  const startedAt = new Date().toISOString();
  const levels: LevelResult[] = [];
  let status: SweepResult['run']['status'] = 'complete';
  let stopReason: string | null = null;
  let promptOffset = 0;
  // A session run's levels are sessions at once (or per second) on its axis.
  const sessionsMark = spec.prompts.kind === 'sessions' ? { sessions: true } : {};

  const checkServer = async () => {
    const again = await preflight(target, pre.model, { timeoutMs: 3000 });
    return again.ok ? null : again.message;
  };

  try {
    for (const [index, c] of order.entries()) {
      if (signal.aborted) break;
      await deps.beforeLevel?.();
      if (signal.aborted) break;
      const requests = requestsFor(spec, c);
      if (imageServer !== null && spec.images !== null) imageServer.serveLevel(spec.images, spec.mediaSeed ?? spec.seed, promptOffset, spec.warmup + requests);
      const imageClosed0 = imageServer === null ? 0 : imageServer.closed.silent + imageServer.closed.evicted;
      emit({ kind: 'level-start', concurrency: c, index, total: order.length, requests });
      let done = 0;
      let failed = 0;
      let tokens = 0;
      const loop = startLoopMonitor();
      // Our busy share: this event loop's utilisation over the measured requests (threads measure their own).
      let busy0: EventLoopUtilization | null = null;
      const onRecord = (r: RequestRecord) => {
        if (!r.warmup) {
          done++;
          if (r.outcome.kind !== 'ok') failed++;
          else tokens += r.outputTokens;
        }
        emit({ kind: 'request', concurrency: c, done, failed, requests, outputTokens: tokens, warmup: r.warmup });
      };
      const beforeMeasured = async () => {
        await telemetry.beforeMeasured();
        busy0 = performance.eventLoopUtilization();
      };
      const n = threads ? threadsFor(threads.size, Math.min(arrivalOps(spec.arrival).connections(c), requests)) : 1;
      const run = threads && (n > 1 || threads.always)
        ? await threads.runLevel({ concurrency: c, requests, promptOffset, count: n, signal, onRecord, beforeMeasured }).then((t) => ({
          ...t, load: loadOf(spec, c, t.records, t.scheduledNs, t.waitedForSlot), ...sharesLoad(t.shares),
        }), (err: unknown) => {
          // Our side went away mid-level (the workers' database, or a thread or worker lost after a level
          // finished): the sweep ends as a stop, and the levels it finished stand.
          const ours = err instanceof SweepError && (err.code === 'client-stopped' || (err.code === 'client-failed' && levels.length > 0));
          if (!ours) throw err;
          return { stoppedBy: err.message } as const;
        })
        : await runLevel({ client, spec: sendSpec, state, model: pre.model, concurrency: c, requests, clock, runId, promptOffset, signal, checkServer, beforeMeasured, onRecord }).then((r) => ({
          ...r, shares: undefined, loopDelayMs: loop.peek(), clientCpuPct: busy0 === null ? null : performance.eventLoopUtilization(busy0).utilization * 100,
        }));
      if ('stoppedBy' in run) {
        loop.stop();
        status = 'stopped';
        stopReason = `${run.stoppedBy}. ${levelsComplete(levels)}`;
        break;
      }
      const tel = await telemetry.afterMeasured(levelAxis([{ concurrency: c, load: run.load, ...sessionsMark }]).describe(c), run.records, run.loopDelayMs ?? undefined);
      loop.stop();
      if (run.serverFailure) {
        status = 'server-failed';
        const name = levelAxis([{ concurrency: c, load: run.load, ...sessionsMark }]).describe(c);
        stopReason = `the server stopped answering during the ${name} level, after ${done} of ${requests} requests (${failed} failed): ${run.serverFailure.replace(/\.$/, '')}. ${levelsComplete(levels)}`;
        break;
      }
      if (signal.aborted) break;
      const sent = sentTokens(spec, run.records);
      const capOf = outputCapOf(spec, promptOffset);
      const level = withPromptLengths({ ...levelResult({
        load: run.load, slo: spec.slo, capOf,
        ...(spec.prompts.kind === 'sessions' || spec.prompts.kind === 'agents' ? { sessionTurns: spec.prompts.sessions.map((s) => s.turns.length) } : {}),
        ...(spec.prompts.kind === 'agents' ? { agents: agentsOf(spec.prompts) } : {}),
        records: run.records, targetOutputTokens: spec.outputTokens, forceLength: spec.forceLength,
        loopDelayMs: run.loopDelayMs, clientCpuPct: run.clientCpuPct, ...(run.shares ? { shares: run.shares } : {}),
        clientBudgetMs: spec.clientBudgetMs, gpu: tel.gpuMem, images: spec.images, audio: spec.audio,
      }), gpu: tel.gpu, serverTruth: tel.serverTruth }, sent, lengths?.info ?? null);
      promptOffset += spec.warmup + requests;
      levels.push(level);
      checks.add(run.records);
      emit({ kind: 'level-end', level, records: run.records });
      await deps.afterLevel?.(level, run.records);
      for (const w of levelWarnings(tel, level)) warn(withLostShares(w, level));
      // Image tokens are counted by the server alone: the text's length cannot be judged from usage then.
      // Named on the run's own axis: "speed 4×", "concurrency 8", "4 sessions at once".
      const name = levelAxis([level]).describe(levelValue(level));
      const mismatch = lengths && spec.images === null && spec.audio === null ? promptLengthWarning(level, sent, lengths.info, name) : null;
      if (mismatch) warn(mismatch);
      if (level.clientBound.bound) warn({ code: 'client-bound', message: `${name}: ${level.clientBound.reason}` });
      if (level.outputTokens.short > 0) {
        const why = dialect.length.kind === 'cannot' ? `: ${dialect.label} cannot force the length, so they are measured as they came` : ' although the length was forced';
        warn({ code: 'short-requests', message: `${name}: ${level.outputTokens.short} requests ended below ${capsOf(run.records, capOf)}${why}` });
      }
      const imageClosed = imageServer === null ? 0 : imageServer.closed.silent + imageServer.closed.evicted - imageClosed0;
      if (imageClosed > 0) warn(imageServerWarning(c, imageClosed, level.failed));
    }
    if (signal.aborted && status === 'complete') {
      status = 'stopped';
      stopReason = `stopped by the user; ${levels.length} level(s) complete`;
    }
  } finally {
    await threads?.close();
    await client.close();
    await telemetry.close();
    await imageServer?.close();
  }
  for (const w of checks.warnings()) warn(w);
  if (stopReason) emit({ kind: 'stopped', status: status as 'stopped' | 'server-failed', reason: stopReason });

  return {
    schemaVersion: SCHEMA_VERSION,
    run: {
      url: spec.url, model: pre.model, endpoint: spec.endpoint,
      engine: { name: dialect.engine, version: engine.version, dialect: dialect.kind, detection: engine.source, evidence: engine.evidence, sampling: { ...dialect.sampling, ...(spec.topP === null ? {} : { top_p: spec.topP }) } },
      outputTokens: spec.outputTokens, forceLength: spec.forceLength, promptTokens: spec.promptTokens,
      thinking: spec.thinking ? 'on' : 'off', temperature: spec.temperature, seed: spec.seed,
      levelsRequested: spec.levels, levelsOrder: order, arrival: spec.arrival, slo: spec.slo, requestsPerLevel: spec.requestsPerLevel, warmupPerLevel: spec.warmup,
      hourlyCostUsd: spec.hourlyCostUsd, baselineRateUsdPer1M: spec.baselineRateUsdPer1M, gpuLabel: spec.gpuLabel,
      command: spec.command, startedAt, endedAt: new Date().toISOString(), status, stopReason, toolVersion: TOOL_VERSION,
      serverMetrics: telemetry.serverMetrics,
      ...(spec.tools === null ? {} : { tools: toolsInfo(spec.tools) }),
      ...(spec.responseSchema === null ? {} : { responseSchema: { label: spec.responseSchema.label, name: spec.responseSchema.name, control: spec.responseSchema.control, sha256: sha256Of(spec.responseSchema.schema) } }),
    },
    warnings,
    levels,
    ...(lengths ? { tokenizer: lengths.info } : {}),
    cards: buildCards({ levels, hourlyCostUsd: spec.hourlyCostUsd, baselineRateUsdPer1M: spec.baselineRateUsdPer1M, gpuLabel: spec.gpuLabel }),
  };
}

/** "256 tokens", or "their own output caps (16–64 tokens)" when the requests' caps differ. */
function capsOf(records: readonly RequestRecord[], capOf: (r: RequestRecord) => number): string {
  const caps = records.filter((r) => !r.warmup).map(capOf);
  const lo = Math.min(...caps);
  const hi = Math.max(...caps);
  return lo === hi ? `${lo} tokens` : `their own output caps (${lo}–${hi} tokens)`;
}

/** The stop reason's last sentence: which levels stand. */
function levelsComplete(levels: readonly LevelResult[]): string {
  if (levels.length === 0) return 'No level was completed.';
  return levels.length === 1 ? `Level ${levels[0]?.concurrency} is complete.` : `Levels ${levels.map((l) => l.concurrency).join(', ')} are complete.`;
}

/** What the result records of the tools offered: label, count, choice and the definitions' hash. */
function toolsInfo(t: ToolsSpec): NonNullable<RunInfo['tools']> {
  return { label: t.label, count: t.tools.length, choice: toolChoiceLabel(t.choice), sha256: sha256Of(t.tools) };
}

const sha256Of = (v: unknown): string => createHash('sha256').update(canonicalJson(v)).digest('hex');
