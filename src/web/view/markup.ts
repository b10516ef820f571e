/**
 * The page's tables, cards and figure frames as HTML text, from the view
 * models: the live page inserts this markup (and draws each chart's SVG into
 * its frame), `goodput report` writes it with the SVG already drawn. One
 * renderer, so a report and the page cannot show different things.
 * Every interpolated string is escaped.
 */
import { type LevelResult, levelAxis } from '../../core/index.js';
import type { CardView } from './cards-model.js';
import { type Comparison, type SideTable, compareHeader } from './compare-model.js';
import type { CapacityAnswer, CapacityEntry, ParetoModel } from './pareto.js';
import { PARETO_FOOTNOTE, type ParetoCell, paretoLegend, paretoSubtitle, paretoTable, paretoTitle } from './pareto-chart.js';
import { num, usd } from './format.js';
import { type LevelBadge, type LiveLevel, TABLE_HEADERS, tableRows } from './table-model.js';

export const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Markup already escaped. */
export class Raw {
  constructor(readonly html: string) {}
}
/** Tagged template: strings and numbers escaped, arrays joined, Raw passed through, null/false/undefined dropped. */
export function html(parts: TemplateStringsArray, ...values: unknown[]): Raw {
  const piece = (v: unknown): string =>
    v instanceof Raw ? v.html : Array.isArray(v) ? v.map(piece).join('') : v === null || v === undefined || v === false ? '' : esc(String(v));
  return new Raw(parts.reduce((out, p, i) => out + p + (i < values.length ? piece(values[i]) : ''), ''));
}

/** A wide table's frame: it scrolls sideways on its own (shadows at the edges say there is more), and is reachable by keyboard. */
export const scrollFrame = (label: string, inner: Raw): Raw =>
  html`<div class="table-wrap" role="region" tabindex="0" aria-label="${label} (scrolls sideways when wider than the window)">${inner}</div>`;

export interface ResultsTableInput {
  levels: readonly LevelResult[];
  caption: Raw | string;
  planned?: readonly number[];
  live?: LiveLevel | null;
}

/**
 * A level's status cell: a short badge ("client-bound", "failed 3"), its full
 * reason in a details element (and the badge's title) so a long reason never
 * makes the row tall; plain text for an ok or pending level.
 */
export function statusCell(badge: LevelBadge | null, status: string): Raw {
  if (badge === null || badge.reason === null) return html`<td class="status">${badge?.text ?? status}</td>`;
  return html`<td class="status"><details class="reason"><summary title="${badge.reason}"><span class="badge ${badge.tone}">${badge.text}</span></summary><p class="reason-text">${badge.reason}</p></details></td>`;
}

/** A column of a kind's per-level table: its header and a level's cell (text, or markup already escaped); numeric unless `text`. */
export interface LevelColumn<L> {
  header: string;
  cell(l: L): string | Raw;
  text?: boolean;
}

/** A row of a per-level table: its class, its level (the row header) and its cells, drawn. */
export interface LevelRow {
  class: string;
  head: string;
  cells: Raw;
}

/** A per-level table of any kind in its scrolling frame: the caption, the level axis as row headers, numeric columns right-aligned. */
export function levelsTableMarkup(caption: Raw | string, headers: ReadonlyArray<Pick<LevelColumn<never>, 'header' | 'text'>>, rows: readonly LevelRow[]): Raw {
  const th = (h: (typeof headers)[number], i: number) =>
    i === 0 || h.text ? html`<th scope="col">${h.header}</th>` : html`<th scope="col" class="num">${h.header}</th>`;
  const table = html`<table class="results"><caption>${caption}</caption>
<thead><tr>${headers.map(th)}</tr></thead>
<tbody>${rows.map((r) => html`<tr class="${r.class}"><th scope="row" class="num">${r.head}</th>${r.cells}</tr>`)}</tbody></table>`;
  return scrollFrame('Results table', table);
}

/** A kind's table from its own columns: a row per level by concurrency, one with failed requests marked invalid. */
export function kindTableMarkup<L extends { concurrency: number; failed: number }>(
  caption: string,
  columns: ReadonlyArray<LevelColumn<L>>,
  levels: readonly L[],
): Raw {
  const rows = levels.map((l) => ({
    class: l.failed > 0 ? 'invalid' : '',
    head: String(l.concurrency),
    cells: html`${columns.map((c) => (c.text ? html`<td>${c.cell(l)}</td>` : html`<td class="num">${c.cell(l)}</td>`))}`,
  }));
  return levelsTableMarkup(caption, [{ header: 'Concurrency' }, ...columns], rows);
}

/** The text results table: the level axis as the row header, the seed's columns, an invalid level's averages struck through, its reason in its own cell. */
export function resultsTableMarkup(t: ResultsTableInput): Raw {
  const axis = levelAxis(t.levels);
  const rows = tableRows(t.levels, t.planned ?? [], t.live ?? null).map((r) => ({
    class: `${r.state}${r.invalid ? ' invalid' : ''}${r.clientBound ? ' client-bound' : ''}`,
    head: axis.format(r.concurrency),
    cells: html`${r.cells.map(
      (c) =>
        html`<td class="num${c.dimmed ? ' dim' : ''}">${
          c.alarm ? html`<strong class="alarm"><span aria-hidden="true">⚠ </span>${c.text}</strong>` : c.text
        }${c.dimmed ? html`<span class="sr-only"> (invalid)</span>` : ''}</td>`,
    )}${statusCell(r.badge, r.status)}`,
  }));
  return levelsTableMarkup(t.caption, [{ header: axis.name }, ...TABLE_HEADERS.map((header) => ({ header })), { header: 'Status', text: true }], rows);
}

/** Cards (a kind's own, or the text run's three), each a section headed by its name. */
export function cardsMarkup(cards: readonly CardView[]): Raw {
  return html`<div class="cards">${cards.map(
    (c) =>
      html`<section class="card" aria-labelledby="card-${c.title}"><h4 id="card-${c.title}">${c.title}</h4><p class="question">${c.question}</p>${
        c.unavailable ? html`<p class="hint">Not available: ${c.unavailable}</p>` : ''
      }<dl>${c.facts.map((f) => html`<div class="${f.label === 'Basis' ? 'basis' : ''}"><dt>${f.label}</dt><dd>${f.value}${f.note ? html`<span class="note"> ${f.note}</span>` : ''}</dd></div>`)}</dl></section>`,
  )}</div>`;
}

export interface FigureInput {
  /** The figure's element id, when a page links to it. */
  id?: string;
  title: string;
  subtitle: string;
  legend?: string | Raw | undefined;
  footnote?: string | undefined;
  /** Cells are text, or markup already escaped (a receipt's marked facts). */
  table: { headers: string[]; rows: Array<Array<string | Raw>> };
  /** The drawn SVG (the report), or empty: the page draws into `.chart-svg` at the width it has. */
  svg?: string;
}

/** A chart as a figure: title and "unit · direction", the SVG, and its data as a table in a details element. */
export function figureMarkup(f: FigureInput): Raw {
  return html`<figure class="chart"${new Raw(f.id === undefined ? '' : ` id="${esc(f.id)}"`)}><figcaption><strong>${f.title}</strong><span class="subtitle">${f.subtitle}</span>${f.legend ? html`<span class="legend">${f.legend}</span>` : ''}</figcaption>
<div class="chart-svg">${new Raw(f.svg ?? '')}</div>${f.footnote ? html`<p class="hint footnote">${f.footnote}</p>` : ''}
<details><summary>Data table: ${f.title}</summary>${scrollFrame(
    `Data of ${f.title}`,
    html`<table><thead><tr>${f.table.headers.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead><tbody>${f.table.rows.map(
      (r) => html`<tr>${r.map((c, i) => (i === 0 ? html`<th scope="row">${c}</th>` : html`<td class="num">${c}</td>`))}</tr>`,
    )}</tbody></table>`,
  )}</details></figure>`;
}

/** What differs between the runs (model file, precision, quantization, engine, server settings, every other contract field), one column per run: shown before any number. */
export function contractDiffsMarkup(c: Comparison): Raw {
  const note = html`<p class="contract-note">${c.contractNote}</p>`;
  if (c.diffs.length === 0) return html`${note}<p>The runs are the same in every compared field.</p>`;
  return html`${note}${scrollFrame(
    'What differs',
    html`<table class="diffs"><caption>Fields that differ between the runs. A workload field (marked) stops the differences below.</caption><thead><tr><th scope="col" class="sticky">Field</th>${c.runs.map(
      (r, i) => html`<th scope="col">${r.label}${i === 0 ? ' (baseline)' : ''}</th>`,
    )}</tr></thead><tbody>${c.diffs.map(
      (d) => html`<tr><th scope="row" class="sticky">${d.field}${d.workload ? ' (workload)' : ''}</th>${d.values.map((v) => html`<td>${v}</td>`)}</tr>`,
    )}</tbody></table>`,
  )}`;
}

/** Which run each repeat set's tables and charts draw (the first of its runs): nothing when every compared run is one run. */
export function drawnMarkup(c: Comparison): Raw {
  return html`${c.drawn.map((note) => html`<p class="hint drawn-run">${note}.</p>`)}`;
}

/** One table aligned on the level axis, a column group per run (named by what sets it apart), every figure with its statistic; the level column stays in view. */
export function compareTableMarkup(c: Comparison): Raw {
  const n = c.headers.length + 1;
  const head = html`<thead><tr><th scope="col" rowspan="2" class="sticky">${c.axis}</th>${c.runs.map((_, i) => html`<th scope="colgroup" colspan="${n}" class="group">${c.titles[i]}${i === 0 ? ' (baseline)' : ''}</th>`)}</tr>
<tr>${c.runs.map(() => html`${c.headers.map((h) => html`<th scope="col" class="num">${h}</th>`)}<th scope="col">Status</th>`)}</tr></thead>`;
  const body = c.rows.map(
    (row) =>
      html`<tr><th scope="row" class="num sticky">${row.level}</th>${row.runs.map((r) =>
        r === null
          ? html`<td class="num na" colspan="${n}">not measured at this level</td>`
          : html`${r.cells.map((cell) => html`<td class="num${cell.invalid ? ' dim' : ''}">${cell.text}</td>`)}${statusCell(r.badge, r.status)}`,
      )}</tr>`,
  );
  return scrollFrame(
    'Aligned comparison',
    html`<table class="compare"><caption>Every run at every level on one axis (${c.axis.toLowerCase()}). Throughput is output tokens ÷ level duration; per-request is the mean of each request's rate; latencies are percentiles of successful requests. All measured.</caption>${c.runs.map(
      () => html`<colgroup span="${n}"></colgroup>`,
    )}${head}<tbody>${body}</tbody></table>`,
  );
}

/** Each per-level table's class on the page (its notes' list adds -notes). */
const SIDE_CLASSES: Record<SideTable['key'], string> = { serverSide: 'server-side', pools: 'pools', fleet: 'fleet-targets' };

/** One of the comparison's per-level tables (speculative decoding and energy, pools, fleet targets): a column group per run, then what needs saying of its figures. */
export function sideTableMarkup(c: Comparison, t: SideTable): Raw {
  const s = t.table;
  const n = s.headers.length;
  const head = html`<thead><tr><th scope="col" rowspan="2" class="sticky">${c.axis}</th>${c.runs.map((_, i) => html`<th scope="colgroup" colspan="${n}" class="group">${c.titles[i]}${i === 0 ? ' (baseline)' : ''}</th>`)}</tr>
<tr>${c.runs.map(() => s.headers.map((h) => html`<th scope="col" class="num">${h}</th>`))}</tr></thead>`;
  const body = s.rows.map(
    (row) =>
      html`<tr><th scope="row" class="num sticky">${row.level}</th>${row.runs.map((cells) =>
        cells === null ? html`<td class="num na" colspan="${n}">not measured at this level</td>` : cells.map((x) => html`<td class="num">${x}</td>`),
      )}</tr>`,
  );
  const cls = SIDE_CLASSES[t.key];
  return html`${scrollFrame(t.title, html`<table class="compare ${cls}"><caption>${s.basis}</caption>${head}<tbody>${body}</tbody></table>`)}${
    s.notes.length === 0 ? '' : html`<ul class="${cls}-notes">${s.notes.map((x) => html`<li>${x}</li>`)}</ul>`
  }`;
}

/** Each candidate's differences from the baseline, level by level, with their intervals and verdicts. */
export function differencesMarkup(c: Comparison): Raw {
  if (c.refused) return html`<p class="banner bad">${c.refused}</p>`;
  const base = c.titles[0] ?? c.runs[0]?.label ?? '';
  return html`${c.runs.slice(1).map((cand, i) => {
    const rows = c.rows.filter((r) => r.differences[i] && (r.differences[i]?.length ?? 0) > 0);
    const metrics = rows[0]?.differences[i]?.map((d) => d.metric) ?? [];
    const title = c.titles[i + 1] ?? cand.label;
    if (rows.length === 0) return html`<p class="hint">${title} and ${base} share no level: nothing to difference.</p>`;
    return scrollFrame(
      `Differences of ${cand.label}`,
      html`<table class="deltas"><caption>${title} against ${base} (candidate − baseline) at each level both measured, with a 95 % bootstrap interval; better or worse only when the interval excludes zero and both measured the level validly (not invalid, not client-bound).</caption><thead><tr><th scope="col" class="sticky">${c.axis}</th>${metrics.map(
        (m) => html`<th scope="col">${compareHeader(m)}</th>`,
      )}</tr></thead><tbody>${rows.map((r) => {
        const ds = r.differences[i] ?? [];
        // A level not compared is not compared in any figure: said once, across the row.
        const none = ds[0]?.difference.verdict === 'not compared' && ds.every((d) => d.verdict === ds[0]?.verdict);
        return html`<tr><th scope="row" class="num sticky">${r.level}</th>${
          none
            ? html`<td class="diff verdict-not-compared" colspan="${ds.length}"><span class="verdict">${ds[0]?.verdict}</span></td>`
            : ds.map(
                (d) =>
                  html`<td class="diff verdict-${d.difference.verdict.replace(/ /g, '-')}"><span class="verdict">${d.verdict}</span> <span class="change">${d.change}</span>${d.interval ? html`<span class="ci">${d.interval}</span>` : ''}</td>`,
              )
        }</tr>`;
      })}</tbody></table>`,
    );
  })}`;
}

/** Each run's quality score and each candidate's verdict against the baseline's, the scores' own noise beside it; empty when no run carries a score. */
export function qualityMarkup(c: Comparison): Raw {
  const q = c.quality;
  if (q === null) return html``;
  const base = c.runs[0]?.label ?? '';
  return scrollFrame(
    'Quality',
    html`<table class="deltas quality-compare"><caption>Quality score of each run (goodput run --quality-baseline) and each run against ${base}: candidate − baseline of the composite, bootstrapped over the prompts; better or worse only when the interval excludes zero and the change exceeds the scores' own noise.</caption><thead><tr><th scope="col">Run</th><th scope="col" class="num">Quality score (± its own noise)</th><th scope="col">Against ${base}</th></tr></thead><tbody>${c.runs.map(
      (r, i) => {
        const v = i === 0 ? null : q.verdicts[i - 1];
        const cell =
          v === null || v === undefined
            ? html`<td>baseline</td>`
            : html`<td class="diff verdict-${(v.difference?.verdict ?? 'not compared').replace(/ /g, '-')}"><span class="verdict">${v.verdict}</span>${v.change === null ? '' : html` <span class="change">${v.change}</span>`}${v.noise === null ? '' : html`<span class="ci">the scores' own noise ±${v.noise.toFixed(4)}</span>`}</td>`;
        return html`<tr><th scope="row">${r.label}</th><td class="num">${q.scores[i]}</td>${cell}</tr>`;
      },
    )}</tbody></table>`,
  );
}

/** The Pareto chart's figure (its SVG drawn by renderPareto); `cell` writes a point's plotted values (a receipt marks them as facts). */
export const paretoFigure = (m: ParetoModel, svg = '', cell?: ParetoCell<Raw>): FigureInput => ({
  title: paretoTitle(m),
  subtitle: paretoSubtitle(m),
  legend: paretoLegend(m),
  footnote: PARETO_FOOTNOTE,
  table: cell === undefined ? paretoTable(m) : paretoTable(m, cell),
  svg,
});

/** How an entry's figures are written in the capacity table: as text by default; a receipt marks them as its published numbers. */
export type CapacityCell = (entry: CapacityEntry, index: number, what: 'y' | 'cost') => Raw | null;

/** The capacity answer at the target: the sentence, then every run's figure there and how it was found. */
export function capacityMarkup(m: ParetoModel, answer: CapacityAnswer | null, cell?: CapacityCell): Raw {
  if (answer === null) return html`<p class="hint">No valid level to answer a capacity question from.</p>`;
  return html`<p class="capacity"><strong>${answer.sentence}</strong></p>${scrollFrame(
    'Capacity at the target',
    html`<table class="capacity-table"><caption>At ${num(answer.target)} tok/s per user: each run's output tok/s per ${m.per}, read on its frontier (interpolated between measured levels, never extrapolated).</caption><thead><tr><th scope="col">Run</th><th scope="col" class="num">Output tok/s per ${m.per}</th><th scope="col">How</th><th scope="col" class="num">USD per 1M output tokens</th></tr></thead><tbody>${answer.entries.map(
      (e, i) =>
        html`<tr><th scope="row">${e.label}</th><td class="num">${cell?.(e, i, 'y') ?? num(e.y)}</td><td>${e.how}</td><td class="num">${
          cell?.(e, i, 'cost') ?? (e.costPer1M === null ? (e.y === null ? '—' : 'no hourly cost') : usd(e.costPer1M))
        }</td></tr>`,
    )}</tbody></table>`,
  )}`;
}
