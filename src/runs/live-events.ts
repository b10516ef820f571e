/**
 * What the page's live view receives over SSE: the run's state on connect,
 * then level starts, throttled progress, finished levels, warnings and the
 * end. Raw records never travel here.
 */
import type { LevelResult, PoolingLevel, Warning } from '../core/index.js';
import type { RunStatus } from '../store/index.js';

/** Progress of the level being measured. */
export interface LevelProgress {
  concurrency: number;
  /** 0-based position among the run's levels. */
  index: number;
  total: number;
  requests: number;
  /** A level bounded by time: how long it sends, s (`requests` is then only the most it may send). */
  durationS?: number;
  done: number;
  failed: number;
  outputTokens: number;
  /** Since the measured requests began (after the warm-ups), ms. */
  elapsedMs: number;
  /** Output tokens so far over elapsedMs: live and provisional, not the level's result. */
  liveTokS: number | null;
}

export interface LiveState {
  runId: number;
  levels: LevelResult[];
  current: LevelProgress | null;
  warnings: Warning[];
  /** An embeddings or rerank run's finished levels (its `levels` stay empty). */
  poolingLevels?: PoolingLevel[];
}

export type LiveEvent =
  | { kind: 'snapshot'; state: LiveState }
  | { kind: 'level-start'; progress: LevelProgress }
  | { kind: 'progress'; progress: LevelProgress }
  | { kind: 'level-end'; level: LevelResult }
  | { kind: 'pooling-level-end'; level: PoolingLevel }
  | { kind: 'warning'; warning: Warning }
  /** The run ended (`refused`: it never started measuring) with the reason, if any. */
  | { kind: 'end'; status: RunStatus | 'refused'; reason: string | null };

/** Where a local catalog's writers tell the live view what they stored (the serve's RunHub). */
export interface LiveSink {
  /** Starts following a run just begun. */
  open(runId: number): void;
  publish(runId: number, e: LiveEvent): void;
}
