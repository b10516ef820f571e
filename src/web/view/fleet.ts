/**
 * A fleet run's levels per target, as one table for the terminal, the page's
 * run view and the report: each target's requests, failures, share of the
 * level's throughput and its latency. The targets' throughputs add up to the
 * level's; a slow replica stands out by its TTFT beside the others'.
 */
import type { LevelResult } from '../../core/index.js';
import { num } from './format.js';

export const FLEET_HEADERS = ['Level', 'Target', 'Requests', 'Failed', 'Throughput tok/s', 'Share', 'TTFT p50 ms', 'TTFT p99 ms', 'E2E p50 ms'] as const;

export const FLEET_CAPTION =
  "By target: each target's output tokens over the level's own measured window (so the targets' throughputs add up to the level's), and its latency";

/** One row per level and target, in level order, then the fleet's order; none for a run on one target. */
export function fleetRows(levels: readonly LevelResult[]): string[][] {
  return levels.flatMap((l) => {
    const targets = l.targets;
    if (targets === undefined) return [];
    const level = l.load?.label ?? `${l.concurrency} streams`;
    return targets.map((t) => [
      level,
      t.url,
      String(t.requests),
      String(t.failed),
      num(t.throughputTokS, 1),
      l.throughputTokS > 0 ? `${num((100 * t.throughputTokS) / l.throughputTokS, 1)} %` : '—',
      t.ttftMs === null ? '—' : num(t.ttftMs.p50, 1),
      t.ttftMs === null ? '—' : num(t.ttftMs.p99, 1),
      t.e2eMs === null ? '—' : num(t.e2eMs.p50, 1),
    ]);
  });
}
