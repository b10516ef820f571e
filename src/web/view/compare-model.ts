/**
 * Comparing 2–8 runs: the contract fields that differ (listed first; when the
 * workload differs no differences are computed), one table aligned on the
 * level axis with a column group per run, and each candidate's difference
 * from the baseline (the first run) with its bootstrap interval and the one
 * verdict rule of core (better/worse only when the interval excludes zero):
 * over repeats, the change of the means of all runs with its interval on the
 * same means; else the shown figures' change with the records' interval.
 * The page, the CLI and the report all read this model.
 */
import {
  type Difference,
  type LevelResult,
  type QualityScore,
  type RequestRecord,
  type RunInfo,
  type SweepResult,
  MIN_REPEATS,
  difference,
  e2eMs,
  meanStatistic,
  percentileStatistic,
  levelAxis,
  levelValue,
  perRequestTokS,
  tpotMs,
  ttftMs,
} from '../../core/index.js';
import { type QualityComparison, compareQuality } from './compare-quality.js';
import { type ServerSideComparison, compareServerSide } from './compare-server.js';
import { compareFleet, comparePools } from './compare-parts.js';
import { firstRunOfSet } from './repeat-sets.js';
import { type ContractDiff, type DiffSource, contractDiffs, contractNote, runTitles } from './what-differs.js';

export type { ContractDiff };
import { num, signedPct } from './format.js';
import { METRICS, type MetricKey } from './metrics.js';
import { type LevelBadge, levelBadge, statusText } from './table-model.js';

/** Runs a comparison takes: at least two, at most eight (more columns than any screen reads). */
export const COMPARE_MIN_RUNS = 2;
export const COMPARE_MAX_RUNS = 8;

/** What a compared run contributes: its contract, levels, raw records and any repeats of the same contract. */
export interface CompareRun extends DiffSource {
  /** "run 3" or the result file's name. */
  label: string;
  run: RunInfo;
  levels: readonly LevelResult[];
  /** The per-request records of run 1 (warm-ups included); absent when the result did not keep them. */
  records?: readonly RequestRecord[] | undefined;
  /** Runs 2..N of the same contract (goodput run --repeats N). */
  repeats?: ReadonlyArray<{ levels: readonly LevelResult[] }> | undefined;
  /** The quality score measured in the run (goodput run --quality-baseline). */
  quality?: QualityScore | undefined;
  /** The contract's cost per successful 1M (hourly cost, overheads, utilisation): the self-hosted side of a decision. */
  businessCost?: SweepResult['businessCost'];
}

/** A result as a compared run: every view builds its runs here, so none leaves out a field the others compare. */
export const compareRunOf = (label: string, r: SweepResult): CompareRun => ({
  label,
  run: r.run,
  levels: r.levels,
  records: r.records,
  repeats: r.repeats,
  contract: r.contract,
  contractHash: r.contractHash,
  serverAccount: r.serverAccount,
  quality: r.quality,
  businessCost: r.businessCost,
});

/** Why no differences are computed (the workloads differ), or null when the runs are comparable. */
export function incomparableReason(runs: readonly CompareRun[], diffs: readonly ContractDiff[]): string | null {
  const w = diffs.filter((d) => d.workload);
  if (w.length === 0) return null;
  const said = w.map((d) => `${d.field}: ${d.values.map((v, i) => `${v} (${runs[i]?.label})`).join(' vs ')}`).join('; ');
  return `The workloads differ (${said}), so no differences are computed: the figures do not measure the same thing.`;
}

/** A level's place on the run's axis (concurrency, speed, rate, …). */
export const levelKey = levelValue;

/** The level axis's name: what the level number counts (core's levelAxis, as every table names it). */
export const axisName = (runs: readonly CompareRun[]): string => levelAxis(runs[0]?.levels ?? []).name;

/** The figures compared, each with the per-request value its statistic is computed from. */
export type ComparedKey = 'throughput' | 'perRequest' | 'ttftP50' | 'ttftP95' | 'tpotP50' | 'e2eP50';
export const COMPARE_METRICS: readonly ComparedKey[] = ['throughput', 'perRequest', 'ttftP50', 'ttftP95', 'tpotP50', 'e2eP50'];

type Sampler = { value(r: RequestRecord): number | null; statistic: (xs: ArrayLike<number>) => number | null };
const SAMPLERS: Record<ComparedKey, Sampler> = {
  throughput: { value: perRequestTokS, statistic: meanStatistic },
  perRequest: { value: perRequestTokS, statistic: meanStatistic },
  ttftP50: { value: ttftMs, statistic: percentileStatistic(50) },
  ttftP95: { value: ttftMs, statistic: percentileStatistic(95) },
  tpotP50: { value: tpotMs, statistic: percentileStatistic(50) },
  e2eP50: { value: e2eMs, statistic: percentileStatistic(50) },
};

function samples(run: CompareRun, level: LevelResult, key: ComparedKey): number[] {
  const s = SAMPLERS[key];
  const out: number[] = [];
  for (const r of run.records ?? []) {
    if (r.warmup || r.concurrency !== level.concurrency || r.outcome.kind !== 'ok') continue;
    const v = s.value(r);
    if (v !== null && Number.isFinite(v)) out.push(v);
  }
  if (key === 'throughput') {
    // At a fixed level throughput moves with the requests' rates: each rate, scaled so their mean is the level's
    // throughput, resamples into a throughput (output tokens alone do not vary when the length is forced).
    const mean = meanStatistic(out) ?? 0;
    return mean > 0 ? out.map((v) => (v * level.throughputTokS) / mean) : [];
  }
  return out;
}

/** Why a run's level cannot be compared (invalid: too many failures; client-bound: our client lagged, so its timings are not the server's), or null when it was measured validly. */
export function unmeasuredReason(label: string, l: LevelResult): string | null {
  if (l.invalid) return `${label} is invalid at this level${l.failed > 0 ? ` (${l.failed} failed)` : ''}`;
  if (l.clientBound.bound) return `${label} is client-bound at this level (our client was the bottleneck, not the server)`;
  return null;
}

/** The level at `key` in each of a run's runs (run 1 and its repeats), those measured validly only. */
function runValues(run: CompareRun, key: number, metric: MetricKey): number[] {
  const all = [run.levels, ...(run.repeats ?? []).map((r) => r.levels)];
  return all.flatMap((levels) => {
    const l = levels.find((x) => levelKey(x) === key);
    const v = l && unmeasuredReason('', l) === null ? METRICS[metric].value(l) : null;
    return v === null ? [] : [v];
  });
}

export interface CellDifference {
  metric: ComparedKey;
  difference: Difference;
  /** The whole sentence (terminal, Markdown). */
  text: string;
  /** Its parts, for a table cell: "+20.1 tok/s (+5.0 %)", "95 % interval … over requests" (or null), "better" / "no difference established (…)". */
  change: string;
  interval: string | null;
  verdict: string;
}

/**
 * One figure's difference (candidate − baseline) at one level: over the runs
 * when each side has ≥ 3, else over the request records; never across a level either side
 * measured invalid or client-bound.
 */
export function levelDifference(base: CompareRun, cand: CompareRun, key: number, metric: ComparedKey): CellDifference | null {
  const a = base.levels.find((l) => levelKey(l) === key);
  const b = cand.levels.find((l) => levelKey(l) === key);
  if (!a || !b) return null;
  const m = METRICS[metric];
  // A verdict only where both sides measured the level validly: the cards leave the others out, and so does this.
  const why = [unmeasuredReason(base.label, a), unmeasuredReason(cand.label, b)].filter((x) => x !== null).join('; ');
  if (why !== '') {
    const none: Difference = { diff: null, pct: null, lo: null, hi: null, pctLo: null, pctHi: null, verdict: 'not compared', basis: 'single values', why };
    return { metric, difference: none, text: differenceText(none, m.unit, m.digits), ...differenceParts(none, m.unit, m.digits) };
  }
  const ra = runValues(base, key, metric);
  const rb = runValues(cand, key, metric);
  const byRuns = ra.length >= MIN_REPEATS && rb.length >= MIN_REPEATS;
  const computed = byRuns
    ? difference({ direction: m.direction, baseline: ra, candidate: rb, basis: 'runs', statistic: meanStatistic, digits: m.digits })
    : difference({
        direction: m.direction,
        baseline: samples(base, a, metric),
        candidate: samples(cand, b, metric),
        basis: 'requests',
        statistic: SAMPLERS[metric].statistic,
        digits: m.digits,
        // The point is the figures the tables show; the records give the interval around it.
        point: [m.value(a), m.value(b)],
      });
  // Say which side kept no records, rather than how many values the bootstrap lacked.
  const noRecords = [base, cand].filter((r) => r.records === undefined || r.records.length === 0).map((r) => r.label);
  const d =
    !byRuns && computed.basis === 'single values' && noRecords.length > 0
      ? { ...computed, why: `no request records kept in ${noRecords.join(' and ')}, so no interval` }
      : computed;
  const runs = byRuns ? Math.min(ra.length, rb.length) : null;
  return { metric, difference: d, text: differenceText(d, m.unit, m.digits, runs), ...differenceParts(d, m.unit, m.digits, runs) };
}

const signed = (x: number, digits: number) => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${num(Math.abs(x), digits)}`;

/** The parts of a difference in words: the change, its interval, the verdict. */
export function differenceParts(
  d: Difference,
  unit: string,
  digits: number,
  runs: number | null = null,
): Pick<CellDifference, 'change' | 'interval' | 'verdict'> {
  if (d.diff === null) return { change: '—', interval: null, verdict: `not compared: ${d.why}` };
  const shown = Number(d.diff.toFixed(digits)) === 0 ? 0 : d.diff;
  const pct = d.pct === null || shown === 0 ? '' : ` (${signedPct(d.pct)})`;
  // The share's interval comes from the same resamples as a ratio: stated beside the unit's.
  const pctInterval = d.pctLo === null || d.pctHi === null || pct === '' ? '' : ` (${signedPct(d.pctLo)} to ${signedPct(d.pctHi)})`;
  const interval =
    d.lo === null || d.hi === null
      ? null
      : `95 % interval ${signed(d.lo, digits)} to ${signed(d.hi, digits)}${pctInterval} over ${d.basis === 'runs' ? `${runs ?? MIN_REPEATS}+ runs a side` : 'requests'}`;
  const verdict = d.verdict === 'better' || d.verdict === 'worse' ? d.verdict : `no difference established (${d.why})`;
  // Over runs the change is of the means of all runs, not of the first runs the table shows.
  return { change: `${signed(shown, digits)} ${unit}${pct}${d.basis === 'runs' ? ' in the means of all runs' : ''}`, interval, verdict };
}

/** "+20.1 tok/s (+5.0 %), 95 % interval +12.0 to +28.3 over requests: better". */
export function differenceText(d: Difference, unit: string, digits: number, runs: number | null = null): string {
  const p = differenceParts(d, unit, digits, runs);
  return d.diff === null ? p.verdict : `${p.change}${p.interval ? `, ${p.interval}` : ''}: ${p.verdict}`;
}

export interface CompareCell {
  text: string;
  status: string | null;
  invalid: boolean;
  clientBound: boolean;
}
export interface CompareRow {
  level: number;
  /** Per run, the level's figures in COMPARE_METRICS order plus Failed (or null when that run did not measure the level). */
  runs: Array<{ cells: CompareCell[]; status: string; badge: LevelBadge } | null>;
  /** Per candidate (runs 2..N), each figure's difference from the baseline; empty when the workloads differ. */
  differences: Array<CellDifference[] | null>;
}

export interface Comparison {
  runs: readonly CompareRun[];
  /** Each run's name in headers: its label and what sets it apart from the others. */
  titles: string[];
  /** The contracts themselves: the same (sha256), different, or not recorded. */
  contractNote: string;
  diffs: ContractDiff[];
  /** Set when the workloads differ: no differences are computed. */
  refused: string | null;
  axis: string;
  /** The column headers of each run's group, statistic and unit included. */
  headers: string[];
  rows: CompareRow[];
  /** Each run's quality score and each candidate's verdict; null when no run carries a score. */
  quality: QualityComparison | null;
  /** For each compared run that holds several (a repeat set, a --repeats result), which of them the tables and charts draw. */
  drawn: string[];
  /** The runs' speculative decoding and energy per level, with their validity; null when no run carries either. */
  serverSide: ServerSideComparison | null;
  /** A disaggregated server's pools per level and run (tokens/s, per GPU, KV transfer, TTFT split); null when no run carries them. */
  pools: ServerSideComparison | null;
  /** A fleet's targets per level and run (requests, failures, throughput, TTFT), from the records; null when no run routed over several targets. */
  fleet: ServerSideComparison | null;
}

/** A table of figures stated once per level and run: which of the comparison's fields, and its title in every view. */
export interface SideTable {
  key: 'serverSide' | 'pools' | 'fleet';
  title: string;
  table: ServerSideComparison;
}

const SIDE_TITLES: Record<SideTable['key'], string> = {
  serverSide: 'Speculative decoding and energy',
  pools: 'Disaggregated pools',
  fleet: 'Fleet targets',
};

/** The comparison's per-level tables that some run carries, in the order the terminal, the page and the report show them. */
export function sideTables(c: Comparison): SideTable[] {
  return (['serverSide', 'pools', 'fleet'] as const).flatMap((key) => {
    const table = c[key];
    return table === null ? [] : [{ key, title: SIDE_TITLES[key], table }];
  });
}

/** How many runs a compared run holds: 1, or its first with its repeats. */
const runCount = (r: CompareRun): number => 1 + (r.repeats?.length ?? 0);

/** The run drawn first: a set's first stored run, or run 1 of a result file holding its repeats. */
const firstRun = (r: CompareRun): string => firstRunOfSet(r.label) ?? 'run 1';

/**
 * Which of a compared run's runs the tables and charts draw, or null when it holds one: a repeat set (or a
 * `goodput run --repeats` result) is drawn by its first run, its levels, statuses and score being that run's;
 * only its differences are computed over all its runs, and then only where the rule of levelDifference allows.
 */
export function drawnRunNote(r: CompareRun): string | null {
  const n = runCount(r);
  if (n === 1) return null;
  const first = firstRun(r);
  // A set's score is its first stored run's; a --repeats result's score was measured of the whole set.
  const score = r.quality !== undefined && firstRunOfSet(r.label) !== null;
  return (
    `${r.label}: the tables, statuses${score ? ', quality score' : ''} and charts show ${first}, the first of its ${n} runs; ` +
    `its differences are over all ${n} (their means) where both sides measured a level validly in at least ${MIN_REPEATS} runs, else over ${first}'s requests`
  );
}

/** A run's heading where its own tables follow: its title, and which of its runs they are when it holds several. */
export function drawnRunTitle(title: string, r: CompareRun): string {
  const n = runCount(r);
  return n === 1 ? title : `${title} (${firstRun(r)}, the first of its ${n} runs)`;
}

/** Each compared figure's header, its statistic named: the short form of the metric registry's. */
const HEADERS: Record<ComparedKey | 'failed', string> = {
  throughput: 'Throughput tok/s (tokens ÷ duration)',
  perRequest: 'Per-request tok/s (mean)',
  ttftP50: METRICS.ttftP50.header,
  ttftP95: METRICS.ttftP95.header,
  tpotP50: METRICS.tpotP50.header,
  e2eP50: METRICS.e2eP50.header,
  failed: 'Failed (count)',
};
export const compareHeader = (k: ComparedKey | 'failed'): string => HEADERS[k];

/** The whole comparison, baseline first. Throws on fewer than 2 or more than 8 runs (callers check first and say so). */
export function compareRuns(runs: readonly CompareRun[]): Comparison {
  if (runs.length < COMPARE_MIN_RUNS || runs.length > COMPARE_MAX_RUNS)
    throw new RangeError(`a comparison takes ${COMPARE_MIN_RUNS} to ${COMPARE_MAX_RUNS} runs, not ${runs.length}`);
  const diffs = contractDiffs(runs);
  const refused = incomparableReason(runs, diffs);
  const keys = [...new Set(runs.flatMap((r) => r.levels.map(levelKey)))].sort((a, b) => a - b);
  const metrics: Array<ComparedKey | 'failed'> = [...COMPARE_METRICS, 'failed'];
  const base = runs[0] as CompareRun;
  const rows = keys.map((key) => ({
    level: key,
    runs: runs.map((r) => {
      const l = r.levels.find((x) => levelKey(x) === key);
      if (!l) return null;
      const cells = metrics.map((k) => ({
        text: num(METRICS[k].value(l), METRICS[k].digits),
        status: null,
        invalid: l.invalid,
        clientBound: l.clientBound.bound,
      }));
      return { cells, status: statusText(l), badge: levelBadge(l) };
    }),
    differences: runs.slice(1).map((cand) => (refused ? null : COMPARE_METRICS.flatMap((k) => levelDifference(base, cand, key, k) ?? []))),
  }));
  return {
    runs,
    titles: runTitles(runs, diffs),
    contractNote: contractNote(runs),
    diffs,
    refused,
    axis: axisName(runs),
    headers: metrics.map(compareHeader),
    rows,
    quality: compareQuality(runs),
    drawn: runs.flatMap((r) => drawnRunNote(r) ?? []),
    serverSide: compareServerSide(runs, axisName(runs)),
    pools: comparePools(runs, axisName(runs)),
    fleet: compareFleet(runs, axisName(runs)),
  };
}
