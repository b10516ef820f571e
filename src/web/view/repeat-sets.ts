/**
 * Repeat sets of stored runs ("4+5+6"): runs of one recorded contract,
 * compared as one configuration over the runs, like the repeats of
 * `goodput run --repeats`. The CLI and the page check them with these rules.
 */
import { LIMITS } from '../../core/index.js';

/** "run 4" or "runs 4+5+6". */
export const repeatSetLabel = (ids: readonly (string | number)[]): string => (ids.length === 1 ? `run ${ids[0]}` : `runs ${ids.join('+')}`);

/** The first run of a set's label: "run 4" of "runs 4+5+6"; null for any other label. */
export const firstRunOfSet = (label: string): string | null => {
  const id = /^runs (\d+)\+/.exec(label)?.[1];
  return id === undefined ? null : `run ${id}`;
};

/** Why these sets cannot be read at all (a set past the limit, a run named twice), checked before any run is loaded; or null. */
export function repeatSetsProblem(sets: ReadonlyArray<readonly (string | number)[]>): string | null {
  const big = sets.find((s) => s.length > LIMITS.repeats.max);
  if (big !== undefined)
    return `${big.slice(0, 8).join('+')}${big.length > 8 ? '…' : ''}: a repeat set is at most ${LIMITS.repeats.max} runs (${LIMITS.repeats.what}), not ${big.length}`;
  const named = sets.flat().map(String);
  const twice = named.find((id, i) => named.indexOf(id) !== i);
  return twice === undefined ? null : `run ${twice} is named twice; each run once`;
}

/** Why these stored runs are not one repeat set (they must be runs of one recorded contract), or null. */
export function repeatSetProblem(arg: string, runs: ReadonlyArray<{ id: string; result: { contractHash?: string | null | undefined } }>): string | null {
  if (runs.length > LIMITS.repeats.max) return `${arg}: a repeat set is at most ${LIMITS.repeats.max} runs (${LIMITS.repeats.what}), not ${runs.length}`;
  const [first, ...rest] = runs;
  if (!first) return `${arg}: names no run`;
  const hash = first.result.contractHash ?? null;
  if (hash === null)
    return `${arg}: run ${first.id} records no contract, so no run can be shown to repeat it; a repeat set is runs of one contract (goodput run)`;
  const other = rest.find((r) => (r.result.contractHash ?? null) !== hash);
  if (other) {
    return `${arg}: run ${other.id} ran ${other.result.contractHash ? `another contract (sha256 ${other.result.contractHash.slice(0, 12)}…)` : 'without a contract'} than run ${first.id} (sha256 ${hash.slice(0, 12)}…); a repeat set is runs of one contract`;
  }
  return null;
}
