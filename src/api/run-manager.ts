/**
 * Runs started from the page, inside the serve process: checks (the server
 * exists, is running and serves its model; no other run targets it), then
 * runSweep in the background with an AbortController for Stop. Its events go
 * to the store (through the recorder) and to the live hub.
 */
import { type SweepEvent, type SweepSpecInput, SweepError, runSweep } from '../runner/index.js';
import type { Store } from '../store/index.js';
import { ApiError } from './api-error.js';
import type { Catalog } from './catalog.js';
import type { LevelProgress } from './live-events.js';
import { notRunnableReason } from './probe.js';
import { recordSweep } from './run-recorder.js';
import type { RunHub } from './run-hub.js';
import { beginRunOf } from './run-spec.js';
import type { StartRunBody } from './start-run-schema.js';

interface Active { serverId: number; ctrl: AbortController; done: Promise<void> }

export class RunManager {
  private readonly active = new Map<number, Active>();

  constructor(private readonly store: Store, private readonly catalog: Catalog, private readonly hub: RunHub) {}

  /**
   * Starts a run; resolves once it is recorded and measuring has begun in the background.
   * @throws ApiError 'not-found', 'run-in-progress' or 'server-not-running', before anything runs.
   */
  async start(body: StartRunBody): Promise<{ runId: number }> {
    const server = await this.store.servers.get(body.serverId).catch(() => {
      throw new ApiError('not-found', `serverId: no server with id ${body.serverId} is registered`, 'serverId');
    });
    const mine = [...this.active.entries()].find(([, a]) => a.serverId === server.id);
    if (mine) throw new ApiError('run-in-progress', `run ${mine[0]} against server "${server.name}" is in progress; a second run would make the levels of both contend, so it is refused.`, 'serverId');
    const checked = await this.catalog.checkServer(server.id);
    const refusal = notRunnableReason(server.name, server.model, checked.status);
    if (refusal) throw new ApiError('server-not-running', refusal, 'serverId');
    const input: SweepSpecInput = {
      url: server.baseUrl, apiKey: (await this.store.servers.secret(server.id)) ?? undefined, model: server.model ?? undefined,
      levels: body.levels, outputTokens: body.outputTokens, thinking: body.thinking, promptTokens: body.promptTokens,
      requestsPerLevel: body.requestsPerLevel, hourlyCostUsd: body.hourlyCostUsd === undefined ? server.hourlyCostUsd : body.hourlyCostUsd,
      baselineRateUsdPer1M: body.baselineRateUsdPer1M, gpuLabel: server.gpuLabel,
      command: `goodput serve: Start on "${server.name}", levels ${body.levels.join(',')}, ${body.outputTokens} output tokens, thinking ${body.thinking ? 'on' : 'off'}`,
    };
    const writer = await this.catalog.beginRun(beginRunOf(input, server));
    const ctrl = new AbortController();
    const recorder = recordSweep(writer);
    const runId = writer.runId;
    const onEvent = this.forward(runId);
    const done = runSweep(input, { signal: ctrl.signal, onEvent: (e) => { recorder.onEvent(e); onEvent(e); }, afterLevel: recorder.afterLevel })
      .then((result) => recorder.finish(result))
      .catch(async (err: unknown) => {
        if (err instanceof SweepError) await recorder.discard(err.message);
        else await recorder.abandon(`the sweep broke: ${(err as Error).message}`);
      })
      // The run's row already says what happened; the log says why the store could not.
      .catch((err: unknown) => { process.stderr.write(`goodput serve: run ${runId}: ${(err as Error).message}\n`); })
      .finally(() => this.active.delete(runId));
    this.active.set(runId, { serverId: server.id, ctrl, done });
    return { runId };
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

  /** SweepEvents as live events: level starts and progress (the writer publishes levels, warnings and the end). */
  private forward(runId: number): (e: SweepEvent) => void {
    let p: LevelProgress | null = null;
    let measuredFromMs = 0;
    return (e) => {
      if (e.kind === 'level-start') {
        measuredFromMs = performance.now();
        p = { concurrency: e.concurrency, index: e.index, total: e.total, requests: e.requests, done: 0, failed: 0, outputTokens: 0, elapsedMs: 0, liveTokS: null };
        this.hub.publish(runId, { kind: 'level-start', progress: p });
      } else if (e.kind === 'request' && p) {
        // The measured phase starts when the last warm-up ends.
        if (e.warmup) { measuredFromMs = performance.now(); return; }
        const elapsedMs = performance.now() - measuredFromMs;
        p = { ...p, done: e.done, failed: e.failed, outputTokens: e.outputTokens, elapsedMs, liveTokS: elapsedMs > 0 ? e.outputTokens / (elapsedMs / 1000) : null };
        this.hub.publish(runId, { kind: 'progress', progress: p });
      }
    };
  }
}
