/**
 * publish/: receipts (two runs of one kind → one receipt file), the provenance gate, and
 * the static public site with dataset.json and share images, all rendered from
 * one view-model. This file is the folder's only door.
 */
export { buildReceipt } from './build-receipt.js';
export { slug } from './receipt-parts.js';
export type { ReceiptInput, ReceiptOutcome, ReceiptResult } from './receipt-kind.js';
export { publicResult } from './receipt-kinds.js';
export { receiptSchema, RECEIPT_VERSION, type Receipt, type Configuration, type BarChartDef, type Headline } from './receipt-schema.js';
export { factSchema, statisticText, PROVENANCES, type Fact, type Provenance, type ConfigurationKey } from './fact.js';
export { checkRunPair, WORKLOAD_SECTIONS, type PairCheck } from './run-pair.js';
export { pricesSchema, readPrices, NO_PRICES, type Prices, type TokenPrice, type InstancePrice } from './prices.js';
export { runGate, gateSources, gateDataset, type GateInput, type GateRule, type Violation } from './gate.js';
export { siteView, NOT_CLAIMED, type SiteView } from './site-view.js';
export { readSiteFile, siteFileSchema, type SiteText } from './site-file.js';
export { receiptView, receiptNumbers, type ReceiptView } from './receipt-view.js';
export { datasetOf, DATASET_VERSION } from './dataset.js';
export type { ViewNumber } from './view-number.js';
export { shareSvg, sharePng } from './share-image.js';
export { publishSite, renderSite, type PublishInput, type PublishOutcome } from './publish-site.js';
export { packEvidence, loadEvidence, evidencePath, signaturePath, EVIDENCE_DIR, type EvidenceSource } from './evidence-files.js';
export { recomputeReceipt, receiptFile, RECEIPT_FILE_VERSION, type ReceiptFile, type Recomputation, type EvidenceRefs } from './receipt-file.js';
export { type Refusal, type Rule } from './refusal.js';
export { changelogEntrySchema, type ChangelogEntry } from './changelog.js';
export { differences, differenceText, type Difference } from './same-numbers.js';
export { parseStrictJson } from './strict-json.js';
export { MANIFEST_FILE, KEY_FILE_BYTES, checkSignedEvidence, checkSignedResult, keyIdOf, newKeyPair, openManifest, parseKey, signedResult, type SiteManifest, type Trust } from './site-signing.js';
export { walkSite, readBounded, listSome, type SiteTree } from './site-walk.js';
export { changelogRefusals } from './changelog.js';
export { priceRefusals } from './prices.js';
export { contractLabelRefusals, type ContractLabels } from './contract-labels.js';
export { publishReceipts, PublishRefused, type PublishReceiptsInput } from './publish-receipts.js';
export { verifySite, SiteNotVerified, type VerifiedSite, type VerifyOptions } from './verify-site.js';
