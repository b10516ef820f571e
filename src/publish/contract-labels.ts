/**
 * The words a contract puts on every receipt of its runs — the model's name,
 * precision and quantization, and the hardware label — under the receipt's own
 * rules: by kind through the allow-list (no figure a reader could take for a
 * claim, "CPU 2 cores" or "Q8 zero"), and no internal identifier, control
 * character or look-alike letter. `goodput run` and `capacity` check them when
 * the contract is loaded, before anything is measured; `receipt create` checks
 * them again over the evidence.
 */
import type { Contract } from '../contract/index.js';
import { allowListRefusals } from './allow-list.js';
import { TEXT_LIMITS, textRefusals } from './free-text.js';
import type { Refusal } from './refusal.js';

/** The labels of a contract a receipt shows. */
export interface ContractLabels {
  model: Pick<Contract['model'], 'name' | 'precision' | 'quantization'>;
  hardware: Pick<Contract['hardware'], 'label'>;
}

/** Refusals for a contract's labels; each field is named `<where>model.name` and so on. */
export function contractLabelRefusals(where: string, c: ContractLabels): Refusal[] {
  const labels: Array<[string, string, 'name' | 'hardware']> = [
    ['model.name', c.model.name, 'name'],
    ['model.precision', c.model.precision, 'name'],
    ['model.quantization', c.model.quantization, 'name'],
    ['hardware.label', c.hardware.label, 'hardware'],
  ];
  const byKind = labels.flatMap(([field, text, kind]) => allowListRefusals(`${where}${field}`, text, kind));
  // The model and the hardware label reach every page verbatim: no address, key or invisible character (their sizes, "8B", "80GB", are not claims).
  const shown = (
    [
      ['model.name', c.model.name],
      ['hardware.label', c.hardware.label],
    ] as const
  ).flatMap(([field, text]) => textRefusals(`${where}${field}`, text, TEXT_LIMITS.title).filter((x) => x.rule !== 'no-numeric-claims'));
  return [...byKind, ...shown];
}
