/**
 * Subscribes a RunWriter to a sweep's events, whatever its kind: the model
 * at preflight, warnings as raised, each level (with its raw records) when it
 * ends, a heartbeat every HEARTBEAT_INTERVAL_MS, and the result at the end.
 * Writes are queued in order; the sweep waits only for a level's commit,
 * between levels (runSweep's `afterLevel`), never during measured time.
 */
import type { LevelOf, RecordOf, ResultOf, RunKindName } from '../core/index.js';
import type { SweepEvent } from '../runner/index.js';
import { HEARTBEAT_INTERVAL_MS } from '../store/index.js';
import type { RunWriter } from './catalog.js';

/** A sweep of any kind as the writer records it. */
export interface SweepRecorder {
  readonly runId: number;
  /** Pass every SweepEvent here. */
  onEvent(e: SweepEvent<RunKindName>): void;
  /** The sweep's `afterLevel`: commits the level and its raw records; resolves when stored (a failure is reported by `finish`). */
  afterLevel(level: LevelOf, records: readonly RecordOf[]): Promise<void>;
  /** Waits for queued writes, then stores the result. @throws Error naming what could not be stored. */
  finish(result: ResultOf): Promise<void>;
  /** The sweep was refused before measuring: removes the run. */
  discard(reason: string): Promise<void>;
  /** The sweep broke without a result: keeps the run as interrupted. */
  abandon(reason: string): Promise<void>;
}

export interface RecorderOptions {
  /** Called after a level is committed, with its concurrency. */
  onLevelStored?: (concurrency: number) => void;
  heartbeatMs?: number;
}

/** Writes queued in order, the heartbeat, and the rule that a run missing a level is not stored as a result. */
export function recordSweep(writer: RunWriter, opts: RecorderOptions = {}): SweepRecorder {
  const failures: string[] = [];
  let chain: Promise<void> = Promise.resolve();
  const enqueue = (what: string, fn: () => Promise<void>) => {
    chain = chain.then(fn).catch((err: unknown) => {
      failures.push(`${what}: ${(err as Error).message}`);
    });
  };
  const timer = setInterval(() => enqueue('heartbeat', () => writer.heartbeat()), opts.heartbeatMs ?? HEARTBEAT_INTERVAL_MS);
  timer.unref();
  const settle = async () => {
    clearInterval(timer);
    await chain;
  };
  return {
    runId: writer.runId,
    onEvent(e) {
      if (e.kind === 'preflight') enqueue('the model', () => writer.setModel(e.model));
      else if (e.kind === 'warning') enqueue('a warning', () => writer.addWarning(e.warning));
    },
    afterLevel(level, records) {
      enqueue(`level ${level.concurrency}`, async () => {
        await writer.saveLevel(level, records);
        opts.onLevelStored?.(level.concurrency);
      });
      return chain;
    },
    async finish(result) {
      await settle();
      // A run missing a level is not a result: its cards would count a level the store lacks.
      if (failures.length > 0) {
        const why = `part of it could not be stored: ${failures.join('; ')}`;
        await writer.abandon(why);
        throw new Error(`run ${writer.runId} is kept as interrupted: ${why}`);
      }
      await writer.finish(result);
    },
    async discard(reason) {
      await settle();
      await writer.discard(reason);
    },
    async abandon(reason) {
      await settle();
      await writer.abandon(reason);
    },
  };
}
