/**
 * `goodput sweep`'s cancellation flags (`--cancel-after-ms`, `--cancel-after-tokens`,
 * `--cancel-fraction`), as the option catalogue declares them, → the spec's `cancel`:
 * requests given up on purpose (runner/cancel-point.ts). Refusals name the flag.
 */
import type { SweepSpecInput } from '../runner/index.js';
import { badFlag } from './parse-flags.js';
import { flagNumber } from './option-flags.js';
import type { FlagsOf } from './sweep-flags.js';

type CancelFlags = Pick<FlagsOf<'arrival'>, 'cancelAfterMs' | 'cancelAfterTokens' | 'cancelFraction'>;

/** The spec's cancel from the flags: null when neither point was given (a share alone is refused). */
export function cancelFromFlags(f: CancelFlags): Pick<SweepSpecInput, 'cancel'> {
  const afterMs = f.cancelAfterMs === undefined ? null : flagNumber('cancelAfterMs', f.cancelAfterMs);
  const afterTokens = f.cancelAfterTokens === undefined ? null : flagNumber('cancelAfterTokens', f.cancelAfterTokens);
  const fraction = f.cancelFraction === undefined ? 1 : flagNumber('cancelFraction', f.cancelFraction);
  if (fraction > 1) throw badFlag('--cancel-fraction', `${fraction} is above 1: it is the share of requests given up`);
  if (afterMs === null && afterTokens === null) {
    if (f.cancelFraction !== undefined) throw badFlag('--cancel-fraction', 'needs --cancel-after-ms or --cancel-after-tokens (when a request is given up)');
    return {};
  }
  return { cancel: { afterMs, afterTokens, fraction } };
}
