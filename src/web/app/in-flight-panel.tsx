/** What each level held: the requests our client kept open beside the concurrency asked. */
import type { LevelResult } from '../../core/index.js';
import { IN_FLIGHT_CAPTION, IN_FLIGHT_HEADERS, inFlightRows } from '../view/index.js';
import { LevelTable } from './level-table.js';

export function InFlightPanel({ levels }: { levels: readonly LevelResult[] }) {
  const rows = inFlightRows(levels);
  if (rows.length === 0) return null;
  return (
    <section aria-label="Load held">
      <LevelTable plain caption={IN_FLIGHT_CAPTION} headers={IN_FLIGHT_HEADERS} rows={rows} />
    </section>
  );
}
