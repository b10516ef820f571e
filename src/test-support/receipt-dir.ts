/**
 * A receipt with its evidence on disk, as `goodput receipt create` writes it:
 * evidencePair's two runs and a quality score that compared their servers,
 * packed by content hash beside the receipt file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { QualityScore, SweepResult } from '../core/index.js';
import { buildReceipt, packEvidence, publicResult, type Receipt, receiptFile } from '../publish/index.js';
import { evidencePair } from './evidence-fixture.js';
import { measuredQualityFixture } from './quality-fixture.js';

export interface ReceiptDir {
  file: string;
  text: string;
  receipt: Receipt;
  refs: { baseline: string; optimized: string; quality: string | null };
}

/** Writes `evidence/*.json.gz` beside `file` for what is given and returns the receipt text (not written unless `write`). */
export function packReceipt(
  file: string,
  sides: { baseline: SweepResult; optimized: SweepResult; quality: QualityScore | null },
  method = 'FP8 dynamic quantization',
): ReceiptDir {
  // Evidence that cannot make a receipt (a forgery under test) is stated with the good pair's receipt.
  // As goodput receipt create does: a score measured in the optimized run is the one stated.
  const tried = buildReceipt({ ...sides, quality: sides.quality ?? sides.optimized.quality ?? null, method, generator: '0.1.0' });
  const built = tried.ok ? tried : buildReceipt({ ...evidencePair(), quality: measuredQualityFixture(evidencePair()), method, generator: '0.1.0' });
  if (!built.ok) throw new Error(`fixture receipt refused: ${built.problems.join('; ')}`);
  const packed = {
    baseline: packEvidence(publicResult(sides.baseline)),
    optimized: packEvidence(publicResult(sides.optimized)),
    quality: sides.quality === null ? null : packEvidence(sides.quality),
  };
  for (const p of [packed.baseline, packed.optimized, packed.quality]) {
    if (p === null) continue;
    mkdirSync(join(dirname(file), 'evidence'), { recursive: true });
    writeFileSync(join(dirname(file), p.path), p.gz);
  }
  const refs = { baseline: packed.baseline.sha256, optimized: packed.optimized.sha256, quality: packed.quality?.sha256 ?? null };
  const text = JSON.stringify(receiptFile(built.receipt, refs), null, 2) + '\n';
  writeFileSync(file, text);
  return { file, text, receipt: built.receipt, refs };
}

/** The untouched receipt: evidencePair and a quality score (from per-prompt evidence) that compared both servers and names both runs. */
export function goodReceipt(file: string): ReceiptDir {
  return packReceipt(file, { ...evidencePair(), quality: measuredQualityFixture(evidencePair()) });
}
