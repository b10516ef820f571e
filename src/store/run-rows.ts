/** Run rows as selected, and their conversion to summaries and details. */
import { type LevelResult, cardsSchema, levelResultSchema, runSchema } from '../core/index.js';
import type { z } from 'zod';
import { isoTime } from './sql-driver.js';
import type { RunDetail, RunSpec, RunSummary } from './types.js';

export interface RunRow {
  id: number; server_id: number | null; server_name: string | null; target_url: string; model: string | null;
  status: RunSummary['status']; stop_reason: string | null; started_at: unknown; ended_at: unknown;
  spec: RunSpec; run_info: RunDetail['runInfo']; extras: RunDetail['extras']; warnings: RunDetail['warnings']; cards: RunDetail['cards'];
  owner_pid: number; owner_host: string; levels_done: number; peak_tok_s: number | null; peak_c: number | null;
}

/** The peak follows the Engine card's rule: valid, not client-bound levels; ties go to the lower concurrency. */
export const RUN_SUMMARY_SELECT = `SELECT r.id, r.server_id, r.server_name, r.target_url, r.model, r.status, r.stop_reason,
  r.started_at, r.ended_at, r.spec, r.run_info, r.extras, r.warnings, r.cards, r.owner_pid, r.owner_host,
  (SELECT count(*)::int FROM levels l WHERE l.run_id = r.id) AS levels_done,
  peak.throughput_tok_s AS peak_tok_s, peak.concurrency AS peak_c
  FROM runs r LEFT JOIN LATERAL (
    SELECT throughput_tok_s, concurrency FROM levels l
    WHERE l.run_id = r.id AND NOT l.invalid AND NOT l.client_bound
    ORDER BY throughput_tok_s DESC, concurrency ASC LIMIT 1) peak ON true`;

export function summaryOf(r: RunRow): RunSummary {
  return {
    id: r.id, serverId: r.server_id, serverName: r.server_name, targetUrl: r.target_url, model: r.model,
    status: r.status, stopReason: r.stop_reason, startedAt: isoTime(r.started_at),
    endedAt: r.ended_at === null ? null : isoTime(r.ended_at),
    peakThroughputTokS: r.peak_tok_s, peakConcurrency: r.peak_c, levelsDone: r.levels_done,
    levelsPlanned: new Set(r.spec.levels).size, outputTokens: r.spec.outputTokens, thinking: r.spec.thinking,
    ...(r.spec.arrivalKind === undefined ? {} : { arrivalKind: r.spec.arrivalKind }), ...(r.spec.promptsKind === undefined ? {} : { promptsKind: r.spec.promptsKind }),
  };
}

/** JSONB keeps keys in its own order; the schema restores the order the sweep wrote (a value it cannot read stays as stored). */
function canonical<T>(schema: z.ZodType<T>, value: T): T {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : value;
}

export function detailOf(r: RunRow, levels: LevelResult[]): RunDetail {
  const ended = r.status !== 'interrupted' && r.status !== 'running';
  return {
    ...summaryOf(r), spec: r.spec, extras: r.extras ?? {}, warnings: r.warnings,
    runInfo: r.run_info === null ? null : canonical(runSchema, r.run_info),
    levels: levels.map((l) => canonical(levelResultSchema, l)),
    cards: ended && r.cards !== null ? canonical(cardsSchema, r.cards) : null,
    owner: { pid: r.owner_pid, host: r.owner_host },
  };
}
