/**
 * The server's own account, recomputed rather than carried: each level's
 * comparison of our figures with the server's /metrics deltas is computed
 * again from the records with the code `goodput run` used (core's
 * compareWithServer, and compareWholeWithServer for embeddings and rerank
 * levels), so a compressed timeline or another run's server truth shows up as
 * a disagreement. The inputs that widen the allowance are bounded by the
 * records: no round trip is longer than the fastest response's headers (the
 * fastest whole answer, for pooling), no lateness longer than the level (as
 * the lateness histogram's buckets can state it). A disagreement past the
 * documented allowance is refused unless the receipt allows it, and then it
 * is a limitation naming the metric and both numbers.
 */
import {
  type ComparisonRow,
  type PoolingResult,
  type ServerFigures,
  type ServerTruth,
  type SweepResult,
  compareWholeWithServer,
  compareWithServer,
  fastestAnswerMs,
  fastestHeadersMs,
  latenessCeilingMs,
} from '../core/index.js';
import { type Refusal, refusal } from './refusal.js';
import { differenceText, differences } from './same-numbers.js';

const WHAT: Readonly<Record<ComparisonRow['metric'], string>> = {
  'ttft-mean-ms': 'TTFT mean',
  'itl-mean-ms': 'inter-token mean',
  'generated-tokens': 'generated tokens',
  requests: 'requests',
  'e2e-mean-ms': 'latency mean',
};
const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));

/** "TTFT mean: ours 80.2 ms, the server's 20.1 ms (allowed −1.0 to +1.3 ms)". */
export function disagreementText(r: ComparisonRow): string {
  const unit = r.metric.endsWith('-ms') ? ' ms' : '';
  return `${WHAT[r.metric]}: ours ${fmt(r.client)}${unit}, the server's ${fmt(r.server)}${unit} (allowed ${fmt(r.allowedMin)} to +${fmt(r.allowedMax)}${unit})`;
}

/** What one level's server truth is checked against, whatever the kind of its records. */
interface TruthBasis {
  /** The fastest answer's figure that bounds any round trip, ms, and what it is, in words. */
  fastestMs: number | null;
  fastest: (ms: string) => string;
  /** From the level's first send to its last end, ms. */
  spanMs: number;
  /** The comparison recomputed from the records and the server's stated figures. */
  again: (figures: ServerFigures, rttMs: number | null) => Pick<ServerTruth, 'comparison' | 'queued'>;
}

const spanOf = (times: ReadonlyArray<{ sendNs: number; endNs: number | null }>): number =>
  times.length === 0 ? 0 : (Math.max(...times.map((r) => r.endNs ?? r.sendNs)) - Math.min(...times.map((r) => r.sendNs))) / 1e6;

function boundRefusals(field: string, st: ServerTruth, basis: TruthBasis): Refusal[] {
  const out: Refusal[] = [];
  const fastest = basis.fastestMs;
  if (st.rttMs !== null && fastest !== null && st.rttMs > fastest)
    out.push(refusal('server-truth', `${field}.rttMs`, `states a ${st.rttMs} ms round trip, longer than ${basis.fastest(fastest.toFixed(2))}`));
  const span = basis.spanMs;
  // The p99 is a histogram bucket's upper bound: a lateness inside the span may read as the next bound above it.
  const ceiling = latenessCeilingMs(span);
  if (st.lateP99Ms !== undefined && st.lateP99Ms !== null && st.lateP99Ms > ceiling)
    out.push(
      refusal(
        'server-truth',
        `${field}.lateP99Ms`,
        `states ${st.lateP99Ms} ms of server lateness in a level whose records span ${span.toFixed(1)} ms (read off the histogram's buckets, at most ${fmt(ceiling)} ms)`,
      ),
    );
  return out;
}

/** One level's refusals: its bounds, its comparison recomputed, and each disagreement past the allowance unless `allow`. */
function levelRefusals(field: string, st: ServerTruth, basis: TruthBasis, allow: boolean): Refusal[] {
  const bounds = boundRefusals(field, st, basis);
  if (bounds.length > 0) return bounds;
  const out: Refusal[] = [];
  const { metricsUrl: _u, rttMs, comparison: _c, queued: _q, ...figures } = st;
  const again = basis.again({ ...figures, missing: figures.missing as ServerFigures['missing'], lateP99Ms: figures.lateP99Ms ?? null }, rttMs);
  const diffs = differences({ comparison: st.comparison, queued: st.queued }, again, field, false);
  for (const d of diffs.slice(0, 6)) out.push(refusal('server-truth', d.path, differenceText(d, "its records and the server's deltas give")));
  if (diffs.length > 0 || allow) return out;
  for (const row of again.comparison.filter((r) => !r.agrees)) {
    out.push(
      refusal(
        'server-agreement',
        `${field} ${row.metric}`,
        `${disagreementText(row)}: the server's own account disagrees past the allowance; publish it only with goodput receipt create --allow-server-disagreement, which states it as a limitation`,
      ),
    );
  }
  return out;
}

/** Refusals for one run's server truth; `allow` is the receipt's allowance of disagreements past the tolerance. */
export function serverTruthRefusals(where: string, run: SweepResult, allow: boolean): Refusal[] {
  return run.levels.flatMap((level) => {
    const st = level.serverTruth;
    if (!st) return [];
    const records = (run.records ?? []).filter((r) => r.concurrency === level.concurrency);
    return levelRefusals(
      `${where} levels[c=${level.concurrency}].serverTruth`,
      st,
      {
        fastestMs: fastestHeadersMs(records),
        fastest: (ms) => `the fastest response's headers (${ms} ms after its send)`,
        spanMs: spanOf(records),
        again: (figures, rttMs) => compareWithServer(records, figures, rttMs, level.clientBound.loopDelayMs?.p99 ?? null),
      },
      allow,
    );
  });
}

/** The same for an embeddings or rerank run: each level's window holds all its records, warm-ups included (core's whole-compare.ts). */
export function poolingServerTruthRefusals(where: string, run: PoolingResult, allow: boolean): Refusal[] {
  return run.levels.flatMap((level) => {
    const st = level.serverTruth;
    if (!st) return [];
    const records = (run.records ?? []).filter((r) => r.concurrency === level.concurrency);
    return levelRefusals(
      `${where} levels[c=${level.concurrency}].serverTruth`,
      st,
      {
        fastestMs: fastestAnswerMs(records),
        fastest: (ms) => `the fastest answer (${ms} ms from its send to its last byte)`,
        spanMs: spanOf(records.map((r) => ({ sendNs: r.sentNs, endNs: r.endNs }))),
        again: (figures) => compareWholeWithServer(records, figures),
      },
      allow,
    );
  });
}

/** What the limitation sentences read of a run's levels, whatever its kind. */
type TruthLevels = { levels: ReadonlyArray<{ concurrency: number; serverTruth?: ServerTruth | null | undefined }> };

/**
 * Limitation sentences of one configuration's runs: no server account at all, or each disagreement allowed.
 * `sayUnchecked` false leaves out the sentence for runs with no server account (pooling runs recorded before they kept one).
 */
export function serverTruthLimitations(cfg: string, runs: readonly TruthLevels[], sayUnchecked = true): string[] {
  const levels = runs.flatMap((r, k) => r.levels.map((l) => ({ k, l })));
  if (levels.every(({ l }) => !l.serverTruth))
    return sayUnchecked ? [`${cfg}: the server reported no figures of its own (no /metrics), so no number here is checked against the server's account.`] : [];
  return levels.flatMap(({ k, l }) =>
    (l.serverTruth?.comparison ?? [])
      .filter((r) => !r.agrees)
      .map(
        (r) =>
          `${cfg}: ${runs.length > 1 ? `repeat ${k + 1} of ${runs.length}, ` : ''}concurrency ${l.concurrency}: the server's account disagrees: ${disagreementText(r)}.`,
      ),
  );
}
