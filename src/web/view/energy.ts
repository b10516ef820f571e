/**
 * Energy per token by level, for the page and the report: the measured window,
 * how it was sampled (interval, readings used and left out, coverage) and the
 * joules per output, input and total token; a level whose energy is not valid
 * shows no per-token figure, only why.
 */
import type { EnergyLevel, LevelResult } from '../../core/index.js';
import { num } from './format.js';

export const ENERGY_HEADERS = [
  'Level',
  'Source',
  'Window s',
  'Readings (left out)',
  'Interval s',
  'Coverage %',
  'J/output token',
  'J/input token',
  'J/token',
  'Verdict',
] as const;

const verdict = (e: EnergyLevel): string =>
  e.valid ? `valid (${e.method === 'counter' ? 'energy counter difference' : 'trapezoids over power readings'})` : `energy not valid: ${e.reason ?? ''}`;

/** One row per level that carries its energy, in level order; none for a result without. */
export function energyRows(levels: readonly LevelResult[]): string[][] {
  return levels.flatMap((l) => {
    const e = l.energy;
    if (e === undefined) return [];
    return [
      [
        l.load?.label ?? `${l.concurrency} streams`,
        e.source,
        num(e.windowMs / 1000, 2),
        `${e.samples} (${e.outside})`,
        num(e.intervalMs === null ? null : e.intervalMs / 1000, 2),
        num(e.coverage === null ? null : e.coverage * 100, 0),
        num(e.joulesPerOutputToken, 3),
        num(e.joulesPerInputToken, 4),
        num(e.joulesPerTotalToken, 4),
        verdict(e),
      ],
    ];
  });
}

/** The caption both views give the table. */
export const ENERGY_CAPTION =
  "Energy per token over each level's measured window only (first measured send to last measured end; warm-up readings left out): a level with a gap in its readings or too few of them is not valid and shows no per-token figure.";
