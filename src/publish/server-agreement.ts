/**
 * The server's own account, recomputed rather than carried: each level's
 * comparison of our figures with the server's /metrics deltas is computed
 * again from the records with the code `goodput run` used (core's
 * compareWithServer), so a compressed timeline or another run's server truth
 * shows up as a disagreement. The inputs that widen the allowance are bounded
 * by the records: no round trip is longer than the fastest response's
 * headers, no lateness longer than the level. A disagreement past the
 * documented allowance is refused unless the receipt allows it, and then it
 * is a limitation naming the metric and both numbers.
 */
import type { StoredRecord } from '../contract/index.js';
import { type ComparisonRow, type ServerFigures, type SweepResult, compareWithServer, fastestHeadersMs } from '../core/index.js';
import { type Refusal, refusal } from './refusal.js';
import { differenceText, differences } from './same-numbers.js';

const WHAT: Readonly<Record<ComparisonRow['metric'], string>> = {
  'ttft-mean-ms': 'TTFT mean',
  'itl-mean-ms': 'inter-token mean',
  'generated-tokens': 'generated tokens',
  requests: 'requests',
};
const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));

/** "TTFT mean: ours 80.2 ms, the server's 20.1 ms (allowed −1.0 to +1.3 ms)". */
export function disagreementText(r: ComparisonRow): string {
  const unit = r.metric.endsWith('-ms') ? ' ms' : '';
  return `${WHAT[r.metric]}: ours ${fmt(r.client)}${unit}, the server's ${fmt(r.server)}${unit} (allowed ${fmt(r.allowedMin)} to +${fmt(r.allowedMax)}${unit})`;
}

type Level = SweepResult['levels'][number];

function boundRefusals(field: string, level: Level, records: readonly StoredRecord[]): Refusal[] {
  const st = level.serverTruth;
  if (!st) return [];
  const out: Refusal[] = [];
  const fastest = fastestHeadersMs(records);
  if (st.rttMs !== null && fastest !== null && st.rttMs > fastest)
    out.push(
      refusal(
        'server-truth',
        `${field}.rttMs`,
        `states a ${st.rttMs} ms round trip, longer than the fastest response's headers (${fastest.toFixed(2)} ms after its send)`,
      ),
    );
  const span = records.length === 0 ? 0 : (Math.max(...records.map((r) => r.endNs ?? r.sendNs)) - Math.min(...records.map((r) => r.sendNs))) / 1e6;
  if (st.lateP99Ms !== undefined && st.lateP99Ms !== null && st.lateP99Ms > span)
    out.push(refusal('server-truth', `${field}.lateP99Ms`, `states ${st.lateP99Ms} ms of server lateness in a level whose records span ${span.toFixed(1)} ms`));
  return out;
}

/** Refusals for one run's server truth; `allow` is the receipt's allowance of disagreements past the tolerance. */
export function serverTruthRefusals(where: string, run: SweepResult, allow: boolean): Refusal[] {
  const out: Refusal[] = [];
  for (const level of run.levels) {
    const st = level.serverTruth;
    if (!st) continue;
    const field = `${where} levels[c=${level.concurrency}].serverTruth`;
    const records = (run.records ?? []).filter((r) => r.concurrency === level.concurrency);
    const bounds = boundRefusals(field, level, records);
    out.push(...bounds);
    if (bounds.length > 0) continue;
    const { metricsUrl: _u, rttMs, comparison: _c, queued: _q, ...figures } = st;
    const again = compareWithServer(
      records,
      { ...figures, missing: figures.missing as ServerFigures['missing'], lateP99Ms: figures.lateP99Ms ?? null },
      rttMs,
      level.clientBound.loopDelayMs?.p99 ?? null,
    );
    const diffs = differences({ comparison: st.comparison, queued: st.queued }, again, field, false);
    for (const d of diffs.slice(0, 6)) out.push(refusal('server-truth', d.path, differenceText(d, "its records and the server's deltas give")));
    if (diffs.length > 0 || allow) continue;
    for (const row of again.comparison.filter((r) => !r.agrees)) {
      out.push(
        refusal(
          'server-agreement',
          `${field} ${row.metric}`,
          `${disagreementText(row)}: the server's own account disagrees past the allowance; publish it only with goodput receipt create --allow-server-disagreement, which states it as a limitation`,
        ),
      );
    }
  }
  return out;
}

/** Limitation sentences of one configuration's runs: no server account at all, or each disagreement allowed. */
export function serverTruthLimitations(cfg: string, runs: readonly SweepResult[]): string[] {
  const levels = runs.flatMap((r, k) => r.levels.map((l) => ({ k, l })));
  if (levels.every(({ l }) => !l.serverTruth))
    return [`${cfg}: the server reported no figures of its own (no /metrics), so no number here is checked against the server's account.`];
  return levels.flatMap(({ k, l }) =>
    (l.serverTruth?.comparison ?? [])
      .filter((r) => !r.agrees)
      .map(
        (r) =>
          `${cfg}: ${runs.length > 1 ? `repeat ${k + 1} of ${runs.length}, ` : ''}concurrency ${l.concurrency}: the server's account disagrees: ${disagreementText(r)}.`,
      ),
  );
}
