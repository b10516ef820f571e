/**
 * The three cards, each answering its own question and travelling separately:
 * Model (the weights, single stream), Engine (the serving stack, the scaling
 * curve), Platform (the hardware and what a token costs on it).
 */
import type { Cards, EngineCard, LevelResult, ModelCard, PlatformCard } from './result-schema.js';
import { COST_BASIS, costPer1MUsd, savingPct } from './cost.js';
import { levelAxis, levelValue } from './level-axis.js';

export interface CardInputs {
  levels: readonly LevelResult[];
  hourlyCostUsd: number | null;
  baselineRateUsdPer1M: number | null;
  /** A GPU label given by the user, used when telemetry found none. */
  gpuLabel: string | null;
}

export function modelCard(levels: readonly LevelResult[]): ModelCard {
  const single = levels.find((l) => l.concurrency === 1);
  if (!single) return { available: false, reason: 'no concurrency-1 level was measured' };
  if (single.invalid) return { available: false, reason: `the concurrency-1 level is invalid: ${single.invalidReason}` };
  if (!single.perRequestTokS || !single.ttftMs) return { available: false, reason: 'the concurrency-1 level has no successful request' };
  // A client-bound level is otherwise valid: its figures stay on the card, flagged with the reason.
  return {
    available: true,
    concurrency: 1,
    singleStreamTokS: single.perRequestTokS.mean,
    ttftMsP50: single.ttftMs.p50,
    tpotMsP50: single.tpotMs?.p50 ?? null,
    ...(single.clientBound.bound ? { clientBound: single.clientBound.reason ?? 'our own client lagged' } : {}),
  };
}

/** Throughput still rising by more than this from the level before the highest: not saturated. */
export const SATURATION_RISE = 0.05;

/**
 * Why the peak is not a saturation point, or null: the highest level tested
 * gives the peak and throughput still rose more than 5 % over the level
 * before it (or only one level counts), so the curve may go higher.
 */
export function notSaturated(levels: readonly LevelResult[]): string | null {
  // On the run's own axis: an open loop's levels are speeds or rates, not the peak in flight each reached.
  const axis = levelAxis(levels);
  const valid = levels.filter((l) => !l.invalid && !l.clientBound.bound && !providerLimited(l)).sort((a, b) => levelValue(a) - levelValue(b));
  const top = valid.at(-1);
  const highest = Math.max(...levels.map(levelValue));
  if (top === undefined || levelValue(top) !== highest) return null;
  const before = valid.at(-2);
  if (before === undefined) return `not saturated: the highest level tested (${axis.describe(levelValue(top))}) is the only one that counts`;
  const rise = top.throughputTokS / before.throughputTokS - 1;
  if (!(rise > SATURATION_RISE)) return null;
  return `not saturated: the highest level tested (${axis.describe(levelValue(top))}) gives the peak, ${Math.round(rise * 100)} % above ${axis.describe(levelValue(before))}`;
}

/** A level whose pace the provider's rate limit set: its throughput is the limit's, not a capacity. */
const providerLimited = (l: LevelResult): boolean => l.rateLimit?.limited === true;

/** The level with the most throughput among valid, trustworthy levels; null when none. */
function peakLevel(levels: readonly LevelResult[]): LevelResult | null {
  let peak: LevelResult | null = null;
  for (const l of levels) if (!l.invalid && !l.clientBound.bound && !providerLimited(l) && (!peak || l.throughputTokS > peak.throughputTokS)) peak = l;
  return peak;
}

/**
 * Peak over valid, trustworthy levels only; the others are listed with why.
 * An open loop's card also names each level on its own axis (`axis`, `peakAt`,
 * the curve's `level`): its `concurrency` is the peak in flight, and two
 * speeds may share one.
 */
export function engineCard(levels: readonly LevelResult[]): EngineCard {
  const axis = levelAxis(levels);
  const excluded: EngineCard['excluded'] = [];
  for (const l of levels) {
    const on = axis.open ? { level: axis.format(levelValue(l)) } : {};
    if (l.invalid) excluded.push({ concurrency: l.concurrency, reason: `invalid: ${l.invalidReason}`, ...on });
    else if (l.clientBound.bound) excluded.push({ concurrency: l.concurrency, reason: `client-bound: ${l.clientBound.reason}`, ...on });
    else if (providerLimited(l)) excluded.push({ concurrency: l.concurrency, reason: l.rateLimit?.reason ?? "limited by the provider's rate limit", ...on });
  }
  const peak = peakLevel(levels);
  return {
    peakThroughputTokS: peak?.throughputTokS ?? null,
    peakConcurrency: peak?.concurrency ?? null,
    ...(axis.open ? { axis: axis.name, peakAt: peak === null ? null : axis.describe(levelValue(peak)) } : {}),
    curve: levels.map((l) => ({
      concurrency: l.concurrency,
      ...(axis.open ? { level: axis.format(levelValue(l)) } : {}),
      throughputTokS: l.throughputTokS,
      perRequestTokS: l.perRequestTokS?.mean ?? null,
      invalid: l.invalid,
      clientBound: l.clientBound.bound,
    })),
    excluded,
    notSaturated: notSaturated(levels),
  };
}

export function platformCard(inputs: CardInputs, engine: EngineCard): PlatformCard {
  // Memory at the peak level; else the first level that has a reading.
  const candidates = [peakLevel(inputs.levels)?.gpuMemMiB, ...inputs.levels.map((l) => l.gpuMemMiB)];
  const memKnown = candidates.find((g) => g?.available === true) ?? null;
  const memReason = inputs.levels.map((l) => l.gpuMemMiB).find((g) => !g.available);
  const peak = engine.peakThroughputTokS;
  const cost = inputs.hourlyCostUsd !== null && peak !== null && peak > 0 ? costPer1MUsd(inputs.hourlyCostUsd, peak) : null;
  const saving = cost !== null && inputs.baselineRateUsdPer1M !== null ? savingPct(cost, inputs.baselineRateUsdPer1M) : null;
  let basis = COST_BASIS;
  if (inputs.hourlyCostUsd === null) basis = 'No hourly cost was given, so no cost figure is produced.';
  else if (peak === null) basis = 'No valid level was measured, so no cost figure is produced.';
  return {
    gpu: (memKnown?.available ? memKnown.gpu : null) ?? inputs.gpuLabel,
    gpuMemMiBPeak: memKnown?.available ? memKnown.peak : null,
    gpuMemMiBTotal: memKnown?.available ? memKnown.totalMiB : null,
    gpuMemSource: memKnown?.available ? memKnown.source : `not available${memReason && !memReason.available ? `: ${memReason.reason}` : ''}`,
    hourlyCostUsd: inputs.hourlyCostUsd,
    costPer1MOutputTokensUsd: cost,
    baselineRateUsdPer1M: inputs.baselineRateUsdPer1M,
    savingPct: saving,
    basis,
  };
}

export function buildCards(inputs: CardInputs): Cards {
  const engine = engineCard(inputs.levels);
  return { model: modelCard(inputs.levels), engine, platform: platformCard(inputs, engine) };
}
