/**
 * A report of an agentic run draws what that run measured beyond text, with
 * the page's own chart functions: a sweep sent with tools gets the tool-call
 * validity bars and the time to first tool-call token, an agent-trace replay
 * its session and job goodput and the job makespan, each beside the
 * throughput, per-request and TTFT charts a text sweep gets, in HTML (drawn
 * inline) and in Markdown (their data as tables). A text run gets none.
 */
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import type { SweepResult } from '../../core/index.js';
import { agentRun, toolCallRun } from '../../test-support/agentic-runs.js';
import { receiptPair } from '../../test-support/receipt-fixture.js';
import { reportHtml, reportMarkdown } from './index.js';

const doc = () => parseHTML('<!doctype html><html><body></body></html>').document as never;
const input = (result: SweepResult) => ({ runs: [{ label: 'run 1', result }], generator: '0.1.0', generatedAt: '2026-06-04T10:00:00.000Z' });
const page = (result: SweepResult) => parseHTML(reportHtml(input(result), doc(), '')).document;
/** Each drawn chart: its figure id, caption title and the SVG's aria-label. */
const figures = (d: ReturnType<typeof page>) =>
  [...d.querySelectorAll('figure.chart')].map((f) => ({
    id: f.getAttribute('id'),
    title: f.querySelector('figcaption strong')?.textContent,
    label: f.querySelector('svg[role="img"]')?.getAttribute('aria-label') ?? null,
  }));

describe('a report of a run sent with tools', () => {
  it('draws the tool-call validity and first tool-call token charts beside the text charts', () => {
    const drawn = figures(page(toolCallRun()));
    expect(drawn.map((f) => f.title)).toEqual([
      'Throughput against concurrency',
      'Per-request rate against concurrency',
      'Time to first token against concurrency',
      'Tool-call validity by level',
      'Time to first tool-call token',
      expect.stringMatching(/Pareto|per server|speed per user/i),
    ]);
    expect(drawn.find((f) => f.id === 'chart-tool-validity')?.label).toBe('Valid tool calls: 90.0 % at concurrency 1, 75.0 % at concurrency 4.');
    expect(drawn.find((f) => f.id === 'chart-tool-ttft')?.label).toBe('First tool-call token p50: 40.0 ms at concurrency 1, 90.0 ms at concurrency 4.');
    expect(drawn.every((f) => f.label !== null)).toBe(true);
  });

  it('gives their data as tables in Markdown', () => {
    const md = reportMarkdown(input(toolCallRun()));
    expect(md).toContain('### Tool calls\n\n#### Tool-call validity by level\n\nValid tool calls: 90.0 % at concurrency 1, 75.0 % at concurrency 4.\n');
    expect(md).toContain('| 4 | 20 | 75.0 % | 25.0 % | 0.0 % | 0.0 % |');
    expect(md).toContain('#### Time to first tool-call token');
  });
});

describe('a report of an agent-trace replay', () => {
  it('draws session and job goodput and the job makespan on the speeds, beside the text charts', () => {
    const d = page(agentRun());
    const drawn = figures(d);
    expect(drawn.slice(0, 5).map((f) => f.title)).toEqual([
      'Throughput against concurrency',
      'Per-request rate against concurrency',
      'Time to first token against concurrency',
      'Session and job goodput against load',
      'Job makespan by level',
    ]);
    expect(drawn.find((f) => f.id === 'chart-agents-goodput')?.label).toMatch(
      /^Sessions met per second: 1\.50 at speed 1× and 3\.00 at speed 2×; jobs met per second: /,
    );
    expect(drawn.find((f) => f.id === 'chart-agents-makespan')?.label).toBe(
      'Job makespan p50 is 2,000 ms at speed 1× and 4,000 ms at speed 2×; p95 is 3,000 ms at speed 1× and 6,000 ms at speed 2×.',
    );
    const ticks = [...d.querySelectorAll('#chart-agents-goodput g[aria-label="x-axis tick label"] text')].map((t) => t.textContent);
    expect(ticks).toEqual(['1', '2']);
  });

  it('gives their data as tables in Markdown', () => {
    const md = reportMarkdown(input(agentRun()));
    expect(md).toContain('### Agent sessions and jobs\n\n#### Session and job goodput against load\n');
    expect(md).toContain('| 2× | 3 | 4,000 | 6,000 |');
  });
});

describe('a report of a text run', () => {
  it('has no tool-call or agent charts', () => {
    const { baseline } = receiptPair();
    expect(figures(page(baseline)).map((f) => f.id)).not.toContain('chart-tool-validity');
    const md = reportMarkdown(input(baseline));
    expect(md).not.toContain('### Tool calls');
    expect(md).not.toContain('### Agent sessions and jobs');
  });
});
