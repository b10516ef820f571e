/**
 * The server's own account of a level of a kind whose answer comes whole
 * (embeddings, rerank), beside ours: the window is the whole level, warm-ups
 * included (its requests are sent without a pause between them), so every
 * record of the level counts. The server's mean latency lies inside ours (its
 * clock starts after our send and stops before the answer is read), so ours
 * may exceed it by any amount, the body's upload and the answer's download
 * and parse being ours alone, but never fall below it by more than the
 * tolerance: a timeline compressed after the run shows up here. The server
 * counts no more successful requests than we got.
 */
import { type ComparisonRow, type ServerTruth } from './telemetry-schema.js';
import type { WholeRecord } from './pooling-record.js';
import { SERVER_TOLERANCE, comparisonRow } from './server-compare.js';
import type { ServerFigures } from './server-truth.js';

const okOf = (records: readonly WholeRecord[]) => records.filter((r) => r.outcome.kind === 'ok');

/** The fastest successful answer of a level, from its send to its last byte, ms: no round trip to that server was longer. */
export function fastestAnswerMs(records: readonly WholeRecord[]): number | null {
  let best: number | null = null;
  for (const r of okOf(records)) {
    const ms = (r.endNs - r.sentNs) / 1e6;
    if (best === null || ms < best) best = ms;
  }
  return best;
}

/** The connect probe's round trip, bounded by the level's fastest answer (as boundedRttMs bounds it by the fastest headers). */
export function boundedWholeRttMs(probeMs: number | null, records: readonly WholeRecord[]): number | null {
  const fastest = fastestAnswerMs(records);
  return probeMs === null || fastest === null ? probeMs : Math.min(probeMs, fastest);
}

/** The rows and the queue verdict for one whole-answer level; `records` are all the level's, warm-ups included. */
export function compareWholeWithServer(records: readonly WholeRecord[], s: ServerFigures): Pick<ServerTruth, 'comparison' | 'queued'> {
  const T = SERVER_TOLERANCE;
  const ok = okOf(records);
  const rows: ComparisonRow[] = [];
  if (ok.length > 0 && s.e2eMeanMs !== null) {
    const ours = ok.reduce((a, r) => a + (r.endNs - r.sentNs) / 1e6, 0) / ok.length;
    const slack = Math.max(T.relative * s.e2eMeanMs, T.ttftFloorMs);
    rows.push(
      comparisonRow(
        'e2e-mean-ms',
        ours,
        s.e2eMeanMs,
        -slack,
        Math.max(ours, slack),
        `never below the server's by more than max(${T.relative * 100}%, ${T.ttftFloorMs} ms); above it by any amount (the upload, download and parse are ours)`,
      ),
    );
  }
  if (s.requests !== null && ok.length > 0)
    rows.push(comparisonRow('requests', ok.length, s.requests, 0, ok.length, 'the server may count fewer (rejected before it started them), never more'));
  const queued = s.queueMeanMs !== null ? s.queueMeanMs > T.queueFloorMs : (s.waiting?.mean ?? 0) >= T.waitingMean;
  return { comparison: rows, queued };
}
