/**
 * A receipt's standings as its page and dataset.json show them: each number
 * the view renders (a fact's own, a change's weaker side, a figure derived
 * from facts its weakest source), the labels' standings, and the run
 * signatures in words. Only receipts of fact set 3 state who signed their
 * evidence; older receipts have none, so their pages and dataset read as before.
 */
import type { ConfigurationKey, Fact } from './fact.js';
import type { Receipt } from './receipt-schema.js';
import { type LabelStandings, type Standing, factStanding, receiptLabelStandings, signatureLines, weakest } from './standing.js';
import { factById } from './view-number.js';

export interface StandingView {
  labels: LabelStandings;
  /** Which key signed which side, verified, and whether the site lists it. */
  signatures: string[];
  /** The standing of a number the view renders, by its id ("<receipt id>/<fact id>", "<receipt id>/change/<fact id>"). */
  of(numberId: string): Standing;
}

export function standingView(r: Receipt, measurers: ReadonlySet<string>): StandingView | null {
  const sig = r.signatures;
  const labels = receiptLabelStandings(r, measurers);
  if (sig === undefined || labels === null) return null;
  const ofFact = (id: string, seen: ReadonlySet<string> = new Set()): Standing | null => {
    const f = factById(r, id);
    if (f === undefined) return null;
    const own = factStanding(sig, f, measurers);
    // A derived fact stands no higher than what it is derived from (a cost on a declared rate is declared).
    const sources = (f.derivedFrom ?? []).filter((s) => !seen.has(s)).flatMap((s) => ofFact(s, new Set([...seen, id])) ?? []);
    return weakest([own, ...sources]);
  };
  const of = (numberId: string): Standing => {
    const id = numberId.slice(r.id.length + 1);
    const change = id.startsWith('change/') ? id.slice('change/'.length) : null;
    const ids = change === null ? [id] : [change, change.replace(/^optimized\./, 'baseline.')];
    const found = ids.flatMap((x) => ofFact(x) ?? []);
    if (found.length > 0) return weakest(found) as Standing;
    // A figure the view derives from a side's facts (capacity at the SLO): that side's run stands behind it.
    const cfg: ConfigurationKey = id.startsWith('baseline.') ? 'baseline' : 'optimized';
    const stand: Fact = {
      id,
      metric: 'derived',
      label: 'derived',
      value: null,
      unit: '-',
      statistic: '',
      provenance: 'derived',
      configuration: cfg,
      digits: 0,
    };
    return factStanding(sig, stand, measurers);
  };
  return { labels, signatures: signatureLines(sig, measurers), of };
}
