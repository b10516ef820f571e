/**
 * Speculative decoding and energy in a comparison: per level and run, the
 * server's acceptance length (the headline) and rate, our tokens per chunk
 * and whether they agree, and the joules per output token or that the energy
 * is not valid. These are each result's word (the server's counters and the
 * GPU readings are not in its records) and one value per level and run, with
 * no per-request samples to bound a change: no difference or verdict is
 * computed from them, and the notes name every disagreement and every level
 * whose energy is not valid.
 */
import { type LevelResult, SPEC_DECODE_TOLERANCE, levelValue } from '../../core/index.js';
import { num } from './format.js';
import { METRICS } from './metrics.js';

/** What a compared run contributes here. */
export interface ServerSideRun {
  label: string;
  levels: readonly LevelResult[];
}

export interface ServerSideComparison {
  /** What the figures are and why no difference is computed. */
  basis: string;
  /** Each run's columns, in order. */
  headers: string[];
  /** Per level, per run, its cells in `headers` order (null when that run did not measure the level). */
  rows: Array<{ level: number; runs: Array<string[] | null> }>;
  /** Each disagreement, each gauge read after the level, and each level whose energy is not valid, named by run and level. */
  notes: string[];
}

const SERVER_SIDE_BASIS =
  "The server's own speculative-decoding figures and the GPU source's energy, as each result states them (the counters and readings are not in its records): " +
  'one value per level and run, so no difference or verdict is computed from them. Acceptance length is the headline; the rate falls as the draft budget rises even with the same drafter.';

const pct = `±${SPEC_DECODE_TOLERANCE.relative * 100} %`;

function specCells(l: LevelResult): string[] {
  const s = l.specDecode;
  if (s === undefined) return ['—', '—'];
  const rate = s.acceptanceRate === null ? '' : ` (rate ${num(s.acceptanceRate, 3)})`;
  const ours = s.client === null ? '—' : `${num(s.client.tokensPerChunk, 2)}${s.agrees === false ? ` disagrees (${pct})` : ' agrees'}`;
  return [`${num(s.acceptanceLength, 2)}${rate}`, ours];
}

function energyCell(l: LevelResult): string {
  const e = l.energy;
  if (e === undefined) return '—';
  return e.valid ? num(e.joulesPerOutputToken, METRICS.joulesPerOutputToken.digits) : 'not valid';
}

/** The notes of one run's level: a disagreement, a gauge that is not the level's window, an energy that is not valid. */
function levelNotes(where: string, l: LevelResult): string[] {
  const s = l.specDecode;
  const e = l.energy;
  const out: string[] = [];
  if (s !== undefined && s.agrees === false && s.client !== null)
    out.push(
      `${where}: the server's acceptance length ${num(s.acceptanceLength, 2)} and our ${num(s.client.tokensPerChunk, 2)} tokens per chunk disagree by more than ${pct}`,
    );
  if (s !== undefined && s.counters === null)
    out.push(
      `${where}: the acceptance length is the engine's gauge read after the level (${s.source === 'trtllm' ? 'its last iteration' : 'its last decode-log interval'}), not the level's window`,
    );
  if (e !== undefined && !e.valid) out.push(`${where}: energy not valid: ${e.reason ?? 'no reason stated'}`);
  return out;
}

/** Every level any run measured, in order. */
const levelKeys = (runs: readonly ServerSideRun[]): number[] => [...new Set(runs.flatMap((r) => r.levels.map(levelValue)))].sort((a, b) => a - b);

/**
 * Figures stated once per level and run, side by side: per level, each run's cells (null where the run did not
 * measure the level), then each run's notes on each of its levels, named by run and level.
 */
export function sideBySide(
  runs: readonly ServerSideRun[],
  axis: string,
  table: { basis: string; headers: string[]; cells: (l: LevelResult) => string[]; notes: (where: string, l: LevelResult) => string[] },
): ServerSideComparison {
  const keys = levelKeys(runs);
  const at = (r: ServerSideRun, level: number) => r.levels.find((x) => levelValue(x) === level);
  const rows = keys.map((level) => ({
    level,
    runs: runs.map((r) => {
      const l = at(r, level);
      return l === undefined ? null : table.cells(l);
    }),
  }));
  const notes = runs.flatMap((r) =>
    keys.flatMap((level) => {
      const l = at(r, level);
      return l === undefined ? [] : table.notes(`${r.label} at ${axis.toLowerCase()} ${level}`, l);
    }),
  );
  return { basis: table.basis, headers: table.headers, rows, notes };
}

/** The runs' speculative decoding and energy side by side; null when no run carries either. */
export function compareServerSide(runs: readonly ServerSideRun[], axis: string): ServerSideComparison | null {
  const levels = runs.flatMap((r) => r.levels);
  const spec = levels.some((l) => l.specDecode !== undefined);
  const energy = levels.some((l) => l.energy !== undefined);
  if (!spec && !energy) return null;
  const headers = [
    ...(spec ? ['Acceptance length (rate)', 'Ours: tokens per chunk'] : []),
    ...(energy ? [`${METRICS.joulesPerOutputToken.header} (measured window)`] : []),
  ];
  return sideBySide(runs, axis, {
    basis: SERVER_SIDE_BASIS,
    headers,
    cells: (l) => [...(spec ? specCells(l) : []), ...(energy ? [energyCell(l)] : [])],
    notes: levelNotes,
  });
}
