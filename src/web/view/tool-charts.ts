/**
 * Tool-call validity of a run sent with tools, per level: a table of the
 * verdicts (shares over the judged requests, those that called or had to:
 * auto answers without a call are counted apart, as the level's rates are),
 * a stacked bar of the shares per level, and the time to first tool-call
 * token p50/p95 on the page's line renderer where the levels report it.
 */
import * as Plot from '@observablehq/plot';
import { type LevelResult, levelAxis, levelValue } from '../../core/index.js';
import { COLORS, levelLine, levelPlace } from './chart-lines.js';
import { type SmallChart, framedPlot, lineChart } from './charts.js';
import { num } from './format.js';

type Tools = NonNullable<LevelResult['toolCalls']>;
const VERDICTS = ['valid', 'invalid', 'unparsed', 'missing'] as const;
/** Fill per verdict, at 3:1 contrast or better on white; the legend names them. */
const FILL = { valid: COLORS.accent, invalid: COLORS.invalid, unparsed: COLORS.clientBound, missing: COLORS.baseline } as const;

export const TOOL_CALL_HEADERS_TAIL: readonly string[] = [
  'Requests',
  'Valid',
  'Invalid',
  'Unparsed',
  'Missing',
  'No call (auto)',
  'Parse rate',
  'Valid rate',
  'Tool-call TTFT p50/p95 (ms)',
  'Arguments p50/p95 (ms)',
];

const share = (n: number, t: Tools) => (t.requests - t.none > 0 ? n / (t.requests - t.none) : null);
const pct = (x: number | null) => (x === null ? '—' : `${num(x * 100)} %`);
const pair = (x: { p50: number; p95: number } | null) => (x === null ? '—' : `${num(x.p50)} / ${num(x.p95)}`);

function toolLevels(levels: readonly LevelResult[]): LevelResult[] {
  return levels.filter((l) => l.toolCalls !== undefined).sort((a, b) => levelValue(a) - levelValue(b));
}

/** The table: headers (the level axis first) and one row per level sent with tools; empty rows for any other run. */
export function toolCallTable(levels: readonly LevelResult[]): { headers: string[]; rows: string[][] } {
  const tl = toolLevels(levels);
  const axis = levelAxis(tl.length > 0 ? tl : levels);
  return {
    headers: [axis.name, ...TOOL_CALL_HEADERS_TAIL],
    rows: tl.map((l) => {
      const t = l.toolCalls as Tools;
      const cell = (n: number) => `${n} (${pct(share(n, t))})`;
      return [
        axis.format(levelValue(l)) + (l.invalid ? ' (invalid)' : ''),
        String(t.requests),
        cell(t.valid),
        cell(t.invalid),
        cell(t.unparsed),
        cell(t.missing),
        String(t.none),
        pct(t.parseRate),
        pct(t.validRate),
        pair(t.ttftToolMs),
        pair(t.argumentsMs),
      ];
    }),
  };
}

/** Validity shares per level as stacked bars, and time to first tool-call token when measured; none without tools. */
export function toolCallCharts(levels: readonly LevelResult[]): SmallChart[] {
  const tl = toolLevels(levels);
  if (tl.length === 0) return [];
  const axis = levelAxis(tl);
  const at = (l: LevelResult) => axis.format(levelValue(l));
  const bars = tl.flatMap((l) =>
    VERDICTS.map((v) => ({ level: at(l), verdict: v, share: (share((l.toolCalls as Tools)[v], l.toolCalls as Tools) ?? 0) * 100 })),
  );
  const validity = `Valid tool calls: ${tl.map((l) => `${pct((l.toolCalls as Tools).validRate)} at ${axis.describe(levelValue(l))}`).join(', ')}.`;
  const charts: SmallChart[] = [
    {
      id: 'tool-validity',
      title: 'Tool-call validity by level',
      subtitle: '% of judged requests · valid is better',
      legend: 'blue: valid · red: invalid · amber: unparsed · grey: missing',
      summary: validity,
      table: {
        headers: [axis.name, 'Judged', 'Valid', 'Invalid', 'Unparsed', 'Missing'],
        rows: tl.map((l) => {
          const t = l.toolCalls as Tools;
          return [at(l), String(t.requests - t.none), ...VERDICTS.map((v) => pct(share(t[v], t)))];
        }),
      },
      render: (o = {}) =>
        framedPlot(o, {
          height: 240,
          marginLeft: 56,
          marginBottom: 40,
          x: { type: 'band', domain: tl.map(at), label: axis.name, labelAnchor: 'center', labelArrow: 'none' },
          y: { domain: [0, 100], grid: true, label: '% of judged requests', labelArrow: 'none' },
          color: { domain: [...VERDICTS], range: VERDICTS.map((v) => FILL[v]) },
          ariaLabel: validity,
          marks: [
            Plot.barY(
              bars,
              Plot.stackY({
                x: 'level',
                y: 'share',
                fill: 'verdict',
                order: [...VERDICTS],
                title: (d: { verdict: string; share: number }) => `${d.verdict}: ${num(d.share)} %`,
              }),
            ),
            Plot.ruleY([0], { stroke: '#9ca3af' }),
          ],
        }),
    },
  ];
  const ttft = (pick: 'p50' | 'p95') =>
    levelLine(tl, levelPlace, { label: pick, dash: pick === 'p50' ? null : '3 3' }, (l) => (l.toolCalls as Tools).ttftToolMs?.[pick] ?? null);
  const timed = tl.filter((l) => (l.toolCalls as Tools).ttftToolMs !== null);
  if (timed.length === 0) return charts;
  const summary = `First tool-call token p50: ${timed.map((l) => `${num((l.toolCalls as Tools).ttftToolMs?.p50 ?? null)} ms at ${axis.describe(levelValue(l))}`).join(', ')}.`;
  return [
    ...charts,
    lineChart({
      id: 'tool-ttft',
      title: 'Time to first tool-call token',
      subtitle: 'ms · lower is better',
      legend: 'solid: p50 · dashed: p95',
      summary,
      table: {
        headers: [axis.name, 'First tool-call token p50 (ms)', 'p95 (ms)'],
        rows: timed.map((l) => [at(l), num((l.toolCalls as Tools).ttftToolMs?.p50 ?? null), num((l.toolCalls as Tools).ttftToolMs?.p95 ?? null)]),
      },
      xName: axis.name,
      yLabel: 'First tool-call token (ms)',
      lines: [ttft('p50'), ttft('p95')],
    }),
  ];
}
