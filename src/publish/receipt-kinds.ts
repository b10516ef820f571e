/**
 * The kinds of receipt, one line each, keyed by the endpoint a run states
 * (`run.endpoint`): building a receipt, recomputing one from its evidence and
 * shipping a run's public copy all reach a kind through this table. A new
 * kind of traffic is its module (receipt-kind.ts says what it brings) and a
 * line here.
 */
import { z } from 'zod';
import { poolingKind } from './pooling-kind.js';
import type { ReceiptKind, ReceiptResult } from './receipt-kind.js';
import { textKind } from './text-kind.js';
import type { SweepResult } from '../core/index.js';
import type { Receipt } from './receipt-schema.js';

export const RECEIPT_KINDS: readonly ReceiptKind[] = [textKind, poolingKind];

/** The kind of a run stating `endpoint`; text generation for any other, whose schema then names what is wrong. */
export function receiptKindOf(endpoint: unknown): ReceiptKind {
  return RECEIPT_KINDS.find((k) => k.endpoints.includes(endpoint as string)) ?? textKind;
}

/** The kind of a receipt, by the modality it names (text generation names none). */
export const kindOfReceipt = (r: Pick<Receipt, 'modality'>): ReceiptKind => receiptKindOf(r.modality);

/**
 * A result of any kind but text generation, read through its kind's schema:
 * a file the text schema refuses may be one of these, and a file that is
 * neither keeps the text schema's account of what is wrong.
 */
export const otherKindResultSchema = z.union(RECEIPT_KINDS.filter((k) => k !== textKind).map((k) => k.schema)) as z.ZodType<
  Exclude<ReceiptResult, SweepResult>
>;

/**
 * The copy of a result a public site may ship, by its kind: the server's
 * address, the command line, the tokenizer's route and local file paths
 * withheld. None of them is in the contract hash, so the copy still
 * verifies; everything measured is kept.
 */
export function publicResult<R extends ReceiptResult>(result: R): R {
  return receiptKindOf(result.run.endpoint).publicCopy(result) as R;
}
