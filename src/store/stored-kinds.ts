/**
 * What the store keeps of each run kind beside the JSON it stores whole: a
 * level's columns (the ones the history and the peak read without parsing
 * it) and what the run row takes of a finished result. Keyed by core's run
 * kinds, so a level and a result are filed by their run's kind through one
 * table. A kind with no columns of its own (no peak in tokens or items) is
 * filed by the default: a new kind needs a line here only to count for a peak.
 */
import type { LevelOf, ResultOf, RunKindName } from '../core/index.js';

/** A level's row: its key on the load axis, then invalid, client-bound, failed, throughput (tok/s) and items/s. */
export interface LevelRow {
  key: number;
  columns: [boolean, boolean, number, number, number | null];
}

/** What the run row takes of a result besides its status, contract and warnings; without `cards`, the column is left as it is. */
export interface ResultRow {
  cards?: unknown;
  extras: object;
}

interface StoredKind<K extends RunKindName> {
  levelRow(level: LevelOf<K>): LevelRow;
  resultRow(result: ResultOf<K>): ResultRow;
}

/** The kinds the history's peak reads: their own columns. */
const STORED_KINDS: { [K in 'text' | 'pooling']: StoredKind<K> } = {
  text: {
    levelRow: (l) => ({ key: l.load?.level ?? l.concurrency, columns: [l.invalid, l.clientBound.bound, l.failed, l.throughputTokS, null] }),
    resultRow: ({ run: _run, warnings: _w, cards, levels: _levels, schemaVersion: _v, ...extras }) => ({ cards, extras }),
  },
  // A pooling level counts towards the peak as the result's peak does (poolingExclusion): no failed request, a rate measured, not client-bound.
  // Its result's peak and capacity are derived from the levels when read, so the row keeps none of them.
  pooling: {
    levelRow: (l) => ({ key: l.concurrency, columns: [l.failed > 0 || l.itemsPerS === null, l.clientBound?.bound === true, l.failed, 0, l.itemsPerS] }),
    resultRow: () => ({ extras: {} }),
  },
};

/**
 * Any other kind (speech to text): no level of it counts for the history's
 * peak, its row keeps failures and requests/s, and its result is its run and
 * levels, read back whole (export-result.ts).
 */
const NO_PEAK: StoredKind<RunKindName> = {
  levelRow: (l) => ({ key: l.concurrency, columns: [true, false, l.failed, 0, 'requestsPerS' in l ? l.requestsPerS : null] }),
  resultRow: () => ({ extras: {} }),
};

const storedKind = (kind: RunKindName): StoredKind<RunKindName> =>
  (kind === 'text' || kind === 'pooling' ? STORED_KINDS[kind] : NO_PEAK) as StoredKind<RunKindName>;

/** The row of a level of kind `kind`. */
export function levelRowOf(kind: RunKindName, level: LevelOf): LevelRow {
  return storedKind(kind).levelRow(level);
}

/** What the run row takes of a result of kind `kind`. */
export function resultRowOf(kind: RunKindName, result: ResultOf): ResultRow {
  return storedKind(kind).resultRow(result);
}
