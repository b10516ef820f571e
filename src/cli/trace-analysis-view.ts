/**
 * `goodput trace analyse` as text: a few lines a person reads before choosing
 * a window and a speed. The numbers are the analysis's own (--json prints them
 * whole).
 */
import type { SessionAnalysis, TraceAnalysis } from '../workload/index.js';

type Dist = TraceAnalysis['promptTokens'];
const fix = (x: number, d = 1) => (Number.isInteger(x) ? String(x) : x.toFixed(d));
const dist = (name: string, d: Dist) =>
  `${name.padEnd(16)} min ${fix(d.min)}  mean ${fix(d.mean)}  p50 ${fix(d.p50)}  p90 ${fix(d.p90)}  p99 ${fix(d.p99)}  max ${fix(d.max)}\n`;

/** Counts per bucket as a row of block characters, scaled to the busiest bucket (at most 60 buckets shown). */
function spark(counts: readonly number[]): string {
  const bars = '▁▂▃▄▅▆▇█';
  const top = Math.max(1, ...counts);
  return counts
    .slice(0, 60)
    .map((c) => bars[Math.min(bars.length - 1, Math.floor((c / top) * (bars.length - 1)))])
    .join('');
}

export function renderAnalysis(a: TraceAnalysis | SessionAnalysis): string {
  if ('sessions' in a) {
    return (
      `${a.file} (${a.format}): ${a.sessions} sessions${a.subAgents > 0 ? ` (${a.subAgents} sub-agents)` : ''}\n` +
      dist('turns/session', a.turnsPerSession) +
      dist('prompt tokens', a.promptTokens) +
      dist('output tokens', a.outputTokens)
    );
  }
  const g = a.gaps;
  const shape = g.gammaShape === null ? 'none' : fix(g.gammaShape, 3);
  let out =
    `${a.file} (${a.format}): ${a.requests} requests over ${fix(a.spanS)} s, ${fix(a.meanRps, 2)} req/s on average\n` +
    `rate per ${a.rate.bucketS} s   ${spark(a.rate.requests)}  (max ${Math.max(...a.rate.requests)}${a.rate.requests.length > 60 ? `, first 60 of ${a.rate.requests.length} buckets` : ''})\n` +
    `burstiness       CV of gaps ${g.cv === null ? 'none' : fix(g.cv, 3)}  gamma shape ${shape} (1 = Poisson, below 1 burstier: --burstiness ${shape})${g.zero > 0 ? `; ${g.zero} gaps of 0 ms left out of the fit` : ''}\n` +
    dist('prompt tokens', a.promptTokens) +
    dist('output tokens', a.outputTokens);
  if (a.prefix !== null)
    out += `prefix sharing   ${(a.prefix.hitShare * 100).toFixed(1)} % of ${a.prefix.blocks} blocks seen before (a perfect prefix cache's hits), in ${a.prefix.requestsWithHits} requests\n`;
  return out;
}
