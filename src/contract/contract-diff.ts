/**
 * Differences between two contracts, field by field, printed before any two
 * results are compared: numbers from different experiments are never set side
 * by side without saying how the experiments differ.
 */

export interface ContractDifference {
  /** Dotted path, e.g. "workload.outputTokens[0]". */
  path: string;
  a: unknown;
  b: unknown;
}

function leaves(value: unknown, path: string, out: Map<string, unknown>): Map<string, unknown> {
  if (Array.isArray(value)) value.forEach((v, i) => leaves(v, `${path}[${i}]`, out));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) leaves(v, path === '' ? k : `${path}.${k}`, out);
  } else out.set(path, value);
  return out;
}

/** Every leaf that differs, is only in `a`, or only in `b` (undefined on the missing side), in path order. */
export function diffContracts(a: unknown, b: unknown): ContractDifference[] {
  const la = leaves(a, '', new Map());
  const lb = leaves(b, '', new Map());
  const paths = [...new Set([...la.keys(), ...lb.keys()])].sort();
  return paths.filter((p) => la.get(p) !== lb.get(p)).map((path) => ({ path, a: la.get(path), b: lb.get(path) }));
}

/** "  workload.outputTokens[0]: 128 → 256" lines; a missing side shows as "(absent)". */
export function describeDifferences(diffs: readonly ContractDifference[]): string[] {
  const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));
  return diffs.map((d) => `  ${d.path}: ${show(d.a)} → ${show(d.b)}`);
}
