/**
 * ViewNumber: a number as it renders — value, its text, unit, statistic and
 * provenance, and the configuration it belongs to. The pages mark each one
 * (`<data>`), and dataset.json lists each one: the same objects, so the two
 * cannot disagree.
 */
import { formatScoreValue } from '../core/index.js';
import { num } from '../web/index.js';
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

export function viewOfFact(receipt: Receipt, f: Fact): ViewNumber {
  const cfg = receipt.configurations[f.configuration];
  return {
    id: `${receipt.id}/${f.id}`, label: f.label, value: f.value, text: factText(f),
    unit: f.unit, statistic: f.statistic, provenance: f.provenance, configuration: `${f.configuration}: ${cfg.identity}`, note: f.note ?? null,
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
