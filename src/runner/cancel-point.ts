/**
 * Requests given up on purpose, as users who stop waiting: the sweep spec's
 * `cancel` (`--cancel-after-ms`, `--cancel-after-tokens`, `--cancel-fraction`)
 * and which of a level's requests it applies to. The share is spread evenly
 * over the measured sequence (as a structured-output level's controls are), so
 * every client thread, worker and rerun picks the same requests; warm-ups are
 * never cancelled. The client closes the socket at that point and records the
 * outcome `cancelled` (client/stream-handler.ts).
 */
import { z } from 'zod';
import { limitedInt } from '../core/index.js';
import type { CancelPoint } from '../client/index.js';

export const cancelSpecSchema = z
  .object({
    /** Given up this many ms after its send, unless it ended before; null: no time limit. */
    afterMs: limitedInt('cancelAfterMs', 'cancel after ms').nullable().default(null),
    /** Given up once its chunks carried this many tokens, unless it ended before; null: no token limit. */
    afterTokens: limitedInt('outputTokens', 'cancel after tokens').nullable().default(null),
    /** The share of measured requests it applies to, spread evenly over the level (1: every one). */
    fraction: z.number().gt(0, 'cancel fraction must be above 0').lte(1, 'cancel fraction must be at most 1').default(1),
  })
  .strict()
  .refine((c) => c.afterMs !== null || c.afterTokens !== null, { message: 'cancel needs afterMs or afterTokens (when a request is given up)' });

export type CancelSpec = z.output<typeof cancelSpecSchema>;

/** The three settings as given (null: left out) → the spec's cancel (null: none), or `shareAlone` for a share with no point to give up at. */
export function cancelOf(given: {
  afterMs: number | null;
  afterTokens: number | null;
  fraction: number | null;
}): { cancel: CancelSpec | null } | { shareAlone: true } {
  if (given.afterMs === null && given.afterTokens === null) return given.fraction === null ? { cancel: null } : { shareAlone: true };
  return { cancel: { afterMs: given.afterMs, afterTokens: given.afterTokens, fraction: given.fraction ?? 1 } };
}

/** Where request `seq` of a level (warm-ups first) is given up, or undefined when it is read to its end. */
export function cancelPointFor(cancel: CancelSpec | null, warmup: number, seq: number): CancelPoint | undefined {
  if (cancel === null || seq < warmup) return undefined;
  const m = seq - warmup;
  if (Math.floor((m + 1) * cancel.fraction) === Math.floor(m * cancel.fraction)) return undefined;
  return { afterMs: cancel.afterMs, afterTokens: cancel.afterTokens };
}
