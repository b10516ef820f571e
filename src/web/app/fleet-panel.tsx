/** A fleet run's levels per target: requests, failures, throughput share and latency of each. */
import type { LevelResult } from '../../core/index.js';
import { FLEET_CAPTION, FLEET_HEADERS, fleetRows } from '../view/index.js';
import { LevelTable } from './level-table.js';

export function FleetPanel({ levels }: { levels: readonly LevelResult[] }) {
  const rows = fleetRows(levels);
  if (rows.length === 0) return null;
  return (
    <section aria-label="By target">
      <LevelTable plain caption={FLEET_CAPTION} headers={FLEET_HEADERS} rows={rows} />
    </section>
  );
}
