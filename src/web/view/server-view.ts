/**
 * The server's own account of each level beside ours, as one table for the
 * page's run view and the report: the figures the terminal prints under
 * "Server view" (TTFT and inter-token means, tokens, requests), each with our
 * figure, the server's, the difference and whether it is within its allowance.
 * Only levels whose server was scraped have rows.
 */
import type { ComparisonRow, LevelResult } from '../../core/index.js';
import { num } from './format.js';

export const SERVER_VIEW_HEADERS = ['Level', 'Figure', 'Ours', "The server's", 'Difference', 'Agrees'] as const;

export const SERVER_VIEW_CAPTION =
  "The server's own account: its Prometheus metrics over each level's measured requests beside what our records give; a difference outside the allowance disagrees";

/** The figure's name and the digits the terminal prints it with. */
const FIGURES: Record<ComparisonRow['metric'], { label: (per: string) => string; digits: number; unit: string }> = {
  'ttft-mean-ms': { label: () => 'TTFT mean', digits: 1, unit: ' ms' },
  'itl-mean-ms': { label: (per) => `inter-token mean (per ${per})`, digits: 2, unit: ' ms' },
  'e2e-mean-ms': { label: () => 'latency mean', digits: 1, unit: ' ms' },
  'generated-tokens': { label: () => 'generated tokens', digits: 0, unit: '' },
  requests: { label: () => 'requests', digits: 0, unit: '' },
};

const signed = (x: number, digits: number): string => `${x >= 0 ? '+' : '−'}${num(Math.abs(x), digits)}`;

/** One row per compared figure, levels in order. */
export function serverViewRows(levels: readonly LevelResult[]): string[][] {
  return levels.flatMap((l) => {
    const t = l.serverTruth;
    if (!t) return [];
    return t.comparison.map((r) => {
      const f = FIGURES[r.metric];
      return [
        l.load?.label ?? `${l.concurrency} stream${l.concurrency === 1 ? '' : 's'}`,
        f.label(t.itlPer ?? 'chunk'),
        `${num(r.client, f.digits)}${f.unit}`,
        `${num(r.server, f.digits)}${f.unit}`,
        `${signed(r.diff, f.digits)}${f.unit}`,
        r.agrees ? 'yes' : 'disagrees',
      ];
    });
  });
}
