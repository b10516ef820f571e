/**
 * A stored run back as the result JSON (`sweepResultSchema`, the same as
 * `goodput sweep --json`), so `goodput cards` and every other reader work on
 * it; an embeddings or rerank run's is its own result (`poolingResultSchema`). Only a run that ended has a result: a running or interrupted run's
 * finished levels are readable, but they are not a result.
 */
import { type PoolingResult, SCHEMA_VERSION, type SweepResult, sweepResultSchema } from '../core/index.js';
import { StoreError } from './store-error.js';
import type { RunDetail } from './types.js';

/**
 * @throws StoreError 'not-exportable' for a running or interrupted run.
 * Parsing through the schema also restores its key order (JSONB keeps its own).
 */
export function exportResult(run: RunDetail): SweepResult | PoolingResult {
  // An embeddings or rerank run's result was checked whole when read (run-rows.ts).
  if (run.pooling?.result) return run.pooling.result;
  if (run.status === 'running' || run.status === 'interrupted' || run.pooling || run.runInfo === null || run.cards === null) {
    const why = run.status === 'running' ? 'is still running' : `was interrupted (${run.stopReason ?? 'its process ended'})`;
    throw new StoreError(
      'not-exportable',
      `run ${run.id} ${why}, so it has no result to export; its ${run.levelsDone} finished level(s) can be read with: goodput runs show ${run.id}`,
    );
  }
  return sweepResultSchema.parse({
    ...run.extras,
    schemaVersion: SCHEMA_VERSION,
    run: run.runInfo,
    warnings: run.warnings,
    levels: run.levels,
    cards: run.cards,
  });
}
