/**
 * A report as one file: the page's markup (markup.ts) for one run or several,
 * with every chart drawn now into the given document (linkedom in Node), so
 * the file needs no script and no network. Several runs open with their
 * comparison (contract differences first); every run then has its identity,
 * contract, warnings, table (with speculative decoding where the server reported
 * it, a disaggregated server's pools where they were scraped, the load held, and
 * figures per LoRA adapter for a run over several), charts, Pareto view, client
 * self-check, energy (when a GPU source read it) and cards;
 * a run sent with tools or replaying an agent trace adds the page's own charts
 * of those figures (tool-call validity and timing, sessions and jobs), drawn
 * by the same chart functions. The same models give the Markdown form for a
 * pull request.
 */
import type { SweepResult } from '../../core/index.js';
import { cardViews } from './cards-model.js';
import type { ChartSeries } from './chart-lines.js';
import { CHARTS, type ChartDocument, type SmallChart } from './charts.js';
import { CLIENT_HEADERS, SELF_CHECK_HEADERS, clientRows, selfCheckRows } from './clients.js';
import { ADAPTER_CAPTION, ADAPTER_HEADERS, adapterRows } from './adapters.js';
import { ENERGY_CAPTION, ENERGY_HEADERS, energyRows } from './energy.js';
import { SPEC_DECODE_CAPTION, SPEC_DECODE_HEADERS, specDecodeRows } from './spec-decode.js';
import { IN_FLIGHT_CAPTION, IN_FLIGHT_HEADERS, inFlightRows } from './in-flight.js';
import { SERVER_VIEW_CAPTION, SERVER_VIEW_HEADERS, serverViewRows } from './server-view.js';
import { DISAGG_KV_CAPTION, DISAGG_KV_HEADERS, DISAGG_ROLE_CAPTION, DISAGG_ROLE_HEADERS, disaggKvRows, disaggRoleRows } from './disagg.js';
import { FLEET_CAPTION, FLEET_HEADERS, fleetRows } from './fleet.js';
import { type CompareRun, type Comparison, compareHeader, compareRunOf, compareRuns, drawnRunTitle, sideTables } from './compare-model.js';
import { qualityVerdictPhrase } from './compare-quality.js';
import { num, when } from './format.js';
import {
  type Raw,
  capacityMarkup,
  cardsMarkup,
  compareTableMarkup,
  qualityMarkup,
  contractDiffsMarkup,
  differencesMarkup,
  sideTableMarkup,
  drawnMarkup,
  esc,
  figureMarkup,
  html,
  paretoFigure,
  resultsTableMarkup,
  scrollFrame,
} from './markup.js';
import { agentCharts } from './agent-charts.js';
import { type CapacityAnswer, type ParetoModel, capacityAt, defaultTarget, paretoModel } from './pareto.js';
import { curvesLegend, paretoTitle, renderPareto, runColor } from './pareto-chart.js';
import { TABLE_HEADERS, tableCaption, tableRows } from './table-model.js';
import { toolCallCharts } from './tool-charts.js';
import { DECISION_TITLE, decisionMarkdown, decisionMarkup, decisionView } from './decision.js';

export interface ReportRun {
  label: string;
  result: SweepResult;
}

export interface ReportInput {
  runs: readonly ReportRun[];
  /** The tok/s per user the capacity answer is given at; default: the middle of the range the runs cover. */
  target?: number | null;
  /** goodput's version, and when the file was written (ISO). */
  generator: string;
  generatedAt: string;
}

const compareRunOfReport = (r: ReportRun): CompareRun => compareRunOf(r.label, r.result);

/** "server · model · engine · GPU · date · contract". */
export function resultIdentity(r: SweepResult): string {
  const e = r.run.engine;
  return [
    r.run.url,
    r.run.model,
    e ? `${e.name}${e.version ? ` ${e.version}` : ''}` : 'engine not recorded',
    r.cards.platform.gpu ?? r.run.gpuLabel ?? 'GPU not recorded',
    when(r.run.startedAt),
    r.contractHash ? `contract sha256 ${r.contractHash.slice(0, 12)}…` : 'no contract recorded',
  ].join(' · ');
}

/** The run's contract as it was measured: the fields every number depends on. */
function contractRows(r: SweepResult): string[][] {
  const run = r.run;
  return [
    ['Endpoint', run.endpoint],
    ['Prompt tokens', String(run.promptTokens)],
    ['Output tokens', `${run.outputTokens}${run.forceLength ? ' (length forced)' : ' (a cap, not forced)'}`],
    ['Thinking', run.thinking],
    ['Temperature', String(run.temperature)],
    ['Seed', String(run.seed)],
    // A run over several adapters names them with their weights: the per-adapter table below reads against them.
    ...(run.lora === undefined ? [] : [['LoRA adapters', run.lora.map((a) => `${a.name}=${a.weight}`).join(', ')]]),
    ['Arrival', run.arrival?.kind ?? 'concurrency'],
    ['Levels', run.levelsRequested.join(', ')],
    ['Requests per level', String(run.requestsPerLevel)],
    ['Warm-up per level', String(run.warmupPerLevel)],
    ['Hourly cost', run.hourlyCostUsd === null ? 'not given' : `$${num(run.hourlyCostUsd, 2)}/h`],
    ['Status', `${run.status}${run.stopReason ? `: ${run.stopReason}` : ''}`],
    ['Command', run.command],
    ['goodput', run.toolVersion],
    ['Contract sha256', r.contractHash ?? 'none (not written by goodput run)'],
  ];
}

function plainTable(label: string, caption: string, headers: readonly string[], rows: readonly string[][]): Raw {
  return scrollFrame(
    label,
    html`<table><caption>${caption}</caption><thead><tr>${headers.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead><tbody>${rows.map(
      (r) => html`<tr>${r.map((c, i) => (i === 0 ? html`<th scope="row">${c}</th>` : html`<td>${c}</td>`))}</tr>`,
    )}</tbody></table>`,
  );
}

function chartsMarkup(series: readonly ChartSeries[], doc: ChartDocument, legend?: string): Raw {
  return html`<div class="chart-grid">${CHARTS.map((c) => figureMarkup({ title: c.title, subtitle: c.subtitle, legend, table: c.table(series), svg: c.render(series, { document: doc, width: 640 }).outerHTML }))}</div>`;
}

/** The charts of what a run measured beyond text (the page's Tool calls and Agent sessions sections), by heading; none for a text run. */
function ownChartGroups(levels: SweepResult['levels']): Array<{ heading: string; charts: SmallChart[] }> {
  return [
    { heading: 'Tool calls', charts: toolCallCharts(levels) },
    { heading: 'Agent sessions and jobs', charts: agentCharts(levels) },
  ].filter((g) => g.charts.length > 0);
}

function ownChartsMarkup(levels: SweepResult['levels'], doc: ChartDocument): Raw {
  return html`${ownChartGroups(levels).map(
    (g) =>
      html`<h3>${g.heading}</h3><div class="chart-grid">${g.charts.map((c) =>
        figureMarkup({
          id: `chart-${c.id}`,
          title: c.title,
          subtitle: c.subtitle,
          legend: c.legend,
          table: c.table,
          svg: c.render({ document: doc, width: 640 }).outerHTML,
        }),
      )}</div>`,
  )}`;
}

function paretoSection(m: ParetoModel, answer: CapacityAnswer | null, doc: ChartDocument): Raw {
  return html`<h3>Pareto view and capacity</h3><div class="pareto">${figureMarkup(paretoFigure(m, renderPareto(m, { document: doc, width: 640 }).outerHTML))}<div class="capacity-answer">${capacityMarkup(m, answer)}</div></div>`;
}

function runSection(r: ReportRun, i: number, doc: ChartDocument, target: number | null | undefined, title: string): Raw {
  const res = r.result;
  const m = paretoModel([{ label: r.label, run: res.run, levels: res.levels }]);
  const at = target ?? defaultTarget(m);
  const clients = clientRows(res.levels);
  const energy = energyRows(res.levels);
  const spec = specDecodeRows(res.levels);
  const held = inFlightRows(res.levels);
  const server = serverViewRows(res.levels);
  const pools = disaggRoleRows(res.levels);
  const kv = disaggKvRows(res.levels);
  const adapters = adapterRows(res.levels);
  const fleet = fleetRows(res.levels);
  return html`<section class="panel run" aria-labelledby="run-${i + 1}"><h2 id="run-${i + 1}">${title}</h2><p class="identity">${resultIdentity(res)}</p>
${res.warnings.length > 0 ? html`<ul class="warnings" aria-label="Warnings">${res.warnings.map((w) => html`<li><strong>Warning:</strong> ${w.message}</li>`)}</ul>` : html`<p class="hint">No warnings.</p>`}
<h3>Contract</h3>${plainTable('Contract', 'What was measured: every figure below depends on these.', ['Field', 'Value'], contractRows(res))}
<h3>Results</h3>${resultsTableMarkup({ levels: res.levels, caption: tableCaption({ ...res.run, thinking: res.run.thinking === 'on', requestsPerLevel: res.run.requestsPerLevel }, res.levels) })}
${spec.length > 0 ? html`<h3>Speculative decoding</h3>${plainTable('Speculative decoding', `${SPEC_DECODE_CAPTION}.`, SPEC_DECODE_HEADERS, spec)}` : ''}
${pools.length > 0 ? html`<h3>Disaggregated pools</h3>${plainTable('Pools', `${DISAGG_ROLE_CAPTION}.`, DISAGG_ROLE_HEADERS, pools)}${kv.length > 0 ? plainTable('KV transfer and TTFT', `${DISAGG_KV_CAPTION}.`, DISAGG_KV_HEADERS, kv) : ''}` : ''}
${adapters.length > 0 ? html`<h3>LoRA adapters</h3>${plainTable('LoRA adapters', ADAPTER_CAPTION, ADAPTER_HEADERS, adapters)}` : ''}
${fleet.length > 0 ? html`<h3>By target</h3>${plainTable('By target', `${FLEET_CAPTION}.`, FLEET_HEADERS, fleet)}` : ''}
<h3>Charts</h3>${chartsMarkup([{ label: r.label, role: 'single', levels: res.levels }], doc)}${ownChartsMarkup(res.levels, doc)}
${paretoSection(m, at === null ? null : capacityAt(m, at), doc)}
<h3>Client self-check</h3>${plainTable('Client self-check', 'Our client judged itself at every level: a level it could not keep up with is client-bound, shown but left out of peaks.', SELF_CHECK_HEADERS, selfCheckRows(res.levels))}
${held.length > 0 ? plainTable('Load held', `${IN_FLIGHT_CAPTION}.`, IN_FLIGHT_HEADERS, held) : ''}
${server.length > 0 ? html`<h3>The server's own account</h3>${plainTable("The server's own account", `${SERVER_VIEW_CAPTION}.`, SERVER_VIEW_HEADERS, server)}` : ''}
${clients.length > 0 ? plainTable('Clients', "Each split level's share per thread or worker, judged on its own.", CLIENT_HEADERS, clients) : ''}
${energy.length > 0 ? html`<h3>Energy</h3>${plainTable('Energy', ENERGY_CAPTION, ENERGY_HEADERS, energy)}` : ''}
<h3>Cards</h3>${cardsMarkup(cardViews(res.cards))}</section>`;
}

function comparisonSection(c: Comparison, m: ParetoModel, answer: CapacityAnswer | null, doc: ChartDocument): Raw {
  const series: ChartSeries[] = c.runs.map((r, i) => ({ label: r.label, role: i === 0 ? 'baseline' : 'candidate', levels: r.levels, color: runColor(i) }));
  return html`<section class="panel compare-view" aria-labelledby="compare-title"><h2 id="compare-title">Comparison of ${c.titles.join(', ')}</h2>
<p class="hint">${c.titles[0]} is the baseline: every difference is another run minus it.</p>
<h3>What differs</h3>${contractDiffsMarkup(c)}<h3>Side by side</h3>${drawnMarkup(c)}${compareTableMarkup(c)}<h3>Differences from ${c.runs[0]?.label}</h3>${differencesMarkup(c)}
${sideTables(c).map((t) => html`<h3>${t.title}</h3>${sideTableMarkup(c, t)}`)}${c.quality === null ? '' : html`<h3>Quality</h3>${qualityMarkup(c)}`}
${paretoSection(m, answer, doc)}<h3>Curves</h3>${chartsMarkup(series, doc, curvesLegend(c.runs))}</section>`;
}

/** The report's body (everything inside <main>), and its title. */
export function reportBody(input: ReportInput, doc: ChartDocument): { title: string; body: string } {
  const runs = input.runs;
  const title = runs.length === 1 ? `goodput report: ${runs[0]?.label}` : `goodput report: ${runs.map((r) => r.label).join(' vs ')}`;
  let compare: Raw | string = '';
  let titles = runs.map((r) => r.label);
  if (runs.length > 1) {
    const cmpRuns = runs.map(compareRunOfReport);
    const m = paretoModel(cmpRuns);
    const at = input.target ?? defaultTarget(m);
    const c = compareRuns(cmpRuns);
    titles = c.titles;
    compare = comparisonSection(c, m, at === null ? null : capacityAt(m, at), doc);
  }
  const decision = decisionView(runs.map((r) => ({ ...r.result, label: r.label })));
  const decided =
    decision === null
      ? ''
      : html`<section class="panel decision" aria-labelledby="decision-title"><h2 id="decision-title">${DECISION_TITLE}</h2>${decisionMarkup(decision)}</section>`;
  const body = html`<header class="top"><h1>${title}</h1><p class="lede">Written by goodput ${input.generator} on ${when(input.generatedAt)}. One self-contained file: every chart is drawn in it, nothing is loaded from the network.</p></header>
<main>${decided}${compare}${runs.map((r, i) => runSection(r, i, doc, input.target, drawnRunTitle(titles[i] ?? r.label, compareRunOfReport(r))))}</main>`;
  return { title, body: body.html };
}

/** The whole file: a strict policy (no script, nothing remote), the page's stylesheet inline, the body. */
export function reportHtml(input: ReportInput, doc: ChartDocument, css: string): string {
  const { title, body } = reportBody(input, doc);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${esc(title)}</title><style>${css.replace(/<\/style/gi, '<\\/style')}</style></head>
<body class="report">${body}</body></html>
`;
}

const mdCell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const mdTable = (headers: readonly string[], rows: readonly string[][]) =>
  [`| ${headers.map(mdCell).join(' | ')} |`, `|${headers.map(() => ' --- |').join('')}`, ...rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`)].join('\n');

/** The same report as Markdown (tables and sentences; the charts' data as tables), for a pull request. */
export function reportMarkdown(input: ReportInput): string {
  const out: string[] = [];
  const runs = input.runs;
  out.push(
    `# ${runs.length === 1 ? `goodput report: ${runs[0]?.label}` : `goodput report: ${runs.map((r) => r.label).join(' vs ')}`}`,
    '',
    `Written by goodput ${input.generator} on ${when(input.generatedAt)}.`,
    '',
  );
  const decision = decisionView(runs.map((r) => ({ ...r.result, label: r.label })));
  if (decision !== null) out.push(...decisionMarkdown(decision, mdTable));
  const cmpRuns = runs.map(compareRunOfReport);
  const c = runs.length > 1 ? compareRuns(cmpRuns) : null;
  if (c !== null) {
    const m = paretoModel(cmpRuns);
    const at = input.target ?? defaultTarget(m);
    out.push('## Comparison', '', `${c.titles[0]} is the baseline.`, '', '### What differs', '', c.contractNote, '');
    out.push(
      c.diffs.length === 0
        ? 'Every compared field is the same in all runs.'
        : mdTable(
            ['Field', ...c.runs.map((r) => r.label)],
            c.diffs.map((d) => [`${d.field}${d.workload ? ' (workload)' : ''}`, ...d.values]),
          ),
      '',
    );
    out.push(
      '### Side by side',
      '',
      ...c.drawn.flatMap((note) => [`${note}.`, '']),
      mdTable(
        [c.axis, ...c.titles.flatMap((t) => [...c.headers, 'Status'].map((h) => `${t}: ${h}`))],
        c.rows.map((row) => [
          String(row.level),
          ...row.runs.flatMap((r) => (r === null ? [...c.headers.map(() => '—'), 'not measured'] : [...r.cells.map((x) => x.text), r.status])),
        ]),
      ),
      '',
    );
    out.push(`### Differences from ${c.runs[0]?.label}`, '');
    if (c.refused) out.push(c.refused, '');
    else
      for (const [i, cand] of c.runs.slice(1).entries()) {
        out.push(
          `${c.titles[i + 1] ?? cand.label} (candidate − baseline, 95 % bootstrap interval; better or worse only when it excludes zero and both measured the level validly):`,
          '',
        );
        const rows = c.rows.filter((r) => (r.differences[i]?.length ?? 0) > 0);
        const metrics = rows[0]?.differences[i]?.map((d) => d.metric) ?? [];
        out.push(
          mdTable(
            [c.axis, ...metrics.map(compareHeader)],
            rows.map((r) => [String(r.level), ...(r.differences[i] ?? []).map((d) => d.text)]),
          ),
          '',
        );
      }
    for (const { title, table: side } of sideTables(c))
      out.push(
        `### ${title}`,
        '',
        side.basis,
        '',
        mdTable(
          [c.axis, ...c.titles.flatMap((t) => side.headers.map((h) => `${t}: ${h}`))],
          side.rows.map((row) => [String(row.level), ...row.runs.flatMap((cells) => cells ?? side.headers.map(() => 'not measured'))]),
        ),
        '',
        ...side.notes.flatMap((x) => [`- ${x}`]),
        ...(side.notes.length === 0 ? [] : ['']),
      );
    if (c.quality !== null) {
      out.push(
        '### Quality',
        '',
        "Candidate − baseline of the composite, bootstrapped over the prompts; better or worse only when the interval excludes zero and the change exceeds the scores' own noise.",
        '',
        mdTable(
          ['Run', 'Quality score (± its own noise)', `Against ${c.runs[0]?.label}`],
          c.runs.map((r, i) => {
            const v = i === 0 ? undefined : c.quality?.verdicts[i - 1];
            return [r.label, c.quality?.scores[i] ?? '', v === undefined ? 'baseline' : qualityVerdictPhrase(v)];
          }),
        ),
        '',
      );
    }
    out.push(
      `### ${paretoTitle(m)}`,
      '',
      mdTable(
        ['Run', 'Level', 'tok/s per user', `Output tok/s per ${m.per}`, 'On frontier', 'State'],
        m.series.flatMap((s) => s.points.map((p) => [s.label, String(p.level), num(p.x), num(p.y), s.frontier.includes(p) ? 'yes' : 'no', p.state])),
      ),
      '',
    );
    if (at !== null) out.push(capacityAt(m, at).sentence, '');
  }
  const titles = c?.titles ?? runs.map((r) => r.label);
  for (const [i, r] of runs.entries()) {
    const res = r.result;
    out.push(`## ${drawnRunTitle(titles[i] ?? r.label, compareRunOfReport(r))}`, '', resultIdentity(res), '');
    for (const w of res.warnings) out.push(`- **Warning:** ${w.message}`);
    if (res.warnings.length > 0) out.push('');
    out.push('### Contract', '', mdTable(['Field', 'Value'], contractRows(res)), '');
    out.push(
      '### Results',
      '',
      tableCaption({ ...res.run, thinking: res.run.thinking === 'on' }, res.levels),
      '',
      mdTable(
        ['Concurrency', ...TABLE_HEADERS, 'Status'],
        tableRows(res.levels).map((row) => [String(row.concurrency), ...row.cells.map((x) => x.text), row.status]),
      ),
      '',
    );
    const spec = specDecodeRows(res.levels);
    if (spec.length > 0) out.push('### Speculative decoding', '', `${SPEC_DECODE_CAPTION}.`, '', mdTable(SPEC_DECODE_HEADERS, spec), '');
    const pools = disaggRoleRows(res.levels);
    const kv = disaggKvRows(res.levels);
    if (pools.length > 0) out.push('### Disaggregated pools', '', `${DISAGG_ROLE_CAPTION}.`, '', mdTable(DISAGG_ROLE_HEADERS, pools), '');
    if (kv.length > 0) out.push(`${DISAGG_KV_CAPTION}.`, '', mdTable(DISAGG_KV_HEADERS, kv), '');
    const adapters = adapterRows(res.levels);
    if (adapters.length > 0) out.push('### LoRA adapters', '', ADAPTER_CAPTION, '', mdTable(ADAPTER_HEADERS, adapters), '');
    const fleet = fleetRows(res.levels);
    if (fleet.length > 0) out.push('### By target', '', `${FLEET_CAPTION}.`, '', mdTable(FLEET_HEADERS, fleet), '');
    for (const g of ownChartGroups(res.levels)) {
      out.push(`### ${g.heading}`, '');
      for (const c of g.charts) out.push(`#### ${c.title}`, '', c.summary, '', mdTable(c.table.headers, c.table.rows), '');
    }
    out.push('### Client self-check', '', mdTable(SELF_CHECK_HEADERS, selfCheckRows(res.levels)), '');
    const held = inFlightRows(res.levels);
    if (held.length > 0) out.push('### Load held', '', `${IN_FLIGHT_CAPTION}.`, '', mdTable(IN_FLIGHT_HEADERS, held), '');
    const server = serverViewRows(res.levels);
    if (server.length > 0) out.push("### The server's own account", '', `${SERVER_VIEW_CAPTION}.`, '', mdTable(SERVER_VIEW_HEADERS, server), '');
    const energy = energyRows(res.levels);
    if (energy.length > 0) out.push('### Energy', '', ENERGY_CAPTION, '', mdTable(ENERGY_HEADERS, energy), '');
  }
  return `${out.join('\n')}\n`;
}
