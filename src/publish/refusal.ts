/**
 * A refusal: the field or number concerned, the rule it breaks, and a
 * sentence that says what is wrong. `receipt create`, `publish` and `verify`
 * print one per line and write nothing.
 */

export type Rule =
  | 'schema'
  | 'no-duplicate-keys'
  | 'evidence-file'
  | 'evidence-hash'
  | 'records-hash'
  | 'contract-hash'
  | 'records-reproduce'
  | 'run-complete'
  | 'one-model'
  | 'same-workload'
  | 'same-gpu'
  | 'quality-belongs'
  | 'quality-recomputed'
  | 'quality-declared'
  | 'quality-evaluator'
  | 'stated-equals-recomputed'
  | 'text-length'
  | 'no-control-characters'
  | 'no-confusables'
  | 'no-internal-identifiers'
  | 'no-numeric-claims'
  | 'range'
  | 'date'
  | 'changelog-history'
  | 'price-cited'
  | 'site-file'
  | 'published-equals-recomputed'
  | 'record-order'
  | 'output-cap'
  | 'stream-rate'
  | 'unique-records'
  | 'level-count'
  | 'in-flight'
  | 'media-inputs'
  | 'input-tokens'
  | 'encode-rate'
  | 'wall-clock'
  | 'contract-speaks'
  | 'client-bound-evidence'
  | 'repeats-declared'
  | 'run-set'
  | 'require-signed'
  | 'signature'
  | 'generator'
  | 'server-truth'
  | 'server-agreement'
  | 'self-comparison'
  | 'allow-list';

export interface Refusal {
  rule: Rule;
  field: string;
  message: string;
}

/** "<field>: <why> [rule: <rule>]". */
export const refusal = (rule: Rule, field: string, why: string): Refusal => ({ rule, field, message: `${field}: ${why} [rule: ${rule}]` });
