/**
 * The runs `goodput compare` and `goodput report` take: stored run ids (read
 * through the store, the one opening shared), repeat sets of stored runs
 * ("4+5+6": runs of one contract, compared over the runs like the repeats of
 * `goodput run --repeats`) or result files (through the result schema), in the
 * order given. Each problem is one line naming the argument; nothing is
 * compared unless every run reads.
 */
import { basename } from 'node:path';
import { LIMITS, type SweepResult, sweepResultSchema } from '../core/index.js';
import { COMPARE_MAX_RUNS, type CompareRun, compareRunOf as compareRunOfResult, repeatSetProblem } from '../web/index.js';

export { repeatSetProblem };
import { CliError, EXIT } from './exit-codes.js';
import { readJsonInput } from './json-input.js';
import { type StoreCliFlags, withCatalog } from './store-flags.js';
import { storedTextRun } from './stored-text-run.js';

const isRunId = (s: string) => /^\d+$/.test(s);
/** "4+5+6": stored runs of one contract, compared as one repeat set. */
const isRepeatSet = (s: string) => /^\d+(?:\+\d+)+$/.test(s);
const idsOf = (arg: string): string[] => (isRunId(arg) || isRepeatSet(arg) ? arg.split('+') : []);

export interface LoadedRun {
  arg: string;
  label: string;
  /** The run; a repeat set's first run, with the others as its `repeats` (as `goodput run --repeats` writes them). */
  result: SweepResult;
}

/** Stored runs of one contract as one result: the first run, the others as its repeats (their own run facts, levels and cards). */
const asRepeats = ([first, ...rest]: SweepResult[]): SweepResult => ({
  ...(first as SweepResult),
  repeats: rest.map((r) => ({ run: r.run, warnings: r.warnings, levels: r.levels, cards: r.cards })),
});

/** Every run named, in order; throws one usage error listing every problem. */
export async function loadRuns(args: readonly string[], flags: StoreCliFlags, command: string, min: number): Promise<LoadedRun[]> {
  if (args.length < min || args.length > COMPARE_MAX_RUNS) {
    throw new CliError(
      EXIT.usage,
      `${command} takes ${min === 1 ? '1' : String(min)} to ${COMPARE_MAX_RUNS} runs (stored ids or result files), not ${args.length}`,
    );
  }
  // Before anything is read: a set past the limit would load every run it names.
  const big = args.find((a) => isRepeatSet(a) && a.split('+').length > LIMITS.repeats.max);
  if (big !== undefined)
    throw new CliError(
      EXIT.usage,
      `${command}: ${big.slice(0, 40)}${big.length > 40 ? '…' : ''}: a repeat set is at most ${LIMITS.repeats.max} runs (${LIMITS.repeats.what})`,
    );
  const named = args.flatMap((a) => (isRunId(a) || isRepeatSet(a) ? a.split('+') : [a]));
  const repeated = named.filter((a, i) => named.indexOf(a) !== i);
  if (repeated.length > 0) throw new CliError(EXIT.usage, `${command}: ${repeated[0]} is named twice; each run once`);
  const fromStore = new Map<string, SweepResult>();
  const ids = args.flatMap(idsOf);
  if (ids.length > 0) {
    await withCatalog(
      flags,
      command,
      async (c) => {
        for (const id of ids) {
          const { result, records } = await storedTextRun(c, Number(id), command);
          fromStore.set(id, { ...result, records });
        }
      },
      true,
    );
  }
  const problems: string[] = [];
  const out: LoadedRun[] = [];
  for (const arg of args) {
    if (isRepeatSet(arg)) {
      const runs = arg.split('+').map((id) => ({ id, result: fromStore.get(id) as SweepResult }));
      const problem = repeatSetProblem(arg, runs);
      if (problem !== null) problems.push(problem);
      else out.push({ arg, label: `runs ${arg}`, result: asRepeats(runs.map((r) => r.result)) });
      continue;
    }
    const stored = fromStore.get(arg);
    if (stored) {
      out.push({ arg, label: `run ${arg}`, result: stored });
      continue;
    }
    const read = await readJsonInput(arg, arg, sweepResultSchema);
    if (read.ok) out.push({ arg, label: basename(arg), result: read.value });
    else problems.push(...read.problems);
  }
  if (problems.length > 0) throw new CliError(EXIT.usage, `${command}: nothing compared:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  // Two files of one name: their labels would not tell them apart.
  const seen = new Map<string, number>();
  for (const r of out) {
    const n = (seen.get(r.label) ?? 0) + 1;
    seen.set(r.label, n);
    if (n > 1) r.label = `${r.label} (${n})`;
  }
  return out;
}

export const compareRunOf = (r: LoadedRun): CompareRun => compareRunOfResult(r.label, r.result);
