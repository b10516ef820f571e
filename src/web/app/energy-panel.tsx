/** Energy per token by level over the measured window, valid or not and why; nothing for a run without a GPU source. */
import type { LevelResult } from '../../core/index.js';
import { ENERGY_CAPTION, ENERGY_HEADERS, energyRows } from '../view/index.js';
import { LevelTable } from './level-table.js';

export function EnergyPanel({ levels }: { levels: readonly LevelResult[] }) {
  const rows = energyRows(levels);
  if (rows.length === 0) return null;
  return (
    <section aria-label="Energy">
      <LevelTable plain caption={ENERGY_CAPTION} headers={ENERGY_HEADERS} rows={rows} />
    </section>
  );
}
