/**
 * Lines printed under the results table for what the table cannot hold: the
 * first failure of each failing level, in the server's own words (so "8 of 8
 * failed" comes with the reason), and each level's client-side retries (a
 * request resent on a fresh connection after its reused keep-alive socket
 * closed: ours, not the server's, and never hidden). Server text is sanitised.
 */
import { type LevelResult, sanitizeForTerminal } from '../core/index.js';

const label = (l: LevelResult) => sanitizeForTerminal(l.load?.label ?? `concurrency ${l.concurrency}`);

/** Note lines, or none when every level succeeded without a retry. */
export function levelNotes(levels: readonly LevelResult[]): string[] {
  const failures = levels.flatMap((l) => {
    const first = l.failureExamples[0];
    return l.failed > 0 && first !== undefined ? [`  ${label(l)}: ${sanitizeForTerminal(first)}`] : [];
  });
  const retries = levels.flatMap((l) => {
    const n = l.clientRetries ?? 0;
    return n > 0 ? [`  ${label(l)}: ${n} request${n === 1 ? '' : 's'} resent once on a fresh connection after the reused keep-alive socket closed before any response byte (a client-side retry, not a server failure)`] : [];
  });
  return [
    ...(failures.length > 0 ? ['', 'First failure of each failing level:', ...failures] : []),
    ...(retries.length > 0 ? ['', 'Client-side retries:', ...retries] : []),
  ];
}
