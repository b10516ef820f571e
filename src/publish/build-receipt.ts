/**
 * `buildReceipt`: two runs (baseline, optimized) of one kind and an optional
 * quality score in, one receipt out — or every reason there can be none. The
 * run's endpoint names its kind (receipt-kinds.ts), whose builder makes the
 * receipt; two runs of different kinds make none. Pure apart from hashing:
 * the CLI reads the files and the store.
 */
import type { ReceiptInput, ReceiptOutcome } from './receipt-kind.js';
import { receiptKindOf } from './receipt-kinds.js';

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

export function buildReceipt(input: ReceiptInput): ReceiptOutcome {
  const b = input.baseline.run.endpoint;
  const o = input.optimized.run.endpoint;
  const kind = receiptKindOf(b);
  if (receiptKindOf(o) !== kind)
    return { ok: false, problems: [`a receipt compares two runs of one endpoint: --baseline is ${article(b)} ${b} run, --optimized ${article(o)} ${o} run`] };
  return kind.build(input);
}
