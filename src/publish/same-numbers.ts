/**
 * Compares what a document states with what was recomputed, field by field:
 * every number, text and flag it states must be the recomputed one. The
 * first difference under each field is reported with its path, so a refusal
 * names the number ("levels[c=2].throughputTokS: states 900, the records give 321.5").
 */

/** Equal within binary noise: |a − b| ≤ 1e-9 × max(1, |b|). */
export function sameNumber(a: number, b: number): boolean {
  return a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
}

const show = (v: unknown): string => (v === undefined ? '(absent)' : JSON.stringify(v));

export interface Difference {
  path: string;
  stated: unknown;
  recomputed: unknown;
}

/**
 * Every place where `stated` differs from `recomputed`, walking `stated`'s keys
 * only when `onlyStated` (a document may leave out what it does not state),
 * else both sides' keys. Arrays are compared position by position.
 */
export function differences(stated: unknown, recomputed: unknown, path: string, onlyStated: boolean, out: Difference[] = []): Difference[] {
  if (typeof stated === 'number' && typeof recomputed === 'number') {
    if (!sameNumber(stated, recomputed)) out.push({ path, stated, recomputed });
    return out;
  }
  if (Array.isArray(stated) && Array.isArray(recomputed)) {
    if (stated.length !== recomputed.length) out.push({ path: `${path}.length`, stated: stated.length, recomputed: recomputed.length });
    const n = Math.min(stated.length, recomputed.length);
    // An element with an id is named by it ("facts[optimized.ttftSingle]"), so a refusal names the number, not a position.
    const idOf = (v: unknown) => (typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string' ? (v as { id: string }).id : null);
    for (let i = 0; i < n; i++) {
      const id = idOf(recomputed[i]);
      differences(stated[i], recomputed[i], `${path}[${id !== null && idOf(stated[i]) === id ? id : i}]`, onlyStated, out);
    }
    return out;
  }
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObj(stated) && isObj(recomputed)) {
    const keys = new Set([...Object.keys(stated), ...(onlyStated ? [] : Object.keys(recomputed))]);
    for (const k of keys) differences(stated[k], recomputed[k], path === '' ? k : `${path}.${k}`, onlyStated, out);
    return out;
  }
  if (stated !== recomputed) out.push({ path, stated, recomputed });
  return out;
}

/** "states 900, the evidence gives 321.5". */
export const differenceText = (d: Difference, source = 'the evidence gives'): string => `states ${show(d.stated)}, ${source} ${show(d.recomputed)}`;
