/**
 * The agent-trace lines under the results table, per level: sessions and jobs
 * that met their objective (count and per second), session time and job
 * makespan, how late sub-agents started against the trace, the prefix cache a
 * perfect server would have had beside the one the server reported, and each
 * job's critical path (the first few jobs; every one is in the JSON result).
 */
import { type SweepResult, sanitizeForTerminal as clean } from '../core/index.js';

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)} %`);
const pair = (x: { p50: number; p95: number } | null) => (x === null ? 'n/a' : `${x.p50.toFixed(0)}/${x.p95.toFixed(0)}`);
const rate = (x: number | null) => (x === null ? 'n/a' : `${x.toFixed(2)}/s`);
/** Jobs whose critical path is printed per level. */
const PATHS_SHOWN = 5;
/** A name from the trace, cleaned and cut for one line. */
const name = (s: string) => ((t) => (t.length > 40 ? `${t.slice(0, 39)}…` : t))(clean(s));

export function agentLines(result: SweepResult): string[] {
  const levels = result.levels.filter((l) => l.agents !== undefined);
  if (levels.length === 0) return [];
  const out = [
    '',
    'Agent sessions and jobs (a session meets its objective when every turn does; a job when all its sessions do' +
      `${levels[0]?.agents?.jobs.deadlineMs ? `, within ${levels[0].agents.jobs.deadlineMs} ms` : ''}):`,
  ];
  for (const l of levels) {
    const a = l.agents as NonNullable<typeof l.agents>;
    const lag = a.childStartLagMs;
    out.push(
      `  ${clean(l.load?.label ?? String(l.concurrency))}: sessions met ${a.sessions.met} of ${a.sessions.count} (${rate(a.sessions.metPerS)}) · jobs met ${a.jobs.met} of ${a.jobs.count} (${rate(a.jobs.metPerS)})`,
      `    session time p50/p95 ${pair(a.sessions.timeMs)} ms · job makespan p50/p95 ${pair(a.jobs.makespanMs)} ms · sub-agent start lag ${lag === null ? 'n/a' : `p50 ${lag.p50.toFixed(2)}, p99 ${lag.p99.toFixed(2)}, max ${lag.max.toFixed(2)} ms`}`,
      `    prefix cache: theoretical ${pct(a.cache.theoreticalHitRate)} of ${a.cache.promptTokens} prompt tokens · server reported ${pct(a.cache.actualHitRate)} (${a.cache.reportedRequests} requests reporting)`,
    );
    for (const j of a.jobList.slice(0, PATHS_SHOWN)) {
      const spans = j.criticalPath.map((s) => `${name(s.session)}[${s.fromTurn === s.toTurn ? s.fromTurn : `${s.fromTurn}-${s.toTurn}`}]`);
      const path = (spans.length > 8 ? [...spans.slice(0, 3), `… ${spans.length - 6} more …`, ...spans.slice(-3)] : spans).join(' → ');
      out.push(
        `    job ${name(j.job)}: ${j.met ? 'met' : 'missed'} · makespan ${j.makespanMs === null ? 'n/a (a turn failed or was not sent)' : `${j.makespanMs.toFixed(0)} ms`}${path ? ` · critical path ${path}` : ''}`,
      );
    }
    if (a.jobList.length > PATHS_SHOWN) out.push(`    … ${a.jobList.length - PATHS_SHOWN} more jobs in the JSON result (levels[].agents.jobList)`);
  }
  return out;
}
