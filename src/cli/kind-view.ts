/**
 * What a run kind supplies to the command line, and nothing else: its spec
 * read from `goodput sweep`'s flags, its progress words, its terminal table,
 * its exit code. The sweep's front end (sweep-command.ts) is one path for
 * every kind and reads these through the kind table (kind-views.ts). Kinds
 * whose requests return whole answers (pooling, speech to text) share the
 * bodies below: the same progress lines, exit rule and table frame.
 */
import pc from 'picocolors';
import { type LevelOf, type ResultOf, type RunKindName, sanitizeForTerminal as clean } from '../core/index.js';
import type { ClientsOf, SpecInputOf, SweepEvent } from '../runner/index.js';
import type { RunDetail } from '../store/index.js';
import type { Coordinator } from '../workers/index.js';
import type { ArrivalFlags } from './arrival-flags.js';
import { EXIT } from './exit-codes.js';
import type { HookFlags } from './hook-flags.js';
import type { ImageFlags } from './image-flags.js';
import type { PoolingFlags, SweepFlags } from './sweep-flags.js';

/** Every flag `goodput sweep` takes, as commander hands them over. */
export type SweepCommandFlags = SweepFlags & PoolingFlags & ImageFlags & ArrivalFlags & HookFlags;

/** A sweep as its flags ask for it: the spec, and (text generation) the percentiles printed after the table. */
export interface SweepPlan<K extends RunKindName> {
  spec: SpecInputOf<K>;
  percentiles?: readonly number[] | null;
}

export interface KindView<K extends RunKindName> {
  /** The flags → this kind's spec, or a CliError naming a flag; `given` says which flags the user set. */
  fromFlags(f: SweepCommandFlags, given: (key: string) => boolean, argv: readonly string[]): Promise<SweepPlan<K>>;
  /** What stderr says while the sweep runs; `jsonOnStdout`: the table will not reach this screen. */
  progress(jsonOnStdout: boolean): (e: SweepEvent<K>) => void;
  /** The result as the terminal shows it. */
  table(result: ResultOf<K>, color: boolean): string;
  exitCode(result: ResultOf<K>, byUser: boolean): number;
  /** The last stderr line, which a script reads, or null. */
  lastLine?(result: ResultOf<K>): string | null;
  /** The worker processes' clients, for a kind that sends over them. */
  clients?(c: Coordinator): ClientsOf<K>;
  /** `goodput export` of a result that carries no request records: its levels in `format`, or a CliError naming the format or a flag. */
  exportLevels?(result: ResultOf<K>, format: string, flags: { raw?: string; level?: string; outDir?: string }): string;
  /** `goodput runs show` of a stored run of this kind, when the kind shows it its own way (text and pooling have their own command's). */
  storedText?(r: RunDetail): string;
  /** A run stopped before any level ended still prints its (empty) table and writes its file when nothing is stored. */
  showsEmpty?: true;
}

/** Exit code of a finished whole-answer run: stopped, server failed, no level without failures, or ok. */
export function wholeAnswerExit(r: { run: { status: string }; levels: readonly { failed: number }[] }): number {
  if (r.run.status === 'stopped') return EXIT.stopped;
  if (r.run.status === 'server-failed') return EXIT.serverFailed;
  return r.levels.some((l) => l.failed === 0) ? EXIT.ok : EXIT.noValidLevel;
}

type WholeAnswerKind = Exclude<RunKindName, 'text'>;

/** Progress of a whole-answer kind: its preflight line (who serves it), then one line as each level starts and ends. */
export function wholeAnswerProgress<K extends WholeAnswerKind>(preflight: (e: Extract<SweepEvent<K>, { kind: 'preflight' }>) => string) {
  return (e: SweepEvent<K>): void => {
    const err = process.stderr;
    if (e.kind === 'preflight') err.write(`${preflight(e as Extract<SweepEvent<K>, { kind: 'preflight' }>)}\n`);
    else if (e.kind === 'warning') err.write(`warning: ${clean(e.warning.message)}\n`);
    else if (e.kind === 'level-start') {
      const threads = 'threads' in e && e.threads > 1 ? ` over ${e.threads} ${('over' in e ? e.over : undefined) ?? 'client threads'}` : '';
      err.write(`level ${e.index + 1}/${e.total}: concurrency ${e.concurrency}, ${e.requests} requests${threads}\n`);
    } else if (e.kind === 'level-end') err.write(`  done: ${e.level.requests} requests, ${e.level.failed} failed\n`);
  };
}

/** A whole-answer result's text: what was measured, then its table (or that no level finished), then why it stopped. */
export function wholeAnswerText(
  what: string,
  r: { levels: readonly unknown[]; run: { stopReason?: string | null } },
  color: boolean,
  body: () => string[],
): string {
  const c = color ? pc : pc.createColors(false);
  const stop = r.run.stopReason ? [c.yellow(clean(r.run.stopReason))] : [];
  // Nothing to tabulate: say so rather than print a table's header alone.
  if (r.levels.length === 0) return [what, c.red('No level finished: nothing was measured.'), ...stop].join('\n');
  return [what, ...body(), ...stop].join('\n');
}

/**
 * One row per level under a bold header, columns right-aligned; a row red when
 * the level failed requests (else `mark` may colour it), then each level's
 * failure reasons (server text, sanitised) and its `notes`.
 */
export function levelRows<L extends LevelOf<WholeAnswerKind>>(
  levels: readonly L[],
  head: readonly string[],
  row: (l: L) => string[],
  color: boolean,
  extra: { mark?: (l: L, line: string) => string; notes?: (l: L) => string[] } = {},
): string[] {
  const c = color ? pc : pc.createColors(false);
  const rows = levels.map(row);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((x) => (x[i] as string).length)));
  const line = (cells: readonly string[]) => cells.map((cell, i) => cell.padStart(widths[i] as number)).join('  ');
  const mark = extra.mark ?? ((_l, text) => text);
  const out = [c.bold(line(head)), ...levels.map((l, i) => (l.failed > 0 ? c.red(line(rows[i] as string[])) : mark(l, line(rows[i] as string[]))))];
  for (const l of levels) {
    for (const f of l.failures) out.push(c.red(`concurrency ${l.concurrency}: ${f.count} failed: ${clean(f.reason)}`));
    out.push(...(extra.notes?.(l) ?? []));
  }
  return out;
}
