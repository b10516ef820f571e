/**
 * publish/: receipts (two runs of one kind → one receipt file), the
 * provenance gate, the static public site with dataset.json and share
 * images, all rendered from one view-model, and the reader's check of a
 * published site. This file is the folder's only door: it names what the
 * CLI (and any embedder, such as the API) calls.
 */
export { buildReceipt } from './build-receipt.js';
export type { ReceiptInput, ReceiptOutcome, ReceiptResult } from './receipt-kind.js';
export { otherKindResultSchema, publicResult } from './receipt-kinds.js';
export { receiptSchema, type Receipt } from './receipt-schema.js';
export { signedWith } from './standing.js';
export { NO_PRICES } from './prices.js';
export { gateSources, gateDataset } from './gate.js';
export { siteView } from './site-view.js';
export { datasetOf } from './dataset.js';
export { publishSite } from './publish-site.js';
export { packEvidence, signaturePath } from './evidence-files.js';
export { recomputeReceipt, receiptFile } from './receipt-file.js';
export type { Rule } from './refusal.js';
export { KEY_FILE_BYTES, checkSignedEvidence, checkSignedResult, keyIdOf, newKeyPair, parseKey, signedResult, type Trust } from './site-signing.js';
export { signPoolingRunOfSet, signRunOfSet, signSetManifest } from './run-set.js';
export { readBounded } from './site-walk.js';
export { contractLabelRefusals, type ContractLabels } from './contract-labels.js';
export { publishReceipts, PublishRefused, type PublishReceiptsInput } from './publish-receipts.js';
export { verifySite, SiteNotVerified, type Freshness, type VerifiedSite, type VerifyOptions } from './verify-site.js';
export { SITE_VERSIONS_FILE, defaultStateDir } from './site-versions.js';
export { type MediaClaim, mediaClaim, mediaProblem } from './media-claims.js';
export { levelVerdicts, type LevelVerdict, reproduceClaims, REPRODUCE_TOLERANCE, type ClaimCheck, withLevelRuns } from './reproduce-claims.js';
