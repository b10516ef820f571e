/**
 * What `goodput run` and `rerun` were given, and the run count read from it
 * (every kind's contract run reads them).
 */
import { type Contract, repeatsProblem } from '../contract/index.js';
import { badFlag, parseNumber } from './parse-flags.js';
import type { SaveFlags } from './save-run.js';
import type { HookFlags } from './hook-flags.js';

export type RunFlags = SaveFlags &
  HookFlags & {
    url?: string;
    json?: string;
    raw?: string;
    apiKeyEnv?: string;
    repeats?: string;
    sign?: boolean;
    key?: string;
    qualityBaseline?: string;
  };

/** How many runs: --repeats, else the contract's; refused by name when it is no count or contradicts the contract's. */
export function repeatCount(contract: Contract, flags: Pick<RunFlags, 'repeats'>): number {
  const repeats = flags.repeats === undefined ? (contract.repeats ?? 1) : parseNumber('--repeats', flags.repeats, { integer: true, min: 1 });
  const why = repeatsProblem(repeats);
  if (why !== null) throw badFlag('--repeats', why);
  if (contract.repeats !== undefined && contract.repeats !== repeats)
    throw badFlag('--repeats', `is ${repeats}, but the contract declares repeats: ${contract.repeats}; the count is declared once, before the first run`);
  return repeats;
}
