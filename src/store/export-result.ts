/**
 * A stored run back as the result JSON (`sweepResultSchema`, the same as
 * `goodput sweep --json`), so `goodput cards` and every other reader work on
 * it; an embeddings or rerank run's is its own result (`poolingResultSchema`). Only a run that ended has a result: a running or interrupted run's
 * finished levels are readable, but they are not a result.
 */
import { RUN_KINDS, type ResultOf, SCHEMA_VERSION, kindOfEndpoint, sweepResultSchema } from '../core/index.js';
import { StoreError } from './store-error.js';
import type { RunDetail } from './types.js';

/**
 * @throws StoreError 'not-exportable' for a running or interrupted run.
 * Parsing through the schema also restores its key order (JSONB keeps its own).
 */
export function exportResult(run: RunDetail): ResultOf {
  // An embeddings or rerank run's result was checked whole when read (run-rows.ts).
  if (run.pooling?.result) return run.pooling.result;
  // A run of a later kind keeps no cards: its result is its run and levels, as stored, read through its kind's schema (run-rows.ts keeps a value the text schema cannot read).
  const kind = kindOfEndpoint(run.spec.endpoint);
  const later = kind !== 'text' && kind !== 'pooling';
  if (later && run.status !== 'running' && run.status !== 'interrupted' && run.runInfo !== null)
    return RUN_KINDS[kind].resultSchema.parse({ schemaVersion: SCHEMA_VERSION, run: run.runInfo, warnings: run.warnings, levels: run.levels }) as ResultOf;
  if (run.status === 'running' || run.status === 'interrupted' || run.pooling || later || run.runInfo === null || run.cards === null) {
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
