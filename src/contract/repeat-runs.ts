/**
 * `goodput run --repeats N`: N runs of one contract stored together. The first
 * run is the result's top level (so every reader of results still works); the
 * others follow in `repeats`, each with its own run facts, levels, cards and
 * records. A receipt reads the spread between them before it calls a change
 * better or worse.
 */
import { LIMITS, type RepeatRun, type SweepResult } from '../core/index.js';

/** Fewer runs than this give no spread worth stating: one run, or at least three. */
export const MIN_REPEATS = 3;

/** Why `n` is not a repeat count, or null. */
export function repeatsProblem(n: number): string | null {
  if (!Number.isInteger(n) || n < 1) return `'${n}' is not a whole number of runs`;
  if (n !== 1 && n < MIN_REPEATS) return `${n} runs give no spread worth stating; give 1, or ${MIN_REPEATS} to ${LIMITS.repeats.max}`;
  if (n > LIMITS.repeats.max) return `${n} is above the limit of ${LIMITS.repeats.max} ${LIMITS.repeats.what}`;
  return null;
}

/** A run's evidence, its records and their hash, where it kept them. */
export function evidenceOf<T>(r: { records?: T; recordsSha256?: string }): { records?: T; recordsSha256?: string } {
  return { ...(r.records === undefined ? {} : { records: r.records }), ...(r.recordsSha256 === undefined ? {} : { recordsSha256: r.recordsSha256 }) };
}

/** Runs of one contract as one result of any kind: the first on top, the others in `repeats` as `repeatOf` keeps them. @throws RangeError on an empty list. */
export function stackRuns<R extends object, P>(runs: readonly R[], repeatOf: (r: R) => P, caller: string): R & { repeats?: P[] } {
  const [first, ...rest] = runs;
  if (first === undefined) throw new RangeError(`${caller} needs at least one run`);
  return rest.length === 0 ? first : { ...first, repeats: rest.map(repeatOf) };
}

const repeatOf = (r: SweepResult): RepeatRun => ({ run: r.run, warnings: r.warnings, levels: r.levels, cards: r.cards, ...evidenceOf(r) });

/** Runs of one contract (same contract hash), the first on top. @throws RangeError on an empty list or runs of different contracts. */
export function combineRepeats(runs: readonly SweepResult[]): SweepResult {
  if (runs.some((r) => r.contractHash !== runs[0]?.contractHash)) throw new RangeError('repeats must be runs of one contract');
  return stackRuns(runs, repeatOf, 'combineRepeats');
}

/** Every run of a result, the top level first, as full results (repeats share the top level's contract, tokenizer and report). */
export function runsOf(r: SweepResult): SweepResult[] {
  const { repeats, ...top } = r;
  return [top, ...(repeats ?? []).map((x) => ({ ...top, records: undefined, recordsSha256: undefined, ...x }))];
}
