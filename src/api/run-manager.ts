/**
 * Runs started from the page, inside the serve process: checks (the server
 * exists, is running and serves its model; no other run targets it), then
 * runSweep in the background with an AbortController for Stop. Its events go
 * to the store (through the recorder) and to the live hub.
 */
import { type AgentTraceBody, type LoraAdapter, type RunKindName, kindOfEndpoint, refusalOf } from '../core/index.js';
import {
  type CancelSpec,
  agentReplayOfText,
  type PoolingSpecInput,
  type SpecInputOf,
  type SpecOf,
  kindOfSpec,
  type SweepEvent,
  type SweepSpecInput,
  SweepError,
  cancelOf,
  checkSpecAdapters,
  runSweep,
  specSchemaOf,
} from '../runner/index.js';
import type { ServerView, Store } from '../store/index.js';
import { ApiError, type Catalog, type LevelProgress, notRunnableReason, recordSweep, beginRunOf } from '../runs/index.js';
import { providerSpecOf, retryOf } from './provider-fields.js';
import type { RunHub } from './run-hub.js';
import type { StartRunBody, StartTextRunBody, StartPoolingRunBody } from './start-run-schema.js';

interface Active {
  serverId: number;
  ctrl: AbortController;
  done: Promise<void>;
}

export class RunManager {
  private readonly active = new Map<number, Active>();

  constructor(
    private readonly store: Store,
    private readonly catalog: Catalog,
    private readonly hub: RunHub,
  ) {}

  /**
   * Starts a run of the kind its body's endpoint names; resolves once it is recorded and measuring has begun in the
   * background. Its events go to the store (through the recorder) and to the live hub.
   * @throws ApiError 'not-found', 'run-in-progress', 'server-not-running' or 'bad-request', before anything runs.
   */
  async start(body: StartRunBody): Promise<{ runId: number }> {
    const server = await this.runnable(body.serverId);
    const apiKey = (await this.store.servers.secret(server.id)) ?? undefined;
    const input = specOfBody((body as { endpoint?: unknown }).endpoint)(body, server, apiKey);
    // What the body schema cannot see alone (a request too large to send) is refused here, naming the field, before any run is begun.
    const valid = specSchemaOf(input).safeParse(input);
    if (!valid.success) {
      const issue = valid.error.issues[0];
      const field = issue?.path.join('.') || 'body';
      throw new ApiError('bad-request', `${field}: ${issue?.message ?? 'invalid'}`, field);
    }
    if (kindOfSpec(input) === 'text') await adaptersServed(valid.data as SpecOf<'text'>);
    const writer = await this.catalog.beginRun(beginRunOf(input, server));
    const ctrl = new AbortController();
    const recorder = recordSweep(writer);
    const runId = writer.runId;
    const onEvent = this.forward(runId);
    const done = runSweep(input, {
      signal: ctrl.signal,
      onEvent: (e: SweepEvent<RunKindName>) => {
        recorder.onEvent(e);
        onEvent(e);
      },
      afterLevel: recorder.afterLevel,
    }).then((result) => recorder.finish(result));
    this.track(runId, server.id, ctrl, done, recorder);
    return { runId };
  }

  /** The registered server, checked now: it exists, runs and serves its model, and no run of ours targets it. */
  private async runnable(serverId: number): Promise<ServerView> {
    const server = await this.store.servers.get(serverId).catch(() => {
      throw new ApiError('not-found', `serverId: no server with id ${serverId} is registered`, 'serverId');
    });
    const mine = [...this.active.entries()].find(([, a]) => a.serverId === server.id);
    if (mine)
      throw new ApiError(
        'run-in-progress',
        `run ${mine[0]} against server "${server.name}" is in progress; a second run would make the levels of both contend, so it is refused.`,
        'serverId',
      );
    const checked = await this.catalog.checkServer(server.id);
    const refusal = notRunnableReason(server.name, server.model, checked.status);
    if (refusal) throw new ApiError('server-not-running', refusal, 'serverId');
    return server;
  }

  /** Keeps a started run until it ends: a refused sweep is removed, a broken one kept as interrupted. */
  private track(
    runId: number,
    serverId: number,
    ctrl: AbortController,
    run: Promise<void>,
    recorder: { discard(r: string): Promise<void>; abandon(r: string): Promise<void> },
  ): void {
    const done = run
      .catch(async (err: unknown) => {
        if (err instanceof SweepError) await recorder.discard(err.message);
        else await recorder.abandon(`the sweep broke: ${(err as Error).message}`);
      })
      // The run's row already says what happened; the log says why the store could not.
      .catch((err: unknown) => {
        process.stderr.write(`goodput serve: run ${runId}: ${(err as Error).message}\n`);
      })
      .finally(() => this.active.delete(runId));
    this.active.set(runId, { serverId, ctrl, done });
  }

  /** Stops a run of this process cleanly: finished levels are kept. @throws ApiError 'not-active'. */
  stop(runId: number): void {
    const a = this.active.get(runId);
    if (!a) throw new ApiError('not-active', `run ${runId} is not running in this goodput serve (it ended, or another process runs it: stop it there)`, 'id');
    a.ctrl.abort();
  }

  /** Stops every run and waits for them to be stored (bounded by `timeoutMs`). */
  async stopAll(timeoutMs = 15_000): Promise<void> {
    for (const a of this.active.values()) a.ctrl.abort();
    const all = Promise.all([...this.active.values()].map((a) => a.done));
    await Promise.race([all, new Promise((r) => setTimeout(r, timeoutMs).unref())]);
  }

  /** Sweep events as live events: level starts and progress (the writer publishes levels, warnings and the end); a pooling sweep makes no output tokens. */
  private forward(runId: number): (e: SweepEvent<RunKindName>) => void {
    let p: LevelProgress | null = null;
    let measuredFromMs = 0;
    return (e) => {
      if (e.kind === 'level-start') {
        measuredFromMs = performance.now();
        p = {
          concurrency: e.concurrency,
          index: e.index,
          total: e.total,
          requests: e.requests,
          ...('durationS' in e && e.durationS !== undefined ? { durationS: e.durationS } : {}),
          done: 0,
          failed: 0,
          outputTokens: 0,
          elapsedMs: 0,
          liveTokS: null,
        };
        this.hub.publish(runId, { kind: 'level-start', progress: p });
      } else if (e.kind === 'request' && p) {
        // The measured phase starts when the last warm-up ends (a ramp's requests come after the level's start: its clock runs on).
        if (e.warmup) {
          if (!('ramp' in e && e.ramp === true)) measuredFromMs = performance.now();
          return;
        }
        const elapsedMs = performance.now() - measuredFromMs;
        const tokens = 'outputTokens' in e ? e.outputTokens : 0;
        p = {
          ...p,
          done: e.done,
          failed: e.failed,
          outputTokens: tokens,
          elapsedMs,
          liveTokS: 'outputTokens' in e && elapsedMs > 0 ? tokens / (elapsedMs / 1000) : null,
        };
        this.hub.publish(runId, { kind: 'progress', progress: p });
      }
    };
  }
}

/** A text run's adapters must be the server's (as the sweep's preflight checks), refused now as a 400 naming the field rather than as a run that ends refused. */
async function adaptersServed(spec: SpecOf<'text'>): Promise<void> {
  try {
    await checkSpecAdapters(spec, 'lora');
  } catch (err) {
    if (err instanceof SweepError) throw new ApiError('bad-request', err.message, 'lora');
    throw err;
  }
}

/** A text sweep's spec from the page's Start body and the registered server; with an agent trace, its replay at the levels as speeds. */
function textInput(body: StartTextRunBody, server: ServerView, apiKey: string | undefined): SweepSpecInput {
  if (body.agentTrace && (body.durationS !== null || body.rampUpS !== null)) {
    const field = body.durationS !== null ? 'durationS' : 'rampUpS';
    throw new ApiError('bad-request', `${field}: an agent trace is replayed at its recorded times, turn by turn: it has no level bounded by time`, field);
  }
  if (body.agentTrace) return agentReplayInput(body, body.agentTrace, server, apiKey);
  const adaptersAndCancel = adaptersAndCancelOf(body);
  return {
    url: server.baseUrl,
    apiKey,
    model: server.model ?? undefined,
    levels: body.levels,
    outputTokens: body.outputTokens,
    thinking: body.thinking,
    promptTokens: body.promptTokens,
    requestsPerLevel: body.requestsPerLevel,
    durationS: body.durationS,
    rampUpS: body.rampUpS,
    hourlyCostUsd: body.hourlyCostUsd === undefined ? server.hourlyCostUsd : body.hourlyCostUsd,
    baselineRateUsdPer1M: body.baselineRateUsdPer1M,
    gpuLabel: server.gpuLabel,
    ...providerSpecOf(body),
    ...adaptersAndCancel,
    command: `goodput serve: Start on "${server.name}", levels ${body.levels.join(',')}, ${body.outputTokens} output tokens, thinking ${body.thinking ? 'on' : 'off'}${commandTail(adaptersAndCancel)}`,
  };
}

/** A text run's adapters and cancellation as its spec holds them. */
type AdaptersAndCancel = { lora: LoraAdapter[] | null; cancel: CancelSpec | null };

/**
 * The spec's adapters and cancellation from a text Start body, read as `goodput sweep` reads `--lora` and the
 * cancel flags (the same parser, the same rule for a share with no point), or a 400 naming the field.
 */
function adaptersAndCancelOf(body: StartTextRunBody): AdaptersAndCancel {
  const c = cancelOf({ afterMs: body.cancelAfterMs, afterTokens: body.cancelAfterTokens, fraction: body.cancelFraction });
  if ('shareAlone' in c)
    throw new ApiError('bad-request', 'cancelFraction: needs cancelAfterMs or cancelAfterTokens (when a request is given up)', 'cancelFraction');
  if (c.cancel !== null && body.agentTrace) {
    const field = body.cancelAfterMs !== null ? 'cancelAfterMs' : 'cancelAfterTokens';
    throw new ApiError('bad-request', `${field}: an agent trace's turns are not given up one by one (each turn carries the answer before it)`, field);
  }
  return { lora: body.lora, cancel: c.cancel };
}

/** What the stored command line adds for adapters and cancellation (names are visible ASCII: core/lora-mix.ts). */
function commandTail(p: AdaptersAndCancel): string {
  const lora = p.lora ? `, LoRA ${p.lora.map((a) => `${a.name}=${a.weight}`).join(',')}` : '';
  const c = p.cancel;
  const at = c ? [c.afterMs === null ? null : `${c.afterMs} ms`, c.afterTokens === null ? null : `${c.afterTokens} tokens`].filter((x) => x !== null) : [];
  return `${lora}${c ? `, cancel after ${at.join(' or ')} (share ${c.fraction})` : ''}`;
}

/** An agent trace's replay from the Start body: the spec `goodput replay` builds; a trace that cannot run is a 400 naming its line. */
function agentReplayInput(body: StartTextRunBody, trace: AgentTraceBody, server: ServerView, apiKey: string | undefined): SweepSpecInput {
  const adapters = adaptersAndCancelOf(body);
  let replay: ReturnType<typeof agentReplayOfText>;
  try {
    replay = agentReplayOfText(trace.name, trace.text, body.levels);
  } catch (err) {
    if (err instanceof SweepError) throw new ApiError('bad-request', `agentTrace: ${err.message}`, 'agentTrace');
    throw err;
  }
  return {
    url: server.baseUrl,
    apiKey,
    model: server.model ?? undefined,
    ...replay.parts,
    ...adapters,
    thinking: body.thinking,
    hourlyCostUsd: body.hourlyCostUsd === undefined ? server.hourlyCostUsd : body.hourlyCostUsd,
    baselineRateUsdPer1M: body.baselineRateUsdPer1M,
    gpuLabel: server.gpuLabel,
    ...providerSpecOf(body),
    command: `goodput serve: Start on "${server.name}", replay of ${replay.summary}, speeds ${body.levels.join(',')}, thinking ${body.thinking ? 'on' : 'off'}${commandTail(adapters)}`,
  };
}

/** An embeddings or rerank sweep's spec from the page's Start body and the registered server. */
function poolingInput(body: StartPoolingRunBody, server: ServerView, apiKey: string | undefined): PoolingSpecInput {
  const what = body.endpoint === 'rerank' ? 'documents' : 'inputs';
  const items = body.itemsPerRequest;
  return {
    url: server.baseUrl,
    apiKey,
    model: server.model ?? undefined,
    endpoint: body.endpoint,
    levels: body.levels,
    itemsPerRequest: items,
    itemTokens: body.itemTokens,
    queryTokens: body.queryTokens,
    requestsPerLevel: body.requestsPerLevel,
    hourlyCostUsd: body.hourlyCostUsd === undefined ? server.hourlyCostUsd : body.hourlyCostUsd,
    latencySlo: body.latencySlo,
    retry: retryOf(body),
    command: `goodput serve: Start ${body.endpoint} on "${server.name}", levels ${body.levels.join(',')}, ${items} ${what} of ${body.itemTokens} tokens`,
  };
}

/** The page's Start body of each kind it starts (the endpoint names the kind; none is text generation). */
interface StartBodies {
  text: StartTextRunBody;
  pooling: StartPoolingRunBody;
}

/**
 * Each startable kind's spec from its Start body and the registered server.
 * A kind with no entry has no Start body: its schema refuses such a body, and
 * here, should one pass, the capability matrix's reason does.
 */
const SPEC_OF_BODY: { [K in keyof StartBodies]: (body: StartBodies[K], server: ServerView, apiKey: string | undefined) => SpecInputOf<K> } = {
  text: textInput,
  pooling: poolingInput,
};

/** The spec maker of the kind `endpoint` names. @throws ApiError for a kind the page does not start. */
function specOfBody(endpoint: unknown): (b: StartRunBody, s: ServerView, k: string | undefined) => SpecInputOf<RunKindName> {
  const kind = kindOfEndpoint(endpoint);
  if (!(kind in SPEC_OF_BODY)) throw new ApiError('bad-request', refusalOf(kind, 'api-start', { endpoint: String(endpoint) }), 'endpoint');
  return SPEC_OF_BODY[kind as keyof StartBodies] as (b: StartRunBody, s: ServerView, k: string | undefined) => SpecInputOf<RunKindName>;
}
