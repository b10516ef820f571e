/**
 * Cost per successful million output tokens, the business figure beside the
 * cards' simple peak figure:
 *
 *   hourly = GPU $/h + Σ overhead $/h
 *   effective tok/s = peak tok/s × declared utilisation
 *   successful tok/s = effective × success share (requests meeting every SLO)
 *   $ per 1M = hourly / (successful tok/s × 3600) × 1e6
 *
 * Every input travels with the figure, with its date or where it was measured.
 */
import { z } from 'zod';

/** A named hourly cost with the date the price was taken. */
export const costLineSchema = z.object({
  name: z.string().min(1),
  usdPerHour: z.number().nonnegative(),
  asOf: z.string().min(1),
});
export type CostLine = z.infer<typeof costLineSchema>;

const inputSchema = z.object({ name: z.string(), value: z.number(), unit: z.string(), asOf: z.string() });

export const levelCostSchema = z.object({
  level: z.number(),
  costPer1MSuccessfulUsd: z.number().nullable(),
  /** Said whenever the level had failures or no successful request. */
  note: z.string().nullable(),
});

export const businessCostSchema = z.object({
  costPer1MSuccessfulUsd: z.number().nullable(),
  /** Why there is no figure, when there is none. */
  reason: z.string().nullable(),
  hourlyTotalUsd: z.number(),
  effectiveTokS: z.number().nullable(),
  successfulTokS: z.number().nullable(),
  /** Every input, with its date (prices, utilisation) or its measurement (peak, success share). */
  inputs: z.array(inputSchema),
  formula: z.string(),
  basis: z.string(),
  levels: z.array(levelCostSchema),
});
export type BusinessCost = z.infer<typeof businessCostSchema>;
export type LevelCost = z.infer<typeof levelCostSchema>;

export const BUSINESS_COST_FORMULA = '(GPU $/h + overheads $/h) / (peak tok/s × utilisation × success share × 3600) × 1e6';
export const BUSINESS_COST_BASIS =
  'Output tokens of requests that met every SLO, at the declared utilisation of the measured peak; ' +
  'prices are the dated inputs listed, not a market claim.';

export interface BusinessCostInput {
  gpu: CostLine;
  overheads: readonly CostLine[];
  /** Measured peak throughput, tok/s, or null when no valid level was measured. */
  peakTokS: number | null;
  /** Where the peak was measured, e.g. "concurrency 16, 2025-06-01". */
  peakAsOf: string;
  /** Share (0..1] of the peak that real traffic achieves: declared in a contract, or measured by a replay (goodput utilisation). */
  utilisation: number;
  /** Its date when declared; its source (trace hash, capacity run) when measured. */
  utilisationAsOf: string;
  utilisationProvenance?: 'declared' | 'measured';
  /** Share (0..1) of requests meeting every SLO at the peak level. */
  successShare: number | null;
  successAsOf: string;
}

/** USD per 1M successful output tokens; null when nothing succeeded. */
export function costPer1MSuccessfulUsd(hourlyUsd: number, tokS: number, utilisation: number, successShare: number): number | null {
  if (!(hourlyUsd >= 0)) throw new RangeError(`hourly cost must be ≥ 0, got ${hourlyUsd}`);
  if (!(utilisation > 0 && utilisation <= 1)) throw new RangeError(`utilisation must be in (0, 1], got ${utilisation}`);
  if (!(successShare >= 0 && successShare <= 1)) throw new RangeError(`success share must be in [0, 1], got ${successShare}`);
  const successful = tokS * utilisation * successShare;
  return successful > 0 ? (hourlyUsd / (successful * 3600)) * 1e6 : null;
}

/** The business figure with every input listed. */
export function businessCost(input: BusinessCostInput, levels: readonly LevelCostInput[] = []): BusinessCost {
  const hourly = [input.gpu, ...input.overheads].reduce((s, l) => s + l.usdPerHour, 0);
  const inputs = [
    { name: `GPU: ${input.gpu.name}`, value: input.gpu.usdPerHour, unit: '$/h', asOf: input.gpu.asOf },
    ...input.overheads.map((o) => ({ name: `overhead: ${o.name}`, value: o.usdPerHour, unit: '$/h', asOf: o.asOf })),
    ...(input.peakTokS === null ? [] : [{ name: 'peak throughput (measured)', value: input.peakTokS, unit: 'tok/s', asOf: input.peakAsOf }]),
    { name: `utilisation (${input.utilisationProvenance ?? 'declared'})`, value: input.utilisation, unit: 'share', asOf: input.utilisationAsOf },
    ...(input.successShare === null ? [] : [{ name: 'success share (measured)', value: input.successShare, unit: 'share', asOf: input.successAsOf }]),
  ];
  const effective = input.peakTokS === null ? null : input.peakTokS * input.utilisation;
  const successful = effective === null || input.successShare === null ? null : effective * input.successShare;
  const figure =
    input.peakTokS === null || input.successShare === null ? null : costPer1MSuccessfulUsd(hourly, input.peakTokS, input.utilisation, input.successShare);
  let reason: string | null = null;
  if (input.peakTokS === null) reason = 'no valid level was measured, so there is no peak to cost';
  else if (input.successShare === null) reason = 'no SLO was evaluated at the peak level';
  else if (figure === null) reason = 'no request met every SLO at the peak level';
  return {
    costPer1MSuccessfulUsd: figure,
    reason,
    hourlyTotalUsd: hourly,
    effectiveTokS: effective,
    successfulTokS: successful,
    inputs,
    formula: BUSINESS_COST_FORMULA,
    basis: BUSINESS_COST_BASIS,
    levels: levels.map((l) => levelCost(hourly, input.utilisation, l)),
  };
}

export interface LevelCostInput {
  level: number;
  /** Output tokens of requests that met every SLO, per second of the level (goodput tok/s). */
  goodputTokS: number;
  requests: number;
  failed: number;
}

/**
 * One level's cost per successful 1M tokens = hourly / (goodput tok/s × utilisation × 3600) × 1e6,
 * with a note whenever the level had failures (never a bare figure on such a level).
 */
export function levelCost(hourlyUsd: number, utilisation: number, l: LevelCostInput): LevelCost {
  const notes: string[] = [];
  if (l.failed > 0) notes.push(`${l.failed} of ${l.requests} requests failed; only tokens of requests that met every SLO are counted`);
  const figure = l.goodputTokS > 0 ? costPer1MSuccessfulUsd(hourlyUsd, l.goodputTokS, utilisation, 1) : null;
  if (figure === null) notes.push('no request met every SLO: no figure');
  return { level: l.level, costPer1MSuccessfulUsd: figure, note: notes.length > 0 ? notes.join('; ') : null };
}
