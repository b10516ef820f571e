/**
 * `goodput sweep`'s cancellation flags (`--cancel-after-ms`, `--cancel-after-tokens`,
 * `--cancel-fraction`), as the option catalogue declares them, → the spec's `cancel`:
 * requests given up on purpose (runner/cancel-point.ts, whose rule for a share with no point
 * the API's start body reads too). Refusals name the flag.
 */
import { type SweepSpecInput, cancelOf } from '../runner/index.js';
import { badFlag } from './parse-flags.js';
import { flagNumber } from './option-flags.js';
import type { FlagsOf } from './sweep-flags.js';

type CancelFlags = Pick<FlagsOf<'arrival'>, 'cancelAfterMs' | 'cancelAfterTokens' | 'cancelFraction'>;

/** The spec's cancel from the flags: null when neither point was given (a share alone is refused). */
export function cancelFromFlags(f: CancelFlags): Pick<SweepSpecInput, 'cancel'> {
  const read = (key: keyof CancelFlags) => {
    const text = f[key];
    return text === undefined ? null : flagNumber(key, text);
  };
  const c = cancelOf({ afterMs: read('cancelAfterMs'), afterTokens: read('cancelAfterTokens'), fraction: read('cancelFraction') });
  if ('shareAlone' in c) throw badFlag('--cancel-fraction', 'needs --cancel-after-ms or --cancel-after-tokens (when a request is given up)');
  return c.cancel === null ? {} : { cancel: c.cancel };
}
