/**
 * The hash a result carries over its raw records: sha256 of their canonical
 * JSON, in the order they were recorded. `goodput run` writes it; a receipt
 * recomputes it before it believes a single level summary.
 */
import { type SweepResult, canonicalJson } from '../core/index.js';
import { sha256Hex } from '../workload/index.js';

/** sha256 (hex) of the canonical JSON of `records`. */
/** A record as a result stores it (its cell absent in files that had none). */
export type StoredRecord = NonNullable<SweepResult['records']>[number];

export function recordsSha256(records: readonly StoredRecord[]): string {
  return sha256Hex(canonicalJson(records));
}
