/**
 * An agent-trace run's levels as charts, drawn by the page's line renderer
 * (charts.ts: log₂ level axis, a marker on every measured level, invalid
 * levels marked): sessions and jobs that met their objective per second
 * against load, and the job makespan p50 and p95 per level — the two figures
 * the result holds, so nothing between them is drawn as a distribution.
 */
import { type LevelResult, levelAxis, levelValue } from '../../core/index.js';
import { type ChartLine, levelLine, levelPlace } from './chart-lines.js';
import { type SmallChart, lineChart } from './charts.js';
import { num } from './format.js';

type Agents = NonNullable<LevelResult['agents']>;
type Figure = (a: Agents) => number | null;

/** A line of one figure across the agent levels, x on the level's own axis; a dashed line has square markers. */
const line = (levels: readonly LevelResult[], label: string, dash: string | null, figure: Figure): ChartLine =>
  levelLine(levels, levelPlace, { label, dash, symbol: dash === null ? 'circle' : 'square' }, (l) => figure(l.agents as Agents));

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
    lineChart({
      id: 'agents-goodput',
      title: 'Session and job goodput against load',
      subtitle: 'met per second · higher is better',
      legend: 'solid: sessions · dashed: jobs',
      summary: `Sessions met per second: ${span(agent, sessions, 2)}; jobs met per second: ${span(agent, jobs, 2)}.`,
      xName: axis.name,
      yLabel: 'Met per second',
      lines: [line(agent, 'sessions', null, sessions), line(agent, 'jobs', '6 4', jobs)],
      table: {
        headers: [axis.name, 'Sessions met', 'Sessions met/s', 'Jobs met', 'Jobs met/s'],
        rows: agent.map((l) => {
          const a = l.agents as Agents;
          return [label(l), `${a.sessions.met} of ${a.sessions.count}`, num(a.sessions.metPerS, 2), `${a.jobs.met} of ${a.jobs.count}`, num(a.jobs.metPerS, 2)];
        }),
      },
    }),
    lineChart({
      id: 'agents-makespan',
      title: 'Job makespan by level',
      subtitle: 'ms · lower is better',
      legend: 'solid: p50 · dashed: p95',
      summary: `Job makespan p50 is ${span(agent, p50, 0, ' ms')}; p95 is ${span(agent, p95, 0, ' ms')}.`,
      xName: axis.name,
      yLabel: 'Makespan (ms)',
      lines: [line(agent, 'p50', null, p50), line(agent, 'p95', '3 3', p95)],
      table: {
        headers: [axis.name, 'Jobs timed', 'Makespan p50 (ms)', 'Makespan p95 (ms)'],
        rows: agent.map((l) => {
          const a = l.agents as Agents;
          return [label(l), String(a.jobList.filter((j) => j.makespanMs !== null).length), num(p50(a), 0), num(p95(a), 0)];
        }),
      },
    }),
  ];
}
