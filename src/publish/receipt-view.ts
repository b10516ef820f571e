/**
 * The one view-model of a receipt: every number the page renders, in page
 * order, as ViewNumbers. The HTML renderer and the dataset.json serializer
 * both read this and nothing else, so what a visitor sees and what the
 * dataset says cannot drift apart.
 */
import { difference, meanStatistic } from '../core/index.js';
import { type BarChartInput, type Direction, barSubtitle, num, signedPct } from '../web/index.js';
import { directionOfMetric } from './pooling-figures.js';
import { kindOfReceipt } from './receipt-kinds.js';
import type { ConfigurationKey, Fact } from './fact.js';
import { type ReceiptPareto, receiptPareto } from './receipt-pareto.js';
import type { Receipt } from './receipt-schema.js';
import { type StandingView, standingView } from './standing-view.js';
import { type LevelState, type ViewNumber, digitsShowingChange, factById, sameDefinition, viewOfFact } from './view-number.js';

export interface HeadlineView {
  number: ViewNumber;
  direction: Direction | null;
  change: ViewNumber | null;
  changeWords: string | null;
  verdict: string | null;
  /** The verdict alone, for a small space (the share image): "better", "worse", "no difference established". */
  verdictWord: string | null;
}
export interface FactRowView {
  label: string;
  statistic: string;
  baseline: ViewNumber;
  optimized: ViewNumber;
  change: ViewNumber | null;
  changeWords: string | null;
  verdict: string | null;
}
export interface BarView {
  id: string;
  title: string;
  subtitle: string;
  input: BarChartInput;
  numbers: ViewNumber[];
}
export interface ReceiptView {
  receipt: Receipt;
  page: string;
  headlines: HeadlineView[];
  rows: FactRowView[];
  bars: BarView[];
  /** Per configuration, the per-level facts in curve order (the scaling charts' data). */
  levels: Record<ConfigurationKey, Array<{ concurrency: number; invalid: boolean; clientBound: boolean; numbers: ViewNumber[] }>>;
  quality: ViewNumber[];
  costRates: ViewNumber[];
  /** Throughput per GPU against speed per user, with the capacity answer beside it. */
  pareto: ReceiptPareto | null;
  /** Each number's standing and the run signatures (fact set 3); null for a receipt that states no signatures. */
  standing: StandingView | null;
}

const need = (r: Receipt, id: string): Fact => {
  const f = factById(r, id);
  if (!f) throw new Error(`receipt ${r.id} has no fact ${id}`);
  return f;
};

interface Change {
  change: ViewNumber | null;
  words: string | null;
  verdict: string | null;
  word: string | null;
}

/** A fact's value in each run that recorded it (run 1 alone for a single run). */
const recorded = (f: Fact): number[] => (f.runs ?? [f.value]).filter((v): v is number => v !== null);

/**
 * The change from baseline to optimized, only between identically defined,
 * recorded, non-zero figures that have a better direction, by the one rule of
 * core (difference): the change of the means of all runs of each side, its
 * 95 % interval bootstrapped over the runs on the same means (as a ratio, so a
 * cost never falls by more than 100 %), better or worse only when each side
 * ran at least three times and the interval excludes zero.
 */
function change(r: Receipt, to: Fact, from: Fact | null, direction: Direction | null): Change {
  const none = (words: string | null = null): Change => ({ change: null, words, verdict: null, word: null });
  if (from === null || direction === null) return none();
  if (!sameDefinition(from, to)) return none('no change stated: the two figures are defined differently');
  if (from.value === null || to.value === null) return none();
  const [b, o] = [recorded(from), recorded(to)];
  const d = difference({ direction, baseline: b, candidate: o, basis: 'runs', statistic: meanStatistic, digits: to.digits });
  if (d.pct === null || d.diff === null) return none();
  const pct = d.pct;
  const runs = Math.min(b.length, o.length);
  // With repeats the change is of the means, not of the first runs shown beside it: the means are stated with it.
  const means =
    Math.max(b.length, o.length) < 2
      ? null
      : (() => {
          const [mb, mo] = [meanStatistic(b) as number, meanStatistic(o) as number];
          const digits = digitsShowingChange(mb, mo, to.digits);
          const count = b.length === o.length ? `${b.length} runs a side` : `${b.length} and ${o.length} runs`;
          return `change of the means of ${count}: ${num(mb, digits)} → ${num(mo, digits)} ${to.unit}`;
        })();
  // A baseline resample whose mean is 0 has no ratio: the interval is then stated in the figure's unit.
  const signed = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${num(Math.abs(x), to.digits)}`;
  const bounds =
    d.pctLo !== null && d.pctHi !== null
      ? `${signedPct(d.pctLo)} to ${signedPct(d.pctHi)}`
      : d.lo !== null && d.hi !== null
        ? `${signed(d.lo)} to ${signed(d.hi)} ${to.unit}`
        : null;
  const interval = bounds === null ? null : `95 % interval ${bounds} over ${runs}+ runs a side`;
  const why = [interval, means].filter((x): x is string => x !== null).join('; ');
  const verdict =
    d.verdict === 'better' || d.verdict === 'worse' ? `${d.verdict} (${why})` : `no difference established (${[d.why, why].filter(Boolean).join('; ')})`;
  const n: ViewNumber = {
    id: `${r.id}/change/${to.id}`,
    label: `${to.label}: change against the baseline`,
    value: pct,
    text: signedPct(pct),
    unit: '%',
    statistic:
      means === null ? `change of the ${to.statistic} against the baseline` : `change of the mean over the runs of the ${to.statistic} against the baseline`,
    provenance: 'derived',
    configuration: viewOfFact(r, to).configuration,
    note: `derived from ${from.id} and ${to.id}${why === '' ? '' : `; ${why}`}`,
    derivedFrom: [`${r.id}/${from.id}`, `${r.id}/${to.id}`],
    ...(d.pctLo !== null && d.pctHi !== null ? { interval: { low: d.pctLo, high: d.pctHi } } : {}),
  };
  return { change: n, words: `${signedPct(pct)}, ${verdict}`, verdict, word: d.verdict };
}

const directionOf = (f: Fact): Direction | null => directionOfMetric(f.metric);

/** `measurers`: the key ids the site lists as measurers, which a receipt's standings rest on (standing.ts). */
export function receiptView(r: Receipt, measurers: ReadonlySet<string> = new Set()): ReceiptView {
  const headlines = r.headlines.map((h) => {
    const to = need(r, h.factId);
    const direction = directionOf(to);
    const c = change(r, to, h.baselineFactId === null ? null : need(r, h.baselineFactId), direction);
    return { number: viewOfFact(r, to), direction, change: c.change, changeWords: c.words, verdict: c.verdict, verdictWord: c.word };
  });
  const page = kindOfReceipt(r).page;
  const rows = page.factRows(r).map(({ key, def }) => {
    const b = need(r, `baseline.${key}`);
    const o = need(r, `optimized.${key}`);
    const c = change(r, o, b, def.direction);
    return {
      label: def.label,
      statistic: o.statistic,
      baseline: viewOfFact(r, b),
      optimized: viewOfFact(r, o),
      change: c.change,
      changeWords: c.words,
      verdict: c.verdict,
    };
  });
  const bars = r.charts.map((chart) => {
    const facts = chart.factIds.map((id) => need(r, id));
    const first = facts[0] as Fact;
    const input: BarChartInput = {
      label: first.label,
      unit: first.unit,
      statistic: first.statistic,
      direction: directionOf(first),
      digits: first.digits,
      bars: facts.map((f) => ({
        label: f.configuration === 'baseline' ? 'baseline' : 'optimized',
        role: f.configuration === 'baseline' ? 'baseline' : 'candidate',
        value: f.value,
      })),
    };
    return { id: chart.id, title: chart.title, subtitle: barSubtitle(input), input, numbers: facts.map((f) => viewOfFact(r, f)) };
  });
  const levels = Object.fromEntries(
    (['baseline', 'optimized'] as const).map((cfg) => [
      cfg,
      r.curves[cfg].map((p) => {
        const levelState: LevelState = p.invalid ? 'invalid' : p.clientBound ? 'client-bound' : 'valid';
        return { ...p, numbers: r.facts.filter((f) => f.id.startsWith(`${cfg}.c${p.concurrency}.`)).map((f) => ({ ...viewOfFact(r, f), levelState })) };
      }),
    ]),
  ) as ReceiptView['levels'];
  const quality = r.facts.filter((f) => f.id.startsWith('optimized.quality')).map((f) => viewOfFact(r, f));
  const costRates = (['baseline', 'optimized'] as const).map((cfg) => viewOfFact(r, need(r, `${cfg}.hourlyRate`)));
  return {
    receipt: r,
    page: `${r.id}.html`,
    headlines,
    rows,
    bars,
    levels,
    quality,
    costRates,
    pareto: page.pareto ? receiptPareto(r, levels) : null,
    standing: standingView(r, measurers),
  };
}

/** Every number a receipt page renders, each once. */
export function receiptNumbers(v: ReceiptView): ViewNumber[] {
  const all = [
    ...v.headlines.flatMap((h) => [h.number, h.change]),
    ...v.rows.flatMap((r) => [r.baseline, r.optimized, r.change]),
    ...v.bars.flatMap((b) => b.numbers),
    ...v.levels.baseline.flatMap((l) => l.numbers),
    ...v.levels.optimized.flatMap((l) => l.numbers),
    ...v.quality,
    ...v.costRates,
    ...(v.pareto?.gpus ?? []),
    ...(v.pareto?.capacity ?? []).flatMap((c) => [c.y, c.cost]),
  ].filter((n): n is ViewNumber => n !== null);
  return [...new Map(all.map((n) => [n.id, n])).values()];
}
