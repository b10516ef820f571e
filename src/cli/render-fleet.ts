/**
 * A fleet run's levels per target as terminal lines under the results table:
 * the rows the page and the report show (web's fleet view), one line each,
 * and the routing policy. Target addresses are the user's, cleaned anyway.
 */
import { type SweepResult, sanitizeForTerminal as clean } from '../core/index.js';
import { FLEET_CAPTION, FLEET_HEADERS, fleetRows } from '../web/index.js';

/** Lines for a fleet run; empty for a run on one target. */
export function fleetLines(result: Pick<SweepResult, 'run' | 'levels'>): string[] {
  const rows = fleetRows(result.levels);
  if (rows.length === 0) return [];
  const route = result.run.fleet ? `, routed ${result.run.fleet.route}` : '';
  const [, ...heads] = FLEET_HEADERS;
  return [
    '',
    `${FLEET_CAPTION}${route}, by level:`,
    ...rows.map(([level, ...cells]) => `  ${level}: ${cells.map((c, i) => (i === 0 ? clean(c) : `${heads[i]} ${c}`)).join(' · ')}`),
  ];
}
