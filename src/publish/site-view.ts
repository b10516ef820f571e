/**
 * The whole public site as one view-model: the receipts' views, the price
 * tables, the changelog and what we do not claim. Pages and dataset.json are
 * both functions of this.
 */
import { type InstancePriceRow, type TokenPriceRow, priceRows } from './price-view.js';
import { type Prices, pricesCapturedAt } from './prices.js';
import { type ChangelogEntry, mergeChangelog } from './changelog.js';
import type { Receipt } from './receipt-schema.js';
import { type ReceiptView, receiptView } from './receipt-view.js';

/** What the site does not claim, in our words; rendered on the index and written to dataset.json. */
export const NOT_CLAIMED: readonly string[] = [
  "We did not measure any provider's latency or throughput. Provider figures here are their published list prices and nothing more.",
  'A per-token list price is paid into a shared pool; our cost per token assumes a GPU kept busy at its measured peak. These are different economic units, so no chart puts them on one scale.',
  "Token prices of different vendors cannot be compared one to one: each vendor's tokenizer splits the same text into a different number of tokens.",
  'Only configurations with measured runs that passed the provenance gate appear here; a receipt is added when its runs pass, not before.',
];

export interface SiteView {
  generator: string;
  receipts: ReceiptView[];
  prices: { token: TokenPriceRow[]; instance: InstancePriceRow[]; capturedAt: string | null };
  changelog: ChangelogEntry[];
  notClaimed: readonly string[];
  /** The publisher key id that signs the site's manifest, or null for an unsigned site. */
  signer: string | null;
  /** The measurer key ids the site lists (measurers.ts), sorted; empty when it lists none. */
  measurers: readonly string[];
}

/** What the site already said (its changelog) and today's date, so the changelog is a history. */
export interface SiteHistory {
  previous: readonly ChangelogEntry[];
  today: string;
}

export function siteView(
  receipts: readonly Receipt[],
  prices: Prices,
  generator: string,
  history: SiteHistory = { previous: [], today: new Date().toISOString().slice(0, 10) },
  notClaimed: readonly string[] = NOT_CLAIMED,
  signer: string | null = null,
  measurers: readonly string[] = [],
): SiteView {
  const listed = new Set(measurers);
  const views = [...receipts].sort((a, b) => b.measuredAt.localeCompare(a.measuredAt) || a.id.localeCompare(b.id)).map((r) => receiptView(r, listed));
  const capturedAt = pricesCapturedAt(prices);
  return {
    generator,
    receipts: views,
    prices: { ...priceRows(prices), capturedAt },
    changelog: mergeChangelog(
      history.previous,
      views.map((v) => ({ receipt: v.receipt.id, title: v.receipt.title, page: v.page, measuredAt: v.receipt.measuredAt })),
      capturedAt,
      history.today,
    ),
    notClaimed,
    signer,
    measurers: [...listed].sort(),
  };
}
