/**
 * ViewNumber: a number as it renders — value, its text, unit, statistic and
 * provenance, and the configuration it belongs to. The pages mark each one
 * (`<data>`), and dataset.json lists each one: the same objects, so the two
 * cannot disagree.
 */
import { formatScoreValue } from '../core/index.js';
import { num, signedPct } from '../web/index.js';
import { type Fact, statisticText } from './fact.js';
import type { Receipt } from './receipt-schema.js';

export type ViewProvenance = Fact['provenance'] | 'list price';

export interface ViewNumber {
  /** Unique on the site: "<receipt id>/<fact id>", "prices/token/0/input". */
  id: string;
  label: string;
  value: number | null;
  /** As printed: grouped digits, or "not recorded". */
  text: string;
  unit: string;
  statistic: string;
  provenance: ViewProvenance;
  /** The configuration identity, or null for list prices (they belong to no configuration of ours). */
  configuration: string | null;
  /** Provenance detail printed with it: "derived from …", "not recorded: …", "context only", "invalid level: …". */
  note: string | null;
  /** Derived numbers: the ids (as above) of the numbers they are computed from. */
  derivedFrom?: string[];
  /**
   * Per-level numbers only (the scaling curves): whether their level counts.
   * An invalid (failed requests) or client-bound level's numbers are shown,
   * flagged, and left out of peaks.
   */
  levelState?: LevelState;
  /**
   * Changes only: the 95 % interval of `value` from the same estimator (the
   * means of all runs, bootstrapped over the runs), in the change's unit; it
   * always holds `value`.
   */
  interval?: { low: number; high: number };
}

export type LevelState = 'valid' | 'invalid' | 'client-bound';

/**
 * A quality score is truncated, never rounded up: a degraded score must not
 * print as 1. A non-zero value too small for its digits (a KL of 3e-7 nats at
 * 6 digits) is printed with 4 significant digits ("3.000e-7"), never as zero.
 */
export function factText(f: Pick<Fact, 'metric' | 'value' | 'digits'>): string {
  if (f.value === null) return 'not recorded';
  if (f.metric === 'quality') return formatScoreValue(f.value);
  if (f.value !== 0 && Math.abs(f.value) < 10 ** -f.digits) return f.value.toExponential(3);
  return num(f.value, f.digits);
}

/** Decimals a figure is shown with at most: past them, a change needs no more to be seen. */
const MAX_SHOWN_DIGITS = 6;

/**
 * The fewest decimals (from the figure's own) at which two figures, rounded,
 * give the change the figures themselves give, as a percentage is printed:
 * costs of 0.0253 and 0.0235 USD are not shown as "0.03" and "0.02" beside "−7.1 %".
 */
export function digitsShowingChange(from: number, to: number, digits: number): number {
  if (from === 0 || !Number.isFinite(from) || !Number.isFinite(to)) return digits;
  const stated = signedPct(((to - from) / Math.abs(from)) * 100);
  for (let d = digits; d < MAX_SHOWN_DIGITS; d++) {
    const a = Number(from.toFixed(d));
    const b = Number(to.toFixed(d));
    if (a !== 0 && signedPct(((b - a) / Math.abs(a)) * 100) === stated) return d;
  }
  return Math.max(digits, MAX_SHOWN_DIGITS);
}

/** The same figure of the other configuration ("baseline.c2.throughput" for "optimized.c2.throughput"), when the receipt has it. */
function counterpart(receipt: Receipt, f: Fact): Fact | undefined {
  const other = f.configuration === 'baseline' ? 'optimized' : 'baseline';
  const g = factById(receipt, `${other}.${f.id.slice(f.configuration.length + 1)}`);
  return g !== undefined && sameDefinition(f, g) ? g : undefined;
}

/** A figure's decimals on the page: its own, or more when fewer would hide the change from its counterpart. */
function shownDigits(receipt: Receipt, f: Fact): number {
  const g = counterpart(receipt, f);
  if (f.value === null || g === undefined || g.value === null || f.metric === 'quality') return f.digits;
  const [from, to] = f.configuration === 'baseline' ? [f.value, g.value] : [g.value, f.value];
  return digitsShowingChange(from, to, f.digits);
}

export function viewOfFact(receipt: Receipt, f: Fact): ViewNumber {
  const cfg = receipt.configurations[f.configuration];
  return {
    id: `${receipt.id}/${f.id}`,
    label: f.label,
    value: f.value,
    text: factText({ ...f, digits: shownDigits(receipt, f) }),
    unit: f.unit,
    statistic: f.statistic,
    provenance: f.provenance,
    configuration: `${f.configuration}: ${cfg.identity}`,
    note: f.note ?? null,
    ...(f.derivedFrom === undefined ? {} : { derivedFrom: f.derivedFrom.map((id) => `${receipt.id}/${id}`) }),
  };
}

/** "p50 at concurrency 1, measured" as printed beside a value. */
export function viewStatistic(n: ViewNumber): string {
  return n.provenance === 'list price' ? `${n.statistic}, list price` : statisticText({ statistic: n.statistic, provenance: n.provenance, value: n.value });
}

export function factById(receipt: Receipt, id: string): Fact | undefined {
  return receipt.facts.find((f) => f.id === id);
}

/** Two facts whose difference means something: the same metric, statistic and unit. */
export function sameDefinition(a: Fact, b: Fact): boolean {
  return a.metric === b.metric && a.statistic === b.statistic && a.unit === b.unit;
}
