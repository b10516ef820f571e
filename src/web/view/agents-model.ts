/**
 * Agent-trace levels as the page's tables: per level, sessions and jobs that met
 * their objective (count and per second), session time and job makespan, the
 * sub-agent start lag and the prefix cache a perfect server would have had
 * beside the one reported; and per job, whether it met, its makespan and its
 * critical path (the first jobs of a level; every one is in the JSON).
 */
import type { LevelResult } from '../../core/index.js';
import { num } from './format.js';

export const AGENT_LEVEL_HEADERS: readonly string[] = [
  'Level',
  'Sessions met',
  'Sessions met/s',
  'Jobs met',
  'Jobs met/s',
  'Session time p50/p95 (ms)',
  'Makespan p50/p95 (ms)',
  'Sub-agent start lag max (ms)',
  'Cache hits, theoretical',
  'Cache hits, reported',
];
export const AGENT_JOB_HEADERS: readonly string[] = ['Job', 'Sessions', 'Met', 'Makespan (ms)', 'Critical path'];
/** Jobs listed per level on the page. */
export const AGENT_JOBS_SHOWN = 20;

const pct = (x: number | null) => (x === null ? '—' : `${num(x * 100)} %`);
const pair = (x: { p50: number; p95: number } | null) => (x === null ? '—' : `${num(x.p50, 0)} / ${num(x.p95, 0)}`);

/** One row per agent-trace level; empty for any other run. */
export function agentLevelRows(levels: readonly LevelResult[]): string[][] {
  return levels.flatMap((l) => {
    const a = l.agents;
    if (!a) return [];
    return [
      [
        l.load?.label ?? String(l.concurrency),
        `${a.sessions.met} of ${a.sessions.count}`,
        num(a.sessions.metPerS, 2),
        `${a.jobs.met} of ${a.jobs.count}`,
        num(a.jobs.metPerS, 2),
        pair(a.sessions.timeMs),
        pair(a.jobs.makespanMs),
        num(a.childStartLagMs?.max, 2),
        pct(a.cache.theoreticalHitRate),
        pct(a.cache.actualHitRate),
      ],
    ];
  });
}

/** The first jobs of a level: name, sessions, met, makespan, critical path; and how many more the JSON holds. */
export function agentJobRows(level: LevelResult): { rows: string[][]; more: number } {
  const jobs = level.agents?.jobList ?? [];
  return {
    rows: jobs
      .slice(0, AGENT_JOBS_SHOWN)
      .map((j) => [
        j.job,
        String(j.sessions),
        j.met ? 'met' : 'missed',
        num(j.makespanMs, 0),
        j.criticalPath.map((s) => `${s.session}[${s.fromTurn === s.toTurn ? s.fromTurn : `${s.fromTurn}–${s.toTurn}`}]`).join(' → ') || '—',
      ]),
    more: Math.max(0, jobs.length - AGENT_JOBS_SHOWN),
  };
}
