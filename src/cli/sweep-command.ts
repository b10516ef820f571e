/**
 * `goodput sweep`: flags → a validated spec → runSweep → table, JSON and raw
 * records, and the run stored. Every flag is checked before anything runs or
 * is written. One front end for every kind: the `--endpoint` names the kind,
 * and the kind table (kind-views.ts) supplies its spec, progress and table.
 */
import type { Command } from 'commander';
import {
  type LevelOf,
  type LevelResult,
  type RecordOf,
  type RequestRecord,
  type ResultOf,
  type RunKindName,
  type SweepResult,
  kindOfEndpoint,
  sanitizeForTerminal as clean,
} from '../core/index.js';
import { type DepsOf, type SpecInputOf, type SweepEvent, type SweepSpecInput, kindOfSpec, runSweep } from '../runner/index.js';
import type { Coordinator } from '../workers/index.js';
import type { ObserveTarget, RunObserver } from '../telemetry/index.js';
import { AfterMeasuring, writeResult } from './after-measuring.js';
import { CliError, EXIT, untilStopped } from './exit-codes.js';
import { sayWritten, writeRecords } from './files.js';
import { viewOf } from './kind-views.js';
import type { KindView, SweepCommandFlags } from './kind-view.js';
import { badFlag } from './parse-flags.js';
import { addRunOptions, flagNumber } from './option-flags.js';
import { observeFromFlags, startObserving, stopObserving } from './observe-flags.js';
import { percentileBlock, percentileLine } from './render-percentiles.js';
import { workerSecretFromEnv } from './worker-command.js';
import { addImageOptions } from './image-flags.js';
import { addHookOptions } from './hook-flags.js';
import { addPoolingOptions } from './pooling-view.js';
import { type SaveSession, type SaveTarget, addSaveOptions, discardIfNothingFinished, saveTarget, startSaving } from './save-run.js';
import type { SweepFlags } from './sweep-flags.js';
import { type SpendGuard, guardSpend, spendGuardFromFlags } from './spend-guard.js';

/** Adds the sweep flags to a command (shared with `demo`, `replay` and `sessions`), as the option catalogue declares them. */
export function addSweepOptions(cmd: Command, withUrl = true): Command {
  return addSaveOptions(addRunOptions(cmd, 'sweep', withUrl ? [] : ['--url']));
}

/** Runs a text-generation sweep from a spec and does the output side (`demo`, `replay`, `sessions` and `utilisation` call it). Returns the exit code. */
export async function sweepAndReport(spec: SweepSpecInput, out: SweepOutputs & { workers?: WorkersFlags }): Promise<{ code: number; result: SweepResult }> {
  return sweepKind<'text'>(spec, out);
}

/** Runs a sweep of any kind (its spec's endpoint names it) and does the output side: progress, raw records, JSON, the table, the stored run. */
export async function sweepKind<K extends RunKindName>(
  spec: SpecInputOf<K>,
  out: SweepOutputs & { workers?: WorkersFlags | null },
): Promise<{ code: number; result: ResultOf<K> }> {
  if (out.json !== undefined && out.json === out.raw) throw badFlag('--raw', 'must be a different file from --json');
  // One pacer holds a provider's budget; workers on other machines could not share it.
  if (out.workers && (spec as { rateLimit?: unknown }).rateLimit != null)
    throw badFlag('--rate-limit', 'cannot pace --workers: one process holds the budget (run the sweep without --workers)');
  const view = viewOf(kindOfSpec(spec) as K);
  // Before the workers, the store or any socket: a refused spend sends nothing.
  if (kindOfSpec(spec) === 'text') guardSpend(spec as SweepSpecInput, out.spend ?? spendGuardFromFlags({}));
  // Before the workers and the store: a port that cannot be opened stops the run before anything is stored.
  const observer = out.observe ? await startObserving(out.observe) : null;
  try {
    return await withWorkers(out.workers ?? null, async (coordinator) => {
      const saving = out.save ? await startSaving(spec, out.save) : null;
      return untilStopped((signal) => measure(view, spec, out, { saving, coordinator, signal, observer }));
    });
  } finally {
    if (observer) await stopObserving(observer);
  }
}

/** Runs `fn` with the workers' coordinator when `--workers` is given (closed after, whatever happened), else without. */
async function withWorkers<T>(workers: WorkersFlags | null, fn: (coordinator: Coordinator | null) => Promise<T>): Promise<T> {
  // Workers first: a database that does not answer or too few workers stop the run before anything is stored.
  const coordinator = workers ? await startWorkers(workers) : null;
  try {
    return await fn(coordinator);
  } finally {
    await coordinator?.close();
  }
}

/** Where a sweep's outputs go: the result file, the raw records, the store, the percentiles printed after the table. */
export interface SweepOutputs {
  json?: string | undefined;
  raw?: string | undefined;
  save?: SaveTarget | null;
  percentiles?: readonly number[] | null;
  /** The spend guard of a priced run (`--max-spend`, `--yes`); absent: its defaults. */
  spend?: SpendGuard;
  /** `--otlp` and `--serve-metrics`: what watches the run from outside; absent or null: nothing. */
  observe?: ObserveTarget | null;
}

/** `--workers N` with its database: validated here, connected by startWorkers. */
export interface WorkersFlags {
  count: number;
  databaseUrl: string;
  waitMs: number;
}

/** `--workers`, `--workers-wait` and the database they need, or null without --workers. */
export function workersFromFlags(f: Pick<SweepFlags, 'workers' | 'workersWait' | 'databaseUrl'>): WorkersFlags | null {
  if (f.workers === undefined) return null;
  const count = flagNumber('workers', f.workers);
  const databaseUrl = f.databaseUrl ?? (process.env['GOODPUT_DATABASE_URL'] || undefined);
  if (databaseUrl === undefined) throw badFlag('--workers', 'needs --database-url (or GOODPUT_DATABASE_URL): the workers meet in that PostgreSQL');
  const waitMs = flagNumber('workersWait', f.workersWait) * 1000;
  return { count, databaseUrl, waitMs };
}

async function startWorkers(w: WorkersFlags): Promise<Coordinator> {
  const { startCoordinator } = await import('../workers/index.js');
  const secret = await workerSecretFromEnv('--workers');
  const c = await startCoordinator(w.databaseUrl, w.count, w.waitMs, secret);
  // Names and hosts are the workers' own words, read from the database: cleaned before a terminal sees them.
  process.stderr.write(
    `${c.workers.length} workers live: ${c.workers.map((x) => `${clean(x.name)} (${clean(x.host)}, ${x.cores} cores, clock ${x.clockOffsetMs?.toFixed(2) ?? '?'} ms)`).join(', ')}\n`,
  );
  return c;
}

/** The sweep itself, then the steps after measuring; `saving` begun and the workers started before it. */
async function measure<K extends RunKindName>(
  view: KindView<K>,
  spec: SpecInputOf<K>,
  out: SweepOutputs,
  { saving, coordinator, signal, observer }: { saving: SaveSession | null; coordinator: Coordinator | null; signal: AbortSignal; observer: RunObserver | null },
): Promise<{ code: number; result: ResultOf<K> }> {
  const progress = view.progress(out.json === '-');
  let firstLevel = true;
  // Between levels, never during one: the raw lines and the store's commit.
  const percentiles: string[] = [];
  const deps = {
    signal,
    onEvent: (e: SweepEvent<K>) => {
      progress(e);
      saving?.onEvent(e);
      observer?.onEvent(e);
    },
    // Only text generation is observed (the flags are its own): its records.
    ...(observer ? { onRecord: (r: RecordOf<K>) => observer.onRecord(r as RequestRecord) } : {}),
    afterLevel: async (level: LevelOf<K>, records: readonly RecordOf<K>[]) => {
      // Percentiles are asked of text generation only: its levels and records.
      if (out.percentiles) percentiles.push(percentileLine(level as LevelResult, records as RequestRecord[], out.percentiles));
      if (out.raw) await writeRecords(out.raw, records, firstLevel);
      firstLevel = false;
      await saving?.afterLevel(level, records);
      await observer?.afterLevel();
    },
    ...(saving ? { beforeLevel: () => saving.beforeLevel() } : {}),
    ...(coordinator && view.clients ? { clients: view.clients(coordinator) } : {}),
  };
  const result = (await runSweep(spec, deps as DepsOf<RunKindName>).catch(async (err: unknown) => {
    await saving?.fail(err);
    throw err;
  })) as ResultOf<K>;
  // A stop no signal asked for is our side going away (the workers' database), not the user.
  const byUser = signal.aborted;
  if ((saving || !view.showsEmpty) && (await discardIfNothingFinished(result, saving))) return { code: view.exitCode(result, byUser), result };
  // Each step runs even when one before it failed: the file, the table and the stored run do not depend on each other.
  const after = new AfterMeasuring();
  const wrote = await writeResult(after, result, out.json, () => view.table(result, process.stdout.isTTY === true) + percentileBlock(percentiles));
  sayWritten([wrote, firstLevel ? undefined : out.raw]);
  await after.step('storing the run', () => saving?.finish(result, out));
  const last = view.lastLine?.(result) ?? null;
  if (last !== null) process.stderr.write(`${last}\n`);
  return { code: after.code(view.exitCode(result, byUser)), result };
}

export function registerSweepCommand(program: Command): void {
  addHookOptions(
    addRunOptions(
      addImageOptions(addPoolingOptions(addSweepOptions(program.command('sweep').description('run a concurrency sweep against an OpenAI-compatible server')))),
      'arrival',
    ),
  ).action(async (flags: SweepCommandFlags, cmd: Command) => {
    const given = (key: string) => cmd.getOptionValueSource(key) === 'cli';
    const view = viewOf(kindOfEndpoint(flags.endpoint));
    const { spec, percentiles } = await view.fromFlags(flags, given, process.argv.slice(2));
    const workers = workersFromFlags(flags);
    const { code } = await sweepKind(spec, {
      json: flags.json,
      raw: flags.raw,
      save: saveTarget(flags, false, 'goodput sweep'),
      percentiles,
      workers,
      spend: spendGuardFromFlags(flags),
      observe: observeFromFlags(flags),
    });
    if (code !== EXIT.ok) throw new CliError(code, '');
  });
}
