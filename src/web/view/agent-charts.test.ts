/** The agent and tool-call charts without a browser: which charts, their summaries, tables and SVG (linkedom). */
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import type { AgentSummary, LevelResult, ToolCallSummary } from '../../core/index.js';
import { agentCharts } from './agent-charts.js';
import { toolCallCharts, toolCallTable } from './tool-charts.js';

const doc = () => parseHTML('<!doctype html><html><body></body></html>').document as never;
const agents = (metPerS: number, makespan: { p50: number; p95: number } | null): AgentSummary => ({
  sessions: { count: 12, met: 9, metPerS, timeMs: { p50: 800, p95: 1900 } },
  jobs: { count: 3, met: 2, metPerS: metPerS / 4, makespanMs: makespan, deadlineMs: null },
  childStartLagMs: null,
  cache: { promptTokens: 1000, theoreticalHitTokens: 750, theoreticalHitRate: 0.75, reportedRequests: 0, actualHitRate: null },
  jobList: [1, 2, 3].map((j) => ({ job: `agent${j}`, sessions: 4, met: j < 3, makespanMs: makespan === null || j === 3 ? null : 2000, criticalPath: [] })),
});
const level = (speed: number, extra: Partial<LevelResult>, invalid = false) =>
  ({
    concurrency: 1,
    load: { kind: 'trace', level: speed, label: `trace at ${speed}×` },
    invalid,
    clientBound: { bound: false },
    ...extra,
  }) as unknown as LevelResult;

describe('agent charts', () => {
  it('draws sessions and jobs met per second and the makespan p50/p95 on the speeds, with their tables', () => {
    const charts = agentCharts([
      level(2, { agents: agents(3, { p50: 2500, p95: 4000 }) }, true),
      level(1, { agents: agents(2, { p50: 2000, p95: 3000 }) }),
      level(4, {}),
    ]);
    expect(charts.map((c) => c.id)).toEqual(['agents-goodput', 'agents-makespan']);
    expect(charts[0]?.summary).toBe(
      'Sessions met per second: 2.00 at speed 1× and 3.00 at speed 2×; jobs met per second: 0.50 at speed 1× and 0.75 at speed 2×.',
    );
    expect(charts[0]?.table.rows).toEqual([
      ['1×', '9 of 12', '2.00', '2 of 3', '0.50'],
      ['2× (invalid)', '9 of 12', '3.00', '2 of 3', '0.75'],
    ]);
    expect(charts[1]?.table.rows).toEqual([
      ['1×', '2', '2,000', '3,000'],
      ['2× (invalid)', '2', '2,500', '4,000'],
    ]);
    const svg = charts[0]?.render({ document: doc() });
    expect(svg?.getAttribute('role')).toBe('img');
    expect(svg?.getAttribute('aria-label')).toBe(charts[0]?.summary);
    expect([...(svg?.querySelectorAll('g[aria-label="x-axis tick label"] text') ?? [])].map((t) => t.textContent)).toEqual(['1', '2']);
  });

  it('says a makespan was not measured when no job finished, and draws nothing for other runs', () => {
    expect(agentCharts([level(1, { agents: agents(0, null) })])[1]?.summary).toBe('Job makespan p50 is not measured; p95 is not measured.');
    expect(agentCharts([level(1, {})])).toEqual([]);
  });
});

const tools = (valid: number, invalid: number, none = 0, timed = true): ToolCallSummary => ({
  requests: valid + invalid + 1 + none,
  valid,
  invalid,
  unparsed: 1,
  missing: 0,
  none,
  parseRate: (valid + invalid) / (valid + invalid + 1),
  validRate: valid / (valid + invalid + 1),
  ttftToolMs: timed ? { p50: 12, p95: 20, p99: 25 } : null,
  argumentsMs: timed ? { p50: 30, p95: 44 } : null,
  argumentTokensMean: 40,
});
const at = (c: number, extra: Partial<LevelResult>) => ({ concurrency: c, invalid: false, clientBound: { bound: false }, ...extra }) as unknown as LevelResult;

describe('tool-call validity', () => {
  it('tabulates the verdicts as shares of the judged requests, with the times to first tool-call token', () => {
    const levels = [at(8, { toolCalls: tools(36, 3, 2) }), at(1, { toolCalls: tools(18, 1) })];
    const t = toolCallTable(levels);
    expect(t.headers[0]).toBe('Concurrency');
    expect(t.rows).toEqual([
      ['1', '20', '18 (90.0 %)', '1 (5.0 %)', '1 (5.0 %)', '0 (0.0 %)', '0', '95.0 %', '90.0 %', '12.0 / 20.0', '30.0 / 44.0'],
      ['8', '42', '36 (90.0 %)', '3 (7.5 %)', '1 (2.5 %)', '0 (0.0 %)', '2', '97.5 %', '90.0 %', '12.0 / 20.0', '30.0 / 44.0'],
    ]);
    const charts = toolCallCharts(levels);
    expect(charts.map((c) => c.id)).toEqual(['tool-validity', 'tool-ttft']);
    expect(charts[0]?.summary).toBe('Valid tool calls: 90.0 % at concurrency 1, 90.0 % at concurrency 8.');
    expect(charts[0]?.table.rows[1]).toEqual(['8', '40', '90.0 %', '7.5 %', '2.5 %', '0.0 %']);
    const svg = charts[0]?.render({ document: doc() });
    expect(svg?.getAttribute('aria-label')).toBe(charts[0]?.summary);
    // Four verdicts a level, each a bar: eight rectangles, their heights adding to the full axis per level.
    expect(svg?.querySelectorAll('rect')).toHaveLength(8);
    expect(charts[1]?.table.rows).toEqual([
      ['1', '12.0', '20.0'],
      ['8', '12.0', '20.0'],
    ]);
  });

  it('has no time chart when no level timed a tool call, and nothing for a run without tools', () => {
    expect(toolCallCharts([at(1, { toolCalls: tools(0, 0, 0, false) })]).map((c) => c.id)).toEqual(['tool-validity']);
    expect(toolCallCharts([at(1, {})])).toEqual([]);
    expect(toolCallTable([at(1, {})]).rows).toEqual([]);
  });

  it('shows no share when every answer was a plain-text auto answer, and draws empty bars rather than inventing shares', () => {
    const none: ToolCallSummary = {
      requests: 5,
      valid: 0,
      invalid: 0,
      unparsed: 0,
      missing: 0,
      none: 5,
      parseRate: null,
      validRate: null,
      ttftToolMs: null,
      argumentsMs: null,
      argumentTokensMean: null,
    };
    expect(toolCallTable([at(2, { toolCalls: none })]).rows).toEqual([['2', '5', '0 (—)', '0 (—)', '0 (—)', '0 (—)', '5', '—', '—', '—', '—']]);
    const [chart, ...rest] = toolCallCharts([at(2, { toolCalls: none })]);
    expect(rest).toEqual([]);
    expect(chart?.summary).toBe('Valid tool calls: — at concurrency 2.');
    expect(chart?.table.rows).toEqual([['2', '0', '—', '—', '—', '—']]);
    const heights = [...(chart?.render({ document: doc() }).querySelectorAll('rect') ?? [])].map((r) => Number(r.getAttribute('height') ?? 0));
    expect(heights).toEqual([0, 0, 0, 0]);
  });
});
