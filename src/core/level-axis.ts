/**
 * The axis a run's levels lie on: streams for a closed loop, req/s for a rate,
 * burst size, a trace's speed, sessions per second. A level's place on it is
 * its own value (`load.level`), never the peak in flight an open loop reached:
 * two speeds that both peaked at 2 in flight are two levels.
 */
export interface AxisLevel {
  concurrency: number;
  load?: { kind: string; level: number } | undefined;
  sessions?: unknown;
}

export interface LevelAxis {
  /** Column header and chart x label: "Concurrency", "Speed", "Sessions/s", "Rate (req/s)", "Burst size". */
  name: string;
  /** "concurrency 4", "speed 2×": a level named in a sentence. */
  describe(value: number): string;
  /** The value in a cell: "4", "2×". */
  format(value: number): string;
  /** Open loops: the level's peak in flight is shown beside its value. */
  open: boolean;
}

/** The level's value on its axis (a closed loop's is its concurrency, the same number as its load's level). */
export const levelValue = (l: AxisLevel): number => (l.load !== undefined && l.load.kind !== 'concurrency' ? l.load.level : l.concurrency);

const plain = (v: number) => String(v);

/** The axis of a run from its levels (the first level's load decides; a run has one arrival kind). */
export function levelAxis(levels: readonly AxisLevel[]): LevelAxis {
  const first = levels[0];
  const kind = first?.load?.kind ?? 'concurrency';
  if (kind === 'trace') return { name: 'Speed', describe: (v) => `speed ${v}×`, format: (v) => `${v}×`, open: true };
  if (kind === 'rate' && first?.sessions !== undefined) return { name: 'Sessions/s', describe: (v) => `${v} sessions/s`, format: plain, open: true };
  if (kind === 'rate') return { name: 'Rate (req/s)', describe: (v) => `${v} req/s`, format: plain, open: true };
  if (kind === 'burst') return { name: 'Burst size', describe: (v) => `bursts of ${v}`, format: plain, open: true };
  if (first?.sessions !== undefined) return { name: 'Sessions at once', describe: (v) => `${v} sessions at once`, format: plain, open: false };
  return { name: 'Concurrency', describe: (v) => `concurrency ${v}`, format: plain, open: false };
}
