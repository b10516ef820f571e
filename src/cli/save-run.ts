/**
 * `sweep --save` and the demo: the run is recorded at start (so a second run
 * against the same server is refused before anything runs), each level is
 * committed as it ends, and the result at the end. Killed with SIGKILL, the
 * run keeps its finished levels and reads as interrupted.
 */
import { type Catalog, beginRunOf, measuringGate, openCatalog, recordSweep } from '../runs/index.js';
import { type SpecInputOf, SweepError, type SweepEvent, specSchemaOf } from '../runner/index.js';
import { type LevelOf, type RecordOf, type ResultOf, type RunKindName, sanitizeForTerminal as clean } from '../core/index.js';
import { redactDatabaseUrl, resolveStoreLocation, storeConfigured } from '../store/index.js';
import type { Command } from 'commander';
import { CliError, EXIT } from './exit-codes.js';
import { addStoreOptions, cliErrorOf } from './store-flags.js';

export interface SaveFlags {
  /** --save / --no-save; undefined when neither was given. */
  save?: boolean;
  data?: string;
  databaseUrl?: string;
}

export interface SaveTarget {
  data?: string;
  databaseUrl?: string;
  command: string;
}

/** What a finished run of any kind shows of itself to the session. */
interface Finished {
  run: { status: string };
  levels: ReadonlyArray<{ concurrency: number }>;
}

/** A run being stored as it is measured, whatever its kind: pass it the sweep's events and hooks. */
export interface SaveSession {
  onEvent(e: SweepEvent<RunKindName>): void;
  /** Awaited before each level: an export the store's read door is serving ends first. */
  beforeLevel(): Promise<void>;
  /** Commits a level; the sweep awaits it between levels. */
  afterLevel(level: LevelOf, records: readonly RecordOf[]): Promise<void>;
  /**
   * Stores the result and says where to see it.
   * @param files what the sweep wrote (--json, --raw): when the store fails, they are how the run is imported later
   * @throws CliError (EXIT.notStored) naming the levels not stored and the import command
   */
  finish(result: ResultOf, files: { json?: string | undefined; raw?: string | undefined }): Promise<void>;
  /** The sweep threw: a refused one is removed, a broken one kept as interrupted. */
  fail(err: unknown): Promise<void>;
  /** The sweep was stopped before any level ended: its run is removed, since there is nothing to keep. */
  discard(reason: string): Promise<void>;
}

/**
 * Whether and where to save. Without --save/--no-save, `defaultOn` decides
 * (the demo), else whether a store is configured (named, or the default exists).
 */
export function saveTarget(f: SaveFlags, defaultOn: boolean, command: string): SaveTarget | null {
  let configured: boolean;
  try {
    configured = storeConfigured(resolveStoreLocation(f));
  } catch (err) {
    throw cliErrorOf(err);
  }
  return (f.save ?? (defaultOn || configured)) ? { data: f.data, databaseUrl: f.databaseUrl, command } : null;
}

/** The store flags of `t` as they may be shown in a suggested command (the password redacted). */
function storeFlagsText(t: SaveTarget, env: NodeJS.ProcessEnv): string {
  // A database named by the environment (as `--workers` runs often are) is named in the hint too: another shell may not have it.
  const url = t.data === undefined ? (t.databaseUrl ?? (env['GOODPUT_DATABASE_URL'] || undefined)) : undefined;
  return t.data !== undefined ? ` --data ${JSON.stringify(t.data)}` : url !== undefined ? ` --database-url ${redactDatabaseUrl(url)}` : '';
}

/** The command that shows a stored run, naming the store it is in. */
export function serveHint(t: SaveTarget, runId: number, env: NodeJS.ProcessEnv = process.env): string {
  const flag = storeFlagsText(t, env);
  return `see it with: goodput serve${flag}   (then open http://127.0.0.1:7878/#/runs/${runId})`;
}

/**
 * A stop before any level ended leaves nothing measured: no result file, no
 * stored run (a result with no level would read as a measurement of nothing).
 * @returns true when that is the case, after saying so in one line
 */
export async function discardIfNothingFinished(
  result: Finished,
  session: Pick<SaveSession, 'discard'> | null,
  log: NodeJS.WritableStream = process.stderr,
): Promise<boolean> {
  if (result.run.status !== 'stopped' || result.levels.length > 0) return false;
  await session?.discard('stopped before any level finished');
  log.write('nothing was finished: stopped before the first level ended, so no result was written and no run stored\n');
  return true;
}

/** What to tell the user when the store failed under a sweep that measured: what is lost, what is kept, how to store it. */
function notStoredError(
  err: unknown,
  result: Finished,
  stored: ReadonlySet<number>,
  files: { json?: string | undefined; raw?: string | undefined },
  t: SaveTarget,
): CliError {
  const missing = result.levels.map((l) => l.concurrency).filter((c) => !stored.has(c));
  const what = missing.length > 0 ? `level(s) ${missing.join(', ')} were not stored` : 'the run was not stored whole';
  const flags = storeFlagsText(t, process.env);
  const how =
    files.json !== undefined && files.json !== '-' && files.raw !== undefined
      ? `the measurement is whole in ${files.json} and ${files.raw}; store it with: goodput runs import ${files.json} --raw ${files.raw}${flags}`
      : 'the measurement is above; to be able to store a run later when the store fails, sweep with --json FILE and --raw FILE';
  return new CliError(EXIT.notStored, `${what} (${clean((err as Error).message)}); ${how}`);
}

/**
 * Opens the store and records the start of a run of the kind its spec's endpoint names.
 * @returns null for an invalid spec: the sweep refuses it, with a message naming the field
 * @throws CliError (exit 2) when the store is busy or the server has a run in progress.
 */
export async function startSaving(spec: SpecInputOf<RunKindName>, t: SaveTarget, log: NodeJS.WriteStream = process.stderr): Promise<SaveSession | null> {
  if (!specSchemaOf(spec).safeParse(spec).success) return null;
  const begin = beginRunOf(spec);
  let catalog: Catalog | null = null;
  try {
    // Other commands read the store through this process meanwhile; exports wait for the level being measured.
    const gate = measuringGate();
    catalog = await openCatalog({ data: t.data, databaseUrl: t.databaseUrl, command: t.command, shareReads: gate });
    const writer = await catalog.beginRun(begin);
    const tty = log.isTTY === true;
    const stored = new Set<number>();
    const recorder = recordSweep(writer, {
      onLevelStored: (c) => {
        stored.add(c);
        if (!tty) log.write(`level c=${c} stored in run ${writer.runId}\n`);
      },
    });
    const opened = catalog;
    const close = () => {
      gate.end();
      return opened.close();
    };
    return {
      onEvent: (e) => {
        if (e.kind === 'level-start') gate.start();
        if (e.kind === 'level-end') gate.end();
        recorder.onEvent(e);
      },
      beforeLevel: () => gate.beforeLevel(),
      afterLevel: (level, records) => recorder.afterLevel(level, records),
      async finish(result, files) {
        try {
          await recorder.finish(result);
          const see = opened.remoteUrl ? `see it at ${opened.remoteUrl}/#/runs/${writer.runId}` : serveHint(t, writer.runId);
          log.write(`stored as run ${writer.runId} (${result.run.status}) in ${opened.description}; ${see}\n`);
        } catch (err) {
          throw notStoredError(err, result, stored, files, t);
        } finally {
          await close().catch(() => {});
        }
      },
      async discard(reason) {
        try {
          await recorder.discard(reason);
        } finally {
          await close();
        }
      },
      async fail(err) {
        try {
          if (err instanceof SweepError) await recorder.discard(err.message);
          else await recorder.abandon(`the sweep broke: ${(err as Error).message}`);
        } finally {
          await close();
        }
      },
    };
  } catch (err) {
    await catalog?.close();
    throw cliErrorOf(err);
  }
}

/** `--save` / `--no-save` and where (`--data`, `--database-url`), for sweep and demo. */
export function addSaveOptions(cmd: Command): Command {
  return addStoreOptions(
    cmd
      .option('--save', 'store the run (default: on when a store is configured — named, or ~/.goodput/db exists; always on for demo)')
      .option('--no-save', 'do not store the run'),
  );
}
