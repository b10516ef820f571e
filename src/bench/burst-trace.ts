/**
 * Where a send's time went, per client thread, from the instants a traced run
 * keeps on each record (GOODPUT_SEND_TRACE=1): slot free (or the level's start)
 * → body built → first request byte about to be written → last byte written →
 * first response byte (the response head). The burst (every request that
 * targeted the level's start) apart from the steady state.
 */
import { type RequestRecord, percentiles } from '../core/index.js';

const STAGES = [
  ['built', (r: RequestRecord) => r.sendTrace?.builtNs, (r: RequestRecord) => r.targetSendNs],
  ['write start', (r: RequestRecord) => r.sendTrace?.writeStartNs, (r: RequestRecord) => r.targetSendNs],
  ['written', (r: RequestRecord) => r.writtenNs, (r: RequestRecord) => r.targetSendNs],
  ['first response byte after written', (r: RequestRecord) => r.headersNs ?? undefined, (r: RequestRecord) => r.writtenNs],
] as const;

const spread = (xs: number[]) => {
  const q = percentiles(xs, [50, 99]);
  return q === null ? '—' : `${q.p50.toFixed(2)}/${q.p99.toFixed(2)}/${Math.max(...xs).toFixed(2)}`;
};

/** One line per thread and part (burst, steady): p50/p99/max ms of each stage from the slot freeing. */
export function breakdownLines(measured: readonly RequestRecord[]): string[] {
  const start = Math.min(...measured.map((r) => r.targetSendNs));
  const threads = [...new Set(measured.map((r) => r.client ?? 'one thread'))].sort();
  const lines: string[] = [];
  for (const t of threads) {
    for (const burst of [true, false]) {
      const rs = measured.filter((r) => (r.client ?? 'one thread') === t && (r.targetSendNs === start) === burst);
      if (rs.length === 0) continue;
      const parts = STAGES.map(([name, at, from]) => {
        const xs = rs.flatMap((r) => {
          const a = at(r);
          const b = from(r);
          return a === undefined || b === undefined || a === 0 ? [] : [(a - b) / 1e6];
        });
        return `${name} ${spread(xs)}`;
      });
      lines.push(`${t} ${burst ? 'burst' : 'steady'} (${rs.length}): ${parts.join(' · ')} (p50/p99/max ms from slot free)`);
    }
  }
  return lines;
}
