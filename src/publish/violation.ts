/**
 * A provenance-gate violation: the rule broken and the number it concerns, in
 * a message that says exactly what to fix.
 */
import type { Fact } from './fact.js';
import type { Receipt } from './receipt-schema.js';

export type GateRule =
  | 'provenance'
  | 'derived-sources'
  | 'workload-reconstructable'
  | 'statistic-named'
  | 'configuration-labelled'
  | 'unique-ids'
  | 'same-definition'
  | 'same-rows'
  | 'one-family-per-chart'
  | 'quality-evaluator'
  | 'no-internal-identifiers'
  | 'price-cited'
  | 'cost-cited'
  | 'no-prices-on-charts';

export interface Violation {
  rule: GateRule;
  number: string;
  message: string;
}

/** "<receipt id>: <fact id> (<label>, <configuration>)". */
export const who = (r: Receipt, f: Fact): string => `${r.id}: ${f.id} (${f.label}, ${f.configuration})`;

export const violation = (rule: GateRule, number: string, message: string): Violation => ({ rule, number, message: `${number}: ${message} [rule: ${rule}]` });
