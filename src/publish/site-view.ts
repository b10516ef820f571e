/**
 * The whole public site as one view-model: the receipts' views, the price
 * tables, the changelog and what we do not claim. Pages and dataset.json are
 * both functions of this.
 */
import { type InstancePriceRow, type TokenPriceRow, priceRows } from './price-view.js';
import { type Prices, pricesCapturedAt } from './prices.js';
import type { Receipt } from './receipt-schema.js';
import { type ReceiptView, receiptView } from './receipt-view.js';

/** What the site does not claim, in our words; rendered on the index and written to dataset.json. */
export const NOT_CLAIMED: readonly string[] = [
  'We did not measure any provider\'s latency or throughput. Provider figures here are their published list prices and nothing more.',
  'A per-token list price is paid into a shared pool; our cost per token assumes a GPU kept busy at its measured peak. These are different economic units, so no chart puts them on one scale.',
  'Token prices of different vendors cannot be compared one to one: each vendor\'s tokenizer splits the same text into a different number of tokens.',
  'Only configurations with measured runs that passed the provenance gate appear here; a receipt is added when its runs pass, not before.',
];

export interface ChangelogEntry { receiptId: string; title: string; page: string; measuredAt: string; pricesCapturedAt: string | null }

export interface SiteView {
  generator: string;
  receipts: ReceiptView[];
  prices: { token: TokenPriceRow[]; instance: InstancePriceRow[]; capturedAt: string | null };
  changelog: ChangelogEntry[];
  notClaimed: readonly string[];
}

export function siteView(receipts: readonly Receipt[], prices: Prices, generator: string): SiteView {
  const views = [...receipts].sort((a, b) => b.measuredAt.localeCompare(a.measuredAt) || a.id.localeCompare(b.id)).map(receiptView);
  const capturedAt = pricesCapturedAt(prices);
  return {
    generator,
    receipts: views,
    prices: { ...priceRows(prices), capturedAt },
    changelog: views.map((v) => ({ receiptId: v.receipt.id, title: v.receipt.title, page: v.page, measuredAt: v.receipt.measuredAt, pricesCapturedAt: capturedAt })),
    notClaimed: NOT_CLAIMED,
  };
}
