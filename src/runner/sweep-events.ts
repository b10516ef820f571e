/**
 * The one event union every sweep emits, keyed by run kind. Warnings and a
 * finished level (with its raw records) are the same for every kind; the
 * rest differs in what a kind knows (a text sweep names its engine and counts
 * output tokens; a pooling sweep names its route and client threads).
 * Subscribers that serve every kind (the recorder, the page's live view)
 * take `SweepEvent<RunKindName>`; a kind's own terminal view takes its kind's.
 */
import type { LevelOf, RecordOf, RunKindName, Warning } from '../core/index.js';

/** What every kind emits. */
type CommonEvent<K extends RunKindName> = { kind: 'warning'; warning: Warning } | { kind: 'level-end'; level: LevelOf<K>; records: readonly RecordOf<K>[] };

/**
 * What each kind emits besides, by kind. Text generation's and pooling's are
 * here; a later kind declares its own beside its driver, merged into this
 * interface (`declare module './sweep-events.js'`), so adding one touches
 * nothing here. Its driver, which emits them, does not compile without them.
 */
export interface KindEvents {
  text:
    | { kind: 'preflight'; model: string; models: string[] }
    /** The engine dialect the run speaks, detected (with its evidence) or given. */
    | {
        kind: 'engine';
        name: string;
        label: string;
        version: string | null;
        dialect: string;
        source: 'detected' | 'override';
        evidence: string[];
        /** The context length the server reports (prompt plus output, tokens), or null. */
        context: { tokens: number; source: string } | null;
      }
    /** `durationS`: a level bounded by time, sending for that long (`requests` is then the most it may send). */
    | { kind: 'level-start'; concurrency: number; index: number; total: number; requests: number; durationS?: number }
    /** `ramp`: a warm-up sent during a ramped level's ramp, after its start. */
    | { kind: 'request'; concurrency: number; done: number; failed: number; requests: number; outputTokens: number; warmup: boolean; ramp?: true }
    | { kind: 'stopped'; status: 'stopped' | 'server-failed'; reason: string };
  pooling:
    | { kind: 'preflight'; model: string; path: string; engine: string }
    /** `threads`: the shares the level is split over, sent by client threads, or by goodput workers when `over` says so. */
    | { kind: 'level-start'; concurrency: number; index: number; total: number; requests: number; threads: number; over?: 'workers' }
    | { kind: 'request'; concurrency: number; done: number; failed: number; requests: number; warmup: boolean };
}

/** The events of a sweep of kind K (text generation unless named); `SweepEvent<RunKindName>` is any kind's. */
export type SweepEvent<K extends RunKindName = 'text'> = K extends RunKindName ? CommonEvent<K> | (K extends keyof KindEvents ? KindEvents[K] : never) : never;

/** The hooks every kind's sweep offers its caller (the recorder, the read door's gate, Stop). */
export interface SweepHooks<K extends RunKindName = 'text'> {
  signal?: AbortSignal;
  onEvent?: (e: SweepEvent<K>) => void;
  /**
   * Awaited after each level ends and before the next one starts, so storing a
   * level's records (PGlite runs on this very event loop) never overlaps
   * measured time, and a killed run keeps every level this returned for.
   */
  afterLevel?: (level: LevelOf<K>, records: readonly RecordOf<K>[]) => Promise<void>;
  /** Awaited before each level starts, warm-ups included: a reader of the store (an export) finishes before measured time begins. */
  beforeLevel?: () => Promise<void>;
  /** Each record as it completes (warm-ups included) at its level's concurrency: live views outside the run (metrics, spans) read it; it must not block. */
  onRecord?: (record: RecordOf<K>, concurrency: number) => void;
}
