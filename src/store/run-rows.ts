/** Run rows as selected, and their conversion to summaries and details. */
import {
  LIMITS,
  type LevelResult,
  SCHEMA_VERSION,
  limitMessage,
  cardsSchema,
  qualityScoreSchema,
  levelResultSchema,
  poolingCapacity,
  poolingLevelSchema,
  poolingPeak,
  poolingResultSchema,
  runSchema,
} from '../core/index.js';
import type { z } from 'zod';
import { isoTime } from './sql-driver.js';
import { StoreError } from './store-error.js';
import { storedLevelsBounds, storedQualityBounds, storedSpecBounds } from './stored-bounds.js';
import { type PoolingRunSpec, type RunDetail, type RunSpec, type RunSummary, type StoredPooling, isPoolingSpec } from './types.js';

export interface RunRow {
  id: number;
  server_id: number | null;
  server_name: string | null;
  target_url: string;
  model: string | null;
  status: RunSummary['status'];
  stop_reason: string | null;
  started_at: unknown;
  ended_at: unknown;
  spec: RunSpec | PoolingRunSpec;
  run_info: unknown;
  extras: RunDetail['extras'];
  warnings: RunDetail['warnings'];
  cards: RunDetail['cards'];
  owner_pid: number;
  owner_host: string;
  levels_done: number;
  peak_tok_s: number | null;
  peak_items_s: number | null;
  peak_c: number | null;
}

/**
 * The peak follows the Engine card's rule: valid, not client-bound levels; ties go to the lower concurrency.
 * An embeddings or rerank level stores 0 tok/s and its items/s, so the same order finds its peak.
 */
export const RUN_SUMMARY_SELECT = `SELECT r.id, r.server_id, r.server_name, r.target_url, r.model, r.status, r.stop_reason,
  r.started_at, r.ended_at, r.spec, r.run_info, r.extras, r.warnings, r.cards, r.owner_pid, r.owner_host,
  (SELECT count(*)::int FROM levels l WHERE l.run_id = r.id) AS levels_done,
  peak.throughput_tok_s AS peak_tok_s, peak.items_per_s AS peak_items_s, peak.concurrency AS peak_c
  FROM runs r LEFT JOIN LATERAL (
    SELECT throughput_tok_s, items_per_s, concurrency FROM levels l
    WHERE l.run_id = r.id AND NOT l.invalid AND NOT l.client_bound
    ORDER BY throughput_tok_s DESC, items_per_s DESC NULLS LAST, concurrency ASC LIMIT 1) peak ON true`;

export function summaryOf(r: RunRow): RunSummary {
  checked(storedSpecBounds, r.spec, r.id, 'spec');
  if (r.levels_done > LIMITS.levels.max) refuse(r.id, 'levels', limitMessage('levels', r.levels_done, 'stored levels'));
  const base = {
    id: r.id,
    serverId: r.server_id,
    serverName: r.server_name,
    targetUrl: r.target_url,
    model: r.model,
    status: r.status,
    stopReason: r.stop_reason,
    startedAt: isoTime(r.started_at),
    endedAt: r.ended_at === null ? null : isoTime(r.ended_at),
    peakConcurrency: r.peak_c,
    levelsDone: r.levels_done,
    levelsPlanned: new Set(r.spec.levels).size,
    endpoint: r.spec.endpoint,
  };
  // An embeddings or rerank run makes no output tokens and has no thinking; its peak is in items/s.
  if (isPoolingSpec(r.spec)) return { ...base, peakThroughputTokS: null, peakItemsPerS: r.peak_items_s, outputTokens: 0, thinking: false };
  return {
    ...base,
    peakThroughputTokS: r.peak_tok_s,
    outputTokens: r.spec.outputTokens,
    thinking: r.spec.thinking,
    ...(r.spec.arrivalKind === undefined ? {} : { arrivalKind: r.spec.arrivalKind }),
    ...(r.spec.promptsKind === undefined ? {} : { promptsKind: r.spec.promptsKind }),
  };
}

/** JSONB keeps keys in its own order; the schema restores the order the sweep wrote (a value it cannot read stays as stored). */
function canonical<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : (value as T);
}

/** A stored value through its schema, or a StoreError naming the run and the field that breaks it. */
function checked<T>(schema: z.ZodType<T>, value: unknown, runId: number, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return refuse(runId, [what, ...(issue?.path ?? [])].join('.'), issue?.message ?? 'not readable');
}

function refuse(runId: number, field: string, problem: string): never {
  throw new StoreError('corrupt', `run ${runId} is stored broken, so it is not shown: ${field}: ${problem} (the row was edited outside goodput)`, field);
}

/**
 * An embeddings or rerank run as stored, checked whole against the core schemas: each level, and once
 * it ended the result. Its peak and capacity are not stored but derived again from its levels, as the sweep did.
 */
function poolingOf(r: RunRow, levels: readonly unknown[], ended: boolean, endpoint: StoredPooling['endpoint']): StoredPooling {
  const parsed = levels.map((l, i) => checked(poolingLevelSchema, l, r.id, `levels.${i}`));
  if (!ended || r.run_info === null) return { endpoint, levels: parsed, result: null };
  const run = checked(poolingResultSchema.shape.run, r.run_info, r.id, 'run');
  if (run.endpoint !== endpoint)
    throw new StoreError(
      'corrupt',
      `run ${r.id} is stored broken, so it is not shown: run.endpoint: ${run.endpoint} where the run was begun as ${endpoint}`,
      'run.endpoint',
    );
  const result = checked(
    poolingResultSchema,
    {
      schemaVersion: SCHEMA_VERSION,
      run,
      warnings: r.warnings,
      levels: parsed,
      peak: poolingPeak(parsed),
      capacity: run.latencySlo === null ? null : poolingCapacity(parsed, run.latencySlo),
    },
    r.id,
    'result',
  );
  return { endpoint, levels: parsed, result };
}

/**
 * A quality score measured in the run is kept with the result's other fields (extras); read back, it is checked
 * against the limits table and whole, as a receipt would read it, so every reader (runs show, the API, the page's
 * comparison) gets a score or a refusal naming its field. A run without one reads back none.
 */
function checkQuality(r: RunRow): void {
  const quality = r.extras?.['quality'];
  if (quality === undefined) return;
  checked(storedQualityBounds, quality, r.id, 'quality');
  checked(qualityScoreSchema, quality, r.id, 'quality');
}

export function detailOf(r: RunRow, levels: readonly unknown[]): RunDetail {
  checked(storedLevelsBounds, levels, r.id, 'levels');
  checkQuality(r);
  const ended = r.status !== 'interrupted' && r.status !== 'running';
  const common = { ...summaryOf(r), spec: r.spec, extras: r.extras ?? {}, warnings: r.warnings, owner: { pid: r.owner_pid, host: r.owner_host } };
  if (isPoolingSpec(r.spec)) return { ...common, runInfo: null, levels: [], cards: null, pooling: poolingOf(r, levels, ended, r.spec.endpoint) };
  return {
    ...common,
    runInfo: r.run_info === null ? null : canonical(runSchema, r.run_info),
    levels: levels.map((l) => canonical<LevelResult>(levelResultSchema, l)),
    cards: ended && r.cards !== null ? canonical(cardsSchema, r.cards) : null,
  };
}
