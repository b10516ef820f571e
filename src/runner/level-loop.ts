/**
 * The level loop every kind's driver runs: each level in ascending order is
 * announced, sent with its progress events, judged (a stop, or a level), stored
 * (afterLevel) before the next starts, and warned about; our own side going
 * away (a client thread or worker lost, the workers' database) ends the sweep
 * as stopped with the finished levels kept, and a stop by the user says how
 * many levels stand. A kind supplies its sender and summary (`level`) and the
 * warnings its levels earn; the rest is here, with the spec parse, the events
 * and warnings every kind's sweep keeps.
 */
import type { z } from 'zod';
import { type LevelOf, type RecordOf, type RunKindName, type ServerHookCall, type Warning, isFailed } from '../core/index.js';
import { SweepError } from './errors.js';
import { TOOL_VERSION } from './version.js';
import type { SweepEvent, SweepHooks } from './sweep-events.js';

/** The connection-error code of a request a lost worker never reported: our side failed, not the server. */
export const CLIENT_LOST = 'client-lost';

/** A spec as its kind's schema leaves it; the first problem refused naming its field. */
export function parseSpec<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new SweepError('bad-input', `${issue?.path.join('.') || 'spec'}: ${issue?.message ?? 'invalid'}`);
}

/** What every kind's sweep keeps: its events, its warnings (each emitted as it is found) and its stop. */
export interface SweepTalk<K extends RunKindName> {
  emit(e: SweepEvent<K>): void;
  warn(w: Warning): void;
  warnings: Warning[];
  signal: AbortSignal;
}

export function sweepTalk<K extends RunKindName>(deps: SweepHooks<K>): SweepTalk<K> {
  const emit = deps.onEvent ?? (() => {});
  const warnings: Warning[] = [];
  const warn = (w: Warning) => {
    warnings.push(w);
    emit({ kind: 'warning', warning: w } as SweepEvent<K>);
  };
  return { emit, warn, warnings, signal: deps.signal ?? new AbortController().signal };
}

/** How the levels went: the finished ones, and why the sweep stopped early when it did. */
export interface LevelsEnd<K extends RunKindName> {
  levels: LevelOf<K>[];
  status: 'complete' | 'stopped' | 'server-failed';
  stopReason: string | null;
}

/** How the run went, as every kind's result file says it (in this order), once its levels are over. */
export function runEnd(command: string, r: { startedAt: string; status: LevelsEnd<RunKindName>['status']; stopReason: string | null }) {
  return { command, startedAt: r.startedAt, endedAt: new Date().toISOString(), status: r.status, stopReason: r.stopReason, toolVersion: TOOL_VERSION };
}

/** Where a level stands in the sweep, and its progress callback (counts every record into a request event). */
export interface LevelAt<K extends RunKindName> {
  concurrency: number;
  index: number;
  requests: number;
  /** Requests (warm-ups included) the levels before it sent: where its prompts or inputs begin. */
  offset: number;
  onRecord(r: RecordOf<K>): void;
  /** The measured requests counted so far, and how many failed. */
  counted: { readonly done: number; readonly failed: number };
}

/** A level sent and summed up (its warnings before it is stored, and after); a stop naming why; or stopped by the signal. */
export type LevelStep<K extends RunKindName> =
  | { kind: 'level'; level: LevelOf<K>; records: readonly RecordOf<K>[]; warnings?: readonly Warning[]; later?(): Warning[] }
  | { kind: 'stop'; status: 'stopped' | 'server-failed'; reason: string }
  | { kind: 'aborted' };

/** What a server hook did beside a level: its calls (kept on the level), and why it failed (null: it did not). */
export interface HookStep {
  calls: ServerHookCall[];
  failed: string | null;
}

/**
 * The engine's admin routes called around each level (server-hooks.ts): before
 * it (after the caller's beforeLevel), and after its last request, before it is stored.
 */
export interface LevelHooks {
  before(level: number, index: number): Promise<HookStep>;
  after(level: number, index: number): Promise<HookStep>;
}

/** What a kind gives the loop. */
export interface LevelKind<K extends RunKindName> {
  order: readonly number[];
  warmup: number;
  requestsAt(level: number): number;
  /** Fields the kind's level-start event adds (a pooling level's shares). */
  startFields?(level: number, requests: number): object;
  /** Output tokens a record adds to the progress count (a text sweep counts them). */
  tokensOf?(r: RecordOf<K>): number;
  /** Sends the level and sums it up; `done` are the levels before it. */
  level(at: LevelAt<K>, done: readonly LevelOf<K>[]): Promise<LevelStep<K>>;
  /** The server hooks around each level; their calls are kept on the level as `serverHooks`. */
  serverHooks?: LevelHooks | null;
}

/** The stop reason's last sentence: which levels stand. */
export function levelsComplete(levels: readonly { concurrency: number }[]): string {
  if (levels.length === 0) return 'No level was completed.';
  return levels.length === 1 ? `Level ${levels[0]?.concurrency} is complete.` : `Levels ${levels.map((l) => l.concurrency).join(', ')} are complete.`;
}

/** The levels in order, each stored (afterLevel) before the next starts, until the last, a stop or a failure. */
export async function sweepLevels<K extends RunKindName>(talk: SweepTalk<K>, hooks: SweepHooks<K>, kind: LevelKind<K>): Promise<LevelsEnd<K>> {
  const { signal } = talk;
  const emit = talk.emit as (e: object) => void;
  const levels: LevelOf<K>[] = [];
  let offset = 0;
  for (const [index, c] of kind.order.entries()) {
    if (signal.aborted) break;
    await hooks.beforeLevel?.();
    if (signal.aborted) break;
    const pre = (await kind.serverHooks?.before(c, index)) ?? null;
    // A level the hook could not prepare (a cache left warm, no profiler) would not be what it says: none is sent.
    if (pre?.failed) return { levels, status: 'server-failed', stopReason: `${pre.failed}. ${levelsComplete(levels)}` };
    const requests = kind.requestsAt(c);
    emit({ kind: 'level-start', concurrency: c, index, total: kind.order.length, requests, ...kind.startFields?.(c, requests) });
    const p = { done: 0, failed: 0, tokens: 0 };
    const onRecord = (r: RecordOf<K>) => {
      if (!r.warmup) {
        p.done++;
        if (isFailed(r)) p.failed++;
        else if (r.outcome.kind === 'ok') p.tokens += kind.tokensOf?.(r) ?? 0;
      }
      const tokens = kind.tokensOf ? { outputTokens: p.tokens } : {};
      // A ramp's request is a warm-up sent after the level's start: said, so a live clock is not restarted by it.
      const ramp = (r as { ramp?: true }).ramp ? { ramp: true } : {};
      emit({ kind: 'request', concurrency: c, done: p.done, failed: p.failed, requests, ...tokens, warmup: r.warmup, ...ramp });
      hooks.onRecord?.(r, c);
    };
    const step = await kind.level({ concurrency: c, index, requests, offset, onRecord, counted: p }, levels).catch((err: unknown) => poolLost(err, levels));
    // The profiler is stopped whatever became of the level.
    const post = (await kind.serverHooks?.after(c, index)) ?? null;
    if (step.kind === 'stop') return { levels, status: step.status, stopReason: step.reason };
    if (step.kind === 'aborted') break;
    offset += kind.warmup + requests;
    for (const w of step.warnings ?? []) talk.warn(w);
    if (post?.failed) talk.warn({ code: 'server-hook-failed', message: post.failed });
    const calls = [...(pre?.calls ?? []), ...(post?.calls ?? [])];
    const level = calls.length === 0 ? step.level : ({ ...step.level, serverHooks: calls } as LevelOf<K>);
    levels.push(level);
    emit({ kind: 'level-end', level, records: step.records });
    await hooks.afterLevel?.(level, step.records);
    for (const w of step.later?.() ?? []) talk.warn(w);
  }
  if (signal.aborted) return { levels, status: 'stopped', stopReason: `stopped by the user; ${levels.length} level(s) complete` };
  return { levels, status: 'complete', stopReason: null };
}

/**
 * Our side going away mid-level (the workers' database, a thread or worker lost
 * once a level has finished) ends the sweep as a stop; lost before any level, it fails the sweep.
 */
function poolLost<K extends RunKindName>(err: unknown, done: readonly LevelOf<K>[]): LevelStep<K> {
  const ours = err instanceof SweepError && (err.code === 'client-stopped' || (err.code === 'client-failed' && done.length > 0));
  if (!ours) throw err;
  return { kind: 'stop', status: 'stopped', reason: `${err.message}. ${levelsComplete(done)}` };
}

/**
 * A level whose every measured request failed to connect (bar those a lost
 * worker never reported, our side's): the server stopped answering, and the sweep ends there.
 */
export function unanswered<K extends RunKindName>(records: readonly RecordOf<K>[], c: number, done: readonly unknown[]): LevelStep<K> | null {
  const measured = records.filter((r) => !r.warmup);
  const lost = (o: RecordOf<K>['outcome']) => o.kind === 'connection-error' && (o as { code?: string }).code !== CLIENT_LOST;
  if (measured.length === 0 || !measured.every((r) => lost(r.outcome))) return null;
  const last = measured[measured.length - 1]?.outcome;
  const why = last?.kind === 'connection-error' ? (last as { message: string }).message : '';
  return {
    kind: 'stop',
    status: 'server-failed',
    reason: `the server stopped answering during the concurrency-${c} level: ${why}. ${done.length} level(s) complete`,
  };
}

/** The warning a level with failed requests earns, naming the reasons (pooling, transcriptions). */
export function failedWarning(level: {
  concurrency: number;
  failed: number;
  requests: number;
  failures: readonly { count: number; reason: string }[];
}): Warning[] {
  if (level.failed === 0) return [];
  const reasons = level.failures.map((f) => `${f.count}× ${f.reason}`).join('; ');
  return [{ code: 'failed-requests', message: `concurrency ${level.concurrency}: ${level.failed} of ${level.requests} requests failed (${reasons})` }];
}
