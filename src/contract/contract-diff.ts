/**
 * Differences between two contracts, field by field, printed before any two
 * results are compared: numbers from different experiments are never set side
 * by side without saying how the experiments differ.
 */
import { leafDifferences } from '../core/index.js';

export interface ContractDifference {
  /** Dotted path, e.g. "workload.outputTokens[0]". */
  path: string;
  a: unknown;
  b: unknown;
}

/** Every leaf that differs, is only in `a`, or only in `b` (undefined on the missing side), in path order. */
export function diffContracts(a: unknown, b: unknown): ContractDifference[] {
  return leafDifferences([a, b]).map((d) => ({ path: d.path, a: d.values[0], b: d.values[1] }));
}

/** "  workload.outputTokens[0]: 128 → 256" lines; a missing side shows as "(absent)". */
export function describeDifferences(diffs: readonly ContractDifference[]): string[] {
  const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));
  return diffs.map((d) => `  ${d.path}: ${show(d.a)} → ${show(d.b)}`);
}
