/**
 * A run's id as a quality score names it. Apart from the score's evidence
 * because it reads a whole result, whose schema holds the score: the schema
 * imports the score, and this reads the schema.
 */
import type { SweepResult } from './result-schema.js';

/**
 * The id a quality score names a run by: a repeat set's random id (every run of
 * it), else the sha256 of the run's records; null for a result without either.
 */
export function runIdOf(result: Pick<SweepResult, 'run' | 'recordsSha256'>): string | null {
  if (result.run.repeat !== undefined) return `set:${result.run.repeat.set}`;
  return result.recordsSha256 === undefined ? null : `records:${result.recordsSha256}`;
}
