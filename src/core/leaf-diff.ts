/**
 * Differences between nested values (contracts), leaf by leaf, across any
 * number of sides: the one rule both `goodput compare`'s contract header and
 * every view's "What differs" read, so they cannot list different fields.
 */

/** Every leaf of a value by its dotted path ("workload.outputTokens[0]"). */
export function leafValues(value: unknown, path = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (Array.isArray(value)) value.forEach((v, i) => leafValues(v, `${path}[${i}]`, out));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) leafValues(v, path === '' ? k : `${path}.${k}`, out);
  } else out.set(path, value);
  return out;
}

export interface LeafDifference {
  path: string;
  /** Each side's value at the path, in the sides' order; undefined where a side lacks it. */
  values: unknown[];
}

/** Every path whose leaf is not the same on every side (or is missing on some), in path order. */
export function leafDifferences(sides: readonly unknown[]): LeafDifference[] {
  const maps = sides.map((s) => leafValues(s));
  const paths = [...new Set(maps.flatMap((m) => [...m.keys()]))].sort();
  return paths.flatMap((path) => {
    const values = maps.map((m) => m.get(path));
    return values.every((v) => v === values[0]) ? [] : [{ path, values }];
  });
}
