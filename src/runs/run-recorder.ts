/**
 * Subscribes a RunWriter to runSweep's events: the model at preflight,
 * warnings as raised, each level (with its raw records) when it ends, a
 * heartbeat every HEARTBEAT_INTERVAL_MS, and the result at the end. Writes are
 * queued in order; the sweep waits only for a level's commit, between levels
 * (runSweep's `afterLevel`), never during measured time.
 */
import type { LevelResult, PoolingLevel, PoolingRecord, PoolingResult, RequestRecord, SweepResult } from '../core/index.js';
import type { PoolingEvent, SweepEvent } from '../runner/index.js';
import { HEARTBEAT_INTERVAL_MS } from '../store/index.js';
import type { RunWriter } from './catalog.js';

export interface SweepRecorder {
  readonly runId: number;
  /** Pass every SweepEvent here. */
  onEvent(e: SweepEvent): void;
  /** runSweep's `afterLevel`: commits the level and its raw records; resolves when stored (a failure is reported by `finish`). */
  afterLevel(level: LevelResult, records: readonly RequestRecord[]): Promise<void>;
  /** Waits for queued writes, then stores the result. @throws Error naming what could not be stored. */
  finish(result: SweepResult): Promise<void>;
  /** The sweep was refused before measuring: removes the run. */
  discard(reason: string): Promise<void>;
  /** The sweep broke without a result: keeps the run as interrupted. */
  abandon(reason: string): Promise<void>;
}

/** The same for an embeddings or rerank sweep. */
export interface PoolingRecorder {
  readonly runId: number;
  onEvent(e: PoolingEvent): void;
  afterLevel(level: PoolingLevel, records: readonly PoolingRecord[]): Promise<void>;
  finish(result: PoolingResult): Promise<void>;
  discard(reason: string): Promise<void>;
  abandon(reason: string): Promise<void>;
}

export interface RecorderOptions {
  /** Called after a level is committed, with its concurrency. */
  onLevelStored?: (concurrency: number) => void;
  heartbeatMs?: number;
}

export function recordSweep(writer: RunWriter, opts: RecorderOptions = {}): SweepRecorder {
  return recordRun<SweepEvent, LevelResult, RequestRecord, SweepResult>(writer, (l, records) => writer.saveLevel(l, records), (result) => writer.finish(result), opts);
}

/** The same for an embeddings or rerank sweep: its levels and result go to the writer's pooling calls. */
export function recordPoolingSweep(writer: RunWriter, opts: RecorderOptions = {}): PoolingRecorder {
  return recordRun<PoolingEvent, PoolingLevel, PoolingRecord, PoolingResult>(writer, (l, records) => writer.savePoolingLevel(l, records), (result) => writer.finishPooling(result), opts);
}

/** Writes queued in order, the heartbeat, and the rule that a run missing a level is not stored as a result. */
function recordRun<E extends SweepEvent | PoolingEvent, L extends { concurrency: number }, Rec, Res>(writer: RunWriter,
  save: (level: L, records: readonly Rec[]) => Promise<void>, store: (result: Res) => Promise<void>, opts: RecorderOptions) {
  const failures: string[] = [];
  let chain: Promise<void> = Promise.resolve();
  const enqueue = (what: string, fn: () => Promise<void>) => {
    chain = chain.then(fn).catch((err: unknown) => { failures.push(`${what}: ${(err as Error).message}`); });
  };
  const timer = setInterval(() => enqueue('heartbeat', () => writer.heartbeat()), opts.heartbeatMs ?? HEARTBEAT_INTERVAL_MS);
  timer.unref();
  const settle = async () => {
    clearInterval(timer);
    await chain;
  };
  return {
    runId: writer.runId,
    onEvent(e: E) {
      if (e.kind === 'preflight') enqueue('the model', () => writer.setModel(e.model));
      else if (e.kind === 'warning') enqueue('a warning', () => writer.addWarning(e.warning));
    },
    afterLevel(level: L, records: readonly Rec[]) {
      enqueue(`level ${level.concurrency}`, async () => {
        await save(level, records);
        opts.onLevelStored?.(level.concurrency);
      });
      return chain;
    },
    async finish(result: Res) {
      await settle();
      // A run missing a level is not a result: its cards would count a level the store lacks.
      if (failures.length > 0) {
        const why = `part of it could not be stored: ${failures.join('; ')}`;
        await writer.abandon(why);
        throw new Error(`run ${writer.runId} is kept as interrupted: ${why}`);
      }
      await store(result);
    },
    async discard(reason: string) {
      await settle();
      await writer.discard(reason);
    },
    async abandon(reason: string) {
      await settle();
      await writer.abandon(reason);
    },
  };
}
