/**
 * What each level held, as one table for the page's run view and the report:
 * the requests our client kept open at its sends (median and least) beside
 * the concurrency asked, and whether that is the load the level is labelled
 * with. Only levels with the figures have a row (results of earlier versions have none).
 */
import { type LevelResult, HELD_SHARE, heldPct, heldShort } from '../../core/index.js';
import { num } from './format.js';

export const IN_FLIGHT_HEADERS = ['Level', 'Asked', 'In flight p50', 'In flight min', 'Held', 'Sends counted', 'Verdict'] as const;

export const IN_FLIGHT_CAPTION = `Load held: the requests our client kept open (sent, not yet ended) at each measured send after the level's first, from the records' own instants; a closed loop below ${Math.round(HELD_SHARE * 100)} % of the concurrency asked did not hold it`;

/** One row per level with in-flight figures, in level order. */
export function inFlightRows(levels: readonly LevelResult[]): string[][] {
  return levels.flatMap((l) => {
    const f = l.inFlight;
    if (f === undefined) return [];
    const verdict = f.asked === null ? 'no concurrency asked (open loop)' : heldShort(f) ? 'not held' : 'held';
    return [
      [
        l.load?.label ?? `${l.concurrency} streams`,
        f.asked === null ? '—' : String(f.asked),
        num(f.median, Number.isInteger(f.median) ? 0 : 1),
        String(f.min),
        f.held === null ? '—' : `${num(heldPct(f, 1), 1)} %`,
        String(f.samples),
        verdict,
      ],
    ];
  });
}
