/**
 * One result from a contract's cells. The first cell in the stated order
 * fills the top-level levels and cards (so every reader of results works);
 * with more than one cell, `matrix` holds every cell, its curve and the one
 * table. The resolved contract, its hash, the tokenizer used, what the server
 * reported and the business cost figure are added beside them.
 */
import {
  type BusinessCost,
  type MatrixCell,
  type RawRecord,
  type ServerReport,
  type SweepResult,
  type TokenizerInfo,
  buildMatrix,
  businessCost,
  cellLabel,
} from '../core/index.js';
import { MATRIX_ORDER } from '../workload/index.js';
import type { Contract } from './contract-schema.js';
import { contractHash } from './contract-hash.js';
import type { PreparedCell } from './prepare-cells.js';
import { recordsSha256 } from './records-hash.js';

export interface CellOutcome {
  prepared: PreparedCell;
  result: SweepResult;
}

/** The business figure of a result's levels, when the contract prices the hardware and declares a utilisation. */
export function costOf(c: Contract, result: SweepResult): BusinessCost | undefined {
  const h = c.hardware;
  if (h.gpuHourlyUsd === undefined || h.utilisation === undefined) return undefined;
  const engine = result.cards.engine;
  const peak = result.levels.find((l) => l.concurrency === engine.peakConcurrency && l.throughputTokS === engine.peakThroughputTokS);
  const measuredOn = `${peak?.load?.label ?? `concurrency ${engine.peakConcurrency}`}, measured ${result.run.startedAt.slice(0, 10)}`;
  return businessCost(
    {
      gpu: { name: h.label, usdPerHour: h.gpuHourlyUsd, asOf: h.priceAsOf ?? 'not dated' },
      overheads: h.overheads,
      peakTokS: engine.peakThroughputTokS,
      peakAsOf: measuredOn,
      utilisation: h.utilisation,
      utilisationAsOf: h.utilisationAsOf ?? 'not dated',
      successShare: peak?.goodput?.share ?? null,
      successAsOf: measuredOn,
    },
    result.levels.map((l) => ({ level: l.load?.level ?? l.concurrency, goodputTokS: l.goodput?.tokensPerS ?? 0, requests: l.requests, failed: l.failed })),
  );
}

export interface AssembleInput {
  resolved: Contract;
  tokenizer: TokenizerInfo;
  serverReport: ServerReport;
  outcomes: readonly CellOutcome[];
  /** Cells the contract has (more than ran when the run stopped early). */
  totalCells: number;
  command: string;
  /** Every record of the run, warm-ups included, each with its cell; kept with their hash. */
  records?: readonly RawRecord[];
  /** serverFingerprint of the `/v1/models` answer preflight read. */
  serverFingerprint?: string | null;
}

export function assembleResult(input: AssembleInput): SweepResult {
  const { outcomes } = input;
  const primary = (outcomes[0] as CellOutcome).result;
  const last = (outcomes[outcomes.length - 1] as CellOutcome).result;
  const many = input.totalCells > 1;
  const warnings = outcomes.flatMap(({ prepared, result }) =>
    result.warnings.map((w) => (many ? { ...w, message: `${cellLabel(prepared.key)}: ${w.message}` } : w)),
  );
  const cells: MatrixCell[] = outcomes.map(({ prepared, result }) => ({
    index: prepared.cell.index,
    key: prepared.key,
    status: result.run.status,
    levels: result.levels,
    cards: result.cards,
  }));
  const cost = costOf(input.resolved, primary);
  return {
    ...primary,
    run: {
      ...primary.run,
      command: input.command,
      endedAt: last.run.endedAt,
      status: last.run.status,
      stopReason: last.run.stopReason,
      ...(input.serverFingerprint === undefined ? {} : { serverFingerprint: input.serverFingerprint }),
    },
    warnings,
    contract: input.resolved as unknown as Record<string, unknown>,
    contractHash: contractHash(input.resolved),
    tokenizer: input.tokenizer,
    serverReport: input.serverReport,
    ...(many ? { matrix: buildMatrix(MATRIX_ORDER, cells) } : {}),
    ...(cost ? { businessCost: cost } : {}),
    ...(input.records === undefined ? {} : { records: [...input.records], recordsSha256: recordsSha256(input.records) }),
  };
}
