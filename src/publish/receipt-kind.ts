/**
 * What a kind of traffic brings to receipts: the result file it is read
 * from, its public copy, the check of its evidence against its records, how
 * its repeated runs combine, what it says of a quality score, and its
 * builder. Text generation and pooling (embeddings, rerank) are the kinds
 * today (text-kind.ts, pooling-kind.ts); receipt-kinds.ts holds the table
 * every receipt surface reaches them through, keyed by the run's endpoint.
 */
import type { z } from 'zod';
import type { Contract } from '../contract/index.js';
import type { PoolingResult, QualityScore, SweepResult } from '../core/index.js';
import type { FigureDef } from '../web/index.js';
import type { ConfigurationKey } from './fact.js';
import type { FactSet, Receipt } from './receipt-schema.js';
import type { Refusal } from './refusal.js';

/** A result a receipt can be built from, of any kind. */
export type ReceiptResult = SweepResult | PoolingResult;

export interface ReceiptInput<R extends ReceiptResult = ReceiptResult> {
  baseline: R;
  optimized: R;
  /** The quality score of the optimized against the baseline; a kind that generates no text takes none. */
  quality: QualityScore | null;
  /** The optimization method of the optimized configuration, in the user's words. */
  method: string;
  /** The baseline's method. Default: "baseline as deployed, no optimization". */
  baselineMethod?: string;
  title?: string;
  /** goodput's version, recorded as the generator. */
  generator: string;
  /** The fact set to state: a recomputation states the receipt's; absent, the newest the runs have facts for. */
  factSet?: FactSet;
  /**
   * Every fact's figure in each run, per-level curve points included: what a
   * reproduction reads (the median of a level's runs). Never set for a receipt
   * that is written, whose per-level points state run 1 alone.
   */
  perLevelRuns?: boolean;
}

export type ReceiptOutcome = { ok: true; receipt: Receipt } | { ok: false; problems: string[] };

/** One side after its evidence checks: the contract, its hash, and every run rebuilt from its records (run 1 first). */
export interface KindSide<R extends ReceiptResult = ReceiptResult> {
  contract: Contract;
  contractHash: string;
  runs: R[];
}

/** The score a receipt states, or refusals that end the recomputation there. */
export type KindQuality = { ok: true; score: QualityScore | null } | { ok: false; refusals: Refusal[] };

/** What a receipt page shows of its kind beyond what every receipt shows; the page reaches it by the receipt's modality. */
export interface KindPage {
  /** The fact tables' rows, in page order. */
  factRows(r: Receipt): Array<{ key: string; def: FigureDef }>;
  /** The figures of the cost formula: the peak rate it divides by and the cost. */
  readonly cost: { peak: string; cost: string };
  /** The Pareto view plots output tokens per user against throughput: a kind that generates text has one. */
  readonly pareto: boolean;
  /** Its levels as one table of these metrics; absent, as the scaling charts. */
  levelTable?(r: Receipt): { metrics: readonly string[]; header(metric: string): string };
  /** What the modality line adds in words, or null. */
  modalityNote(r: Receipt): string | null;
}

export interface ReceiptKind<R extends ReceiptResult = ReceiptResult> {
  /** The endpoints a run of this kind states (`run.endpoint`), the first named when a run states none. */
  readonly endpoints: readonly string[];
  /** The kind's result file, as evidence is read through it. */
  readonly schema: z.ZodType<R>;
  /** The copy a public site may ship: locations withheld, everything measured kept. */
  publicCopy(result: R): R;
  /** One side's evidence checked; refusals are appended to `out`, the rebuilt side returned when there are none. */
  checkEvidence(side: ConfigurationKey, result: R, out: Refusal[], allowServerDisagreement: boolean): KindSide<R> | null;
  /** A side's runs as the one result a receipt is built from. */
  combineRuns(runs: readonly R[]): R;
  /** The score a receipt of this kind states, from its evidence: a standalone file, or one measured in the optimized run. */
  evidenceQuality(standalone: QualityScore | null, optimized: KindSide<R>, results: Record<ConfigurationKey, R>, today: string, out: Refusal[]): KindQuality;
  build(input: ReceiptInput<R>): ReceiptOutcome;
  readonly page: KindPage;
}
