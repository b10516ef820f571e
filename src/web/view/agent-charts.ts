/**
 * An agent-trace run's levels as charts, drawn by the page's line renderer
 * (charts.ts: log₂ level axis, a marker on every measured level, invalid
 * levels marked): sessions and jobs that met their objective per second
 * against load, and the job makespan p50 and p95 per level — the two figures
 * the result holds, so nothing between them is drawn as a distribution.
 */
import { type LevelResult, levelAxis, levelValue } from '../../core/index.js';
import { COLORS, type ChartLine } from './chart-lines.js';
import { plotLines } from './charts.js';
import { num } from './format.js';
import type { SmallChart } from './replay-charts.js';

type Agents = NonNullable<LevelResult['agents']>;
type Figure = (a: Agents) => number | null;

/** A line of one figure across the agent levels, x on the level's own axis. */
function line(levels: readonly LevelResult[], label: string, dash: string | null, figure: Figure): ChartLine {
  return {
    label,
    color: COLORS.accent,
    dash,
    symbol: dash === null ? 'circle' : 'square',
    points: [...levels]
      .sort((a, b) => levelValue(a) - levelValue(b))
      .map((l) => ({
        concurrency: levelValue(l),
        value: figure(l.agents as Agents),
        invalid: l.invalid,
        clientBound: l.clientBound.bound,
      })),
  };
}

/** "2.84 at speed 1× and 5.10 at speed 2×" (each value followed by `unit`): a figure at the first and last level that has it. */
function span(levels: readonly LevelResult[], figure: Figure, digits: number, unit = ''): string {
  const axis = levelAxis(levels);
  const pts = levels.filter((l) => figure(l.agents as Agents) !== null);
  const first = pts[0];
  const last = pts[pts.length - 1];
  if (!first || !last) return 'not measured';
  const at = (l: LevelResult) => `${num(figure(l.agents as Agents), digits)}${unit} at ${axis.describe(levelValue(l))}`;
  return first === last ? at(first) : `${at(first)} and ${at(last)}`;
}

function chart(
  levels: readonly LevelResult[],
  id: string,
  title: string,
  subtitle: string,
  yLabel: string,
  legend: string,
  lines: ChartLine[],
  summary: string,
  table: SmallChart['table'],
): SmallChart {
  const axis = levelAxis(levels);
  return { id, title, subtitle, legend, summary, table, render: (o = {}) => plotLines(lines, axis.name, yLabel, summary, o) };
}

/** Session and job goodput against load, and the makespan p50/p95 per level; none for a run without agent levels. */
export function agentCharts(levels: readonly LevelResult[]): SmallChart[] {
  const agent = [...levels].filter((l) => l.agents !== undefined).sort((a, b) => levelValue(a) - levelValue(b));
  if (agent.length === 0) return [];
  const axis = levelAxis(agent);
  const label = (l: LevelResult) => axis.format(levelValue(l)) + (l.invalid ? ' (invalid)' : '');
  const sessions: Figure = (a) => a.sessions.metPerS;
  const jobs: Figure = (a) => a.jobs.metPerS;
  const p50: Figure = (a) => a.jobs.makespanMs?.p50 ?? null;
  const p95: Figure = (a) => a.jobs.makespanMs?.p95 ?? null;
  return [
    chart(
      agent,
      'agents-goodput',
      'Session and job goodput against load',
      'met per second · higher is better',
      'Met per second',
      'solid: sessions · dashed: jobs',
      [line(agent, 'sessions', null, sessions), line(agent, 'jobs', '6 4', jobs)],
      `Sessions met per second: ${span(agent, sessions, 2)}; jobs met per second: ${span(agent, jobs, 2)}.`,
      {
        headers: [axis.name, 'Sessions met', 'Sessions met/s', 'Jobs met', 'Jobs met/s'],
        rows: agent.map((l) => {
          const a = l.agents as Agents;
          return [label(l), `${a.sessions.met} of ${a.sessions.count}`, num(a.sessions.metPerS, 2), `${a.jobs.met} of ${a.jobs.count}`, num(a.jobs.metPerS, 2)];
        }),
      },
    ),
    chart(
      agent,
      'agents-makespan',
      'Job makespan by level',
      'ms · lower is better',
      'Makespan (ms)',
      'solid: p50 · dashed: p95',
      [line(agent, 'p50', null, p50), line(agent, 'p95', '3 3', p95)],
      `Job makespan p50 is ${span(agent, p50, 0, ' ms')}; p95 is ${span(agent, p95, 0, ' ms')}.`,
      {
        headers: [axis.name, 'Jobs timed', 'Makespan p50 (ms)', 'Makespan p95 (ms)'],
        rows: agent.map((l) => {
          const a = l.agents as Agents;
          return [label(l), String(a.jobList.filter((j) => j.makespanMs !== null).length), num(p50(a), 0), num(p95(a), 0)];
        }),
      },
    ),
  ];
}
