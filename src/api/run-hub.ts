/**
 * Live runs in this process: their state (for late subscribers) and their
 * subscribers (the SSE streams). Progress is throttled to one event per
 * PROGRESS_EVERY_MS per run; everything else is sent at once.
 */
import type { LevelProgress, LiveEvent, LiveState } from '../runs/index.js';

/** Progress events per run are at most this often, ms. */
export const PROGRESS_EVERY_MS = 250;

type Listener = (e: LiveEvent) => void;

interface Entry {
  state: LiveState;
  listeners: Set<Listener>;
  lastProgressMs: number;
  trailing: NodeJS.Timeout | null;
}

export class RunHub {
  private readonly runs = new Map<number, Entry>();

  /** Starts tracking a run. */
  open(runId: number): void {
    this.runs.set(runId, { state: { runId, levels: [], current: null, warnings: [] }, listeners: new Set(), lastProgressMs: 0, trailing: null });
  }

  isLive(runId: number): boolean {
    return this.runs.has(runId);
  }

  /** Subscribes to a live run: the listener gets a snapshot first. @returns unsubscribe, or null when the run is not live. */
  subscribe(runId: number, listener: Listener): (() => void) | null {
    const entry = this.runs.get(runId);
    if (!entry) return null;
    listener({ kind: 'snapshot', state: structuredClone(entry.state) });
    entry.listeners.add(listener);
    return () => entry.listeners.delete(listener);
  }

  /** Updates the state and tells subscribers; `end` also forgets the run. */
  publish(runId: number, e: LiveEvent): void {
    const entry = this.runs.get(runId);
    if (!entry) return;
    const s = entry.state;
    if (e.kind === 'progress') return this.progress(entry, e.progress);
    if (e.kind === 'level-start') s.current = e.progress;
    if (e.kind === 'level-end') {
      s.levels.push(e.level);
      s.current = null;
      this.flush(entry);
    }
    if (e.kind === 'pooling-level-end') (s.poolingLevels ??= []).push(e.level);
    if (e.kind === 'warning') s.warnings.push(e.warning);
    this.send(entry, e);
    if (e.kind === 'end') {
      if (entry.trailing) clearTimeout(entry.trailing);
      this.runs.delete(runId);
    }
  }

  private progress(entry: Entry, p: LevelProgress): void {
    entry.state.current = p;
    const now = performance.now();
    if (now - entry.lastProgressMs >= PROGRESS_EVERY_MS) {
      entry.lastProgressMs = now;
      this.send(entry, { kind: 'progress', progress: p });
    } else if (!entry.trailing) {
      entry.trailing = setTimeout(() => this.flush(entry), PROGRESS_EVERY_MS - (now - entry.lastProgressMs));
    }
  }

  /** Sends the pending progress, if any, now. */
  private flush(entry: Entry): void {
    if (entry.trailing) {
      clearTimeout(entry.trailing);
      entry.trailing = null;
      if (entry.state.current) {
        entry.lastProgressMs = performance.now();
        this.send(entry, { kind: 'progress', progress: entry.state.current });
      }
    }
  }

  private send(entry: Entry, e: LiveEvent): void {
    for (const l of entry.listeners) l(e);
  }
}
