/**
 * A receipt's limitations, generated from its facts and runs so they cannot be
 * forgotten: what was not a GPU, which levels do not count, what was not
 * recorded, how prompt lengths were counted, and that each side ran once.
 */
import type { ConfigurationKey, Fact } from './fact.js';
import { type Contract, runsOf } from '../contract/index.js';
import { daysBetween } from './receipt-dates.js';
import { notSaturated } from '../core/index.js';
import type { CheckedRun } from './run-pair.js';
import { serverTruthLimitations } from './server-agreement.js';

/** A GPU rate older than this when the run was measured is flagged as stale. */
export const STALE_PRICE_DAYS = 90;

/** Measured against the goodput simulator (by the engine it reported, or a SimGPU label), not a real GPU. */
export function isSimulated(run: CheckedRun): boolean {
  const engine = `${run.result.run.engine?.name ?? ''} ${run.result.run.engine?.version ?? ''}`;
  // The server's own account decides first: a simulator says so at /sim/config whatever the labels claim.
  return (run.result.serverAccount?.simulator ?? null) !== null || /goodput-sim|simulat/i.test(engine) || /simgpu/i.test(run.contract.hardware.label);
}

function runLimits(cfg: ConfigurationKey, run: CheckedRun): string[] {
  const r = run.result;
  const out: string[] = [];
  if (isSimulated(run)) out.push(simulatedLimit(cfg));
  const invalid = r.levels.filter((l) => l.invalid).map((l) => l.concurrency);
  if (invalid.length > 0) out.push(`${cfg}: invalid level(s) at concurrency ${invalid.join(', ')} (failed requests) are excluded from peaks.`);
  const bound = r.levels.filter((l) => l.clientBound.bound).map((l) => l.concurrency);
  if (bound.length > 0)
    out.push(
      `${cfg}: level(s) at concurrency ${bound.join(', ')} were client-bound (our own client lagged), so their timing is not trusted and they are excluded from peaks.`,
    );
  const tok = r.tokenizer;
  // By kind, not by label: the label can name the server's address.
  const counted =
    tok === undefined
      ? 'without a recorded tokenizer'
      : tok.kind === 'approximate'
        ? 'by the word approximation (no tokenizer was available)'
        : `with the ${tok.kind === 'file' ? "contract's tokenizer file" : "server's tokenizer"}`;
  if (tok === undefined || !tok.exact) out.push(`${cfg}: prompt lengths were counted ${counted}, so they are approximate.`);
  out.push(...stalePriceLimit(cfg, run));
  const open = notSaturated(r.levels);
  if (open !== null) out.push(`${cfg}: ${open}; its peak is a floor, and its cost is at the highest throughput measured, not at saturation.`);
  out.push(...serverTruthLimitations(cfg, runsOf(r)));
  out.push(...warningsLimit(cfg, r.warnings));
  return out;
}

/** Limitations every kind states alike: a simulator, not a GPU; a stale rate; the run's warnings. */
export const simulatedLimit = (cfg: ConfigurationKey): string =>
  `${cfg}: measured against the goodput simulator, not a real GPU; its figures show the method, not what any hardware achieves.`;

export function stalePriceLimit(cfg: ConfigurationKey, run: { contract: Contract; result: { run: { startedAt: string } } }): string[] {
  const asOf = run.contract.hardware.priceAsOf?.slice(0, 10);
  const measured = run.result.run.startedAt.slice(0, 10);
  if (asOf === undefined || daysBetween(asOf, measured) <= STALE_PRICE_DAYS) return [];
  return [
    `${cfg}: the GPU hourly rate is as of ${asOf}, ${daysBetween(asOf, measured)} days before the run (more than ${STALE_PRICE_DAYS}); the cost may not reflect the rate when it was measured.`,
  ];
}

export const warningsLimit = (cfg: ConfigurationKey, warnings: ReadonlyArray<{ code: string }>): string[] =>
  warnings.length > 0 ? [`${cfg}: the run recorded warnings: ${[...new Set(warnings.map((w) => w.code))].join(', ')}.`] : [];

/** How often each side ran, and what that lets a receipt call better or worse. */
export function repeatsLimitation(n: Record<ConfigurationKey, number>): string {
  return n.baseline === 1 || n.optimized === 1
    ? `${n.baseline === 1 && n.optimized === 1 ? 'Each configuration was' : n.baseline === 1 ? 'The baseline was' : 'The optimized configuration was'} run once, so no change is called better or worse: a difference is established only over at least 3 runs a side.`
    : `The baseline ran ${n.baseline} times and the optimized configuration ${n.optimized} times; the figures are the first run's, and a change is called better or worse only when each side ran at least 3 times and the seeded 95 % bootstrap interval of the difference over the runs excludes zero.`;
}

/** Each figure without a value, with why. */
export function missingLimitations(facts: readonly Fact[]): string[] {
  return facts.filter((f) => f.value === null).map((f) => `${f.label} (${f.configuration}, ${f.statistic}) is not recorded: ${f.note ?? 'no value'}.`);
}

export function limitationsOf(runs: Record<ConfigurationKey, CheckedRun>, facts: readonly Fact[]): string[] {
  return [
    repeatsLimitation({ baseline: runsOf(runs.baseline.result).length, optimized: runsOf(runs.optimized.result).length }),
    ...runLimits('baseline', runs.baseline),
    ...runLimits('optimized', runs.optimized),
    ...missingLimitations(facts),
    ...imagesByUrlLimitation(runs.baseline.contract),
    `The cost figure is a GPU compute estimate at ${saturatedBoth(runs) ? 'measured saturation' : 'the highest throughput measured'}: it excludes idle time, CPU, memory, networking, redundancy and platform fees.`,
  ];
}

/** Images by URL: where the servers fetched them is withheld, and what stands in for it (one workload on both sides). */
function imagesByUrlLimitation(c: Contract): string[] {
  const byUrl = (c.workload.images ?? []).some((i) => i?.delivery === 'url');
  return byUrl
    ? [
        "The images were sent by URL: the image base URL the servers fetched them from is withheld. Each level's evidence names the files goodput's image server offered (count, bytes, SHA-256), which the contract's seed redraws.",
      ]
    : [];
}

/** Both configurations' peaks are saturation points (see notSaturated). */
export function saturatedBoth(runs: Record<ConfigurationKey, CheckedRun>): boolean {
  return notSaturated(runs.baseline.result.levels) === null && notSaturated(runs.optimized.result.levels) === null;
}
