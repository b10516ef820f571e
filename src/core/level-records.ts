/**
 * A level's counts must be its records': as many measured (not warm-up) records as
 * it counts requests, as many of them successful as it counts succeeded. One check
 * for every way a level is stored with its records (an import, a serve's ingest),
 * so no stored level claims figures no record stands behind.
 */

/** Why `records` do not reproduce `level`'s counts ("holds 0 measured requests; the level's requests says 8"), or null. */
export function levelRecordsProblem(
  level: { requests: number; succeeded?: number },
  records: ReadonlyArray<{ warmup: boolean; outcome?: { kind: string } }>,
  whose = "the level's",
): string | null {
  const measured = records.filter((r) => !r.warmup);
  if (measured.length !== level.requests) return `holds ${measured.length} measured requests; ${whose} requests says ${level.requests}`;
  if (level.succeeded === undefined) return null;
  const ok = measured.filter((r) => r.outcome?.kind === 'ok').length;
  if (ok !== level.succeeded) return `holds ${ok} successful requests; ${whose} succeeded says ${level.succeeded}`;
  return null;
}
