/**
 * The facts fact set 5 adds to each level of a server built of parts: a
 * disaggregated server's pools (the prefill pool's prompt rate and the decode
 * pool's generation rate, in all and per declared GPU, and the KV rates over
 * the level and while transferring) and a fleet's targets (the least- and
 * most-served target's throughput and the slowest target's TTFT p50). A
 * pool's figures rest on its own counters, which the result states and its
 * records cannot give (only the arithmetic on them is redone): they stand on
 * the run's signature or the publisher's word. A target's figures are
 * recomputed from the records, each of which names its target. Each fact's
 * note says where it came from, or why it has no value.
 */
import type { DisaggLevel, LevelResult, TargetLevel } from '../core/index.js';
import type { MetricKey } from '../web/index.js';
import type { CheckedRun } from './run-pair.js';

/** Fact set 5 adds these to each level of a disaggregated server. */
export const POOL_METRICS = [
  'prefillTokS',
  'prefillTokSPerGpu',
  'decodeTokS',
  'decodeTokSPerGpu',
  'kvGbps',
  'kvTransferGbps',
] as const satisfies readonly MetricKey[];
type PoolMetric = (typeof POOL_METRICS)[number];

/** Fact set 5 adds these to each level of a fleet. */
export const FLEET_METRICS = ['targetTokSMin', 'targetTokSMax', 'targetTtftP50Max'] as const satisfies readonly MetricKey[];
type FleetMetric = (typeof FLEET_METRICS)[number];

/** What each pool fact rests on that the records cannot give (standing.ts words it). */
export const POOL_STATED: Readonly<Record<PoolMetric, string>> = {
  prefillTokS: "the prefill pool's own counters",
  prefillTokSPerGpu: "the prefill pool's own counters",
  decodeTokS: "the decode pool's own counters",
  decodeTokSPerGpu: "the decode pool's own counters",
  kvGbps: "the pools' KV transfer histograms",
  kvTransferGbps: "the pools' KV transfer histograms",
};

/** The runs' levels carry pools or targets: a receipt of them states fact set 5. */
export const carriesServerParts = (result: CheckedRun['result']): boolean => result.levels.some((l) => l.disagg !== undefined || l.targets !== undefined);

const isPool = (key: MetricKey): key is PoolMetric => (POOL_METRICS as readonly string[]).includes(key);
const isFleet = (key: MetricKey): key is FleetMetric => (FLEET_METRICS as readonly string[]).includes(key);
const count = (x: number): string => Math.round(x).toLocaleString('en-US');

/** Where a pool rate came from, or why it has none. */
function roleNote(d: DisaggLevel, key: 'prefillTokS' | 'prefillTokSPerGpu' | 'decodeTokS' | 'decodeTokSPerGpu', value: number | null): string {
  const role = key.startsWith('prefill') ? 'prefill' : 'decode';
  const what = role === 'prefill' ? 'prompt' : 'generated';
  const r = d.roles.find((x) => x.role === role);
  if (r === undefined) return `no ${role} pool's metrics endpoint was given`;
  if (r.error !== null) return `the ${role} pool has no figures: ${r.error}`;
  const tokens = role === 'prefill' ? r.promptTokens : r.generatedTokens;
  if (tokens === null) return `the ${role} pool reported no ${what} tokens`;
  const perGpu = key.endsWith('PerGpu');
  if (perGpu && r.gpus === null) return `the ${role} pool's GPUs were not declared (--pool-gpus)`;
  const over = `the ${role} pool's counters: ${count(tokens)} ${what} tokens over the ${(d.windowMs / 1000).toFixed(2)} s measured window`;
  return value === null ? `${over}, which has no length` : `${over}${perGpu ? ` ÷ ${r.gpus} GPUs declared` : ''}`;
}

/** Where a KV rate came from, or why it has none. */
function kvNote(d: DisaggLevel, key: 'kvGbps' | 'kvTransferGbps', value: number | null): string {
  const kv = d.kvTransfer;
  if (kv === null) return "no KV transfer counted (goodput reads vLLM's NIXL histograms and SGLang's transfer latency)";
  if (kv.bytes === null) return `the ${kv.role} pool counts its KV transfers' time, not their bytes`;
  const over = key === 'kvGbps' ? `the ${(d.windowMs / 1000).toFixed(2)} s measured window` : `${kv.seconds ?? 0} s of summed transfer time`;
  if (value === null) return key === 'kvGbps' ? 'the measured window has no length' : "the transfers' time was not reported";
  const link = kv.linkGbps === null ? '; no link bandwidth declared' : `; the declared link carries ${kv.linkGbps} Gbit/s`;
  return `${count(kv.bytes)} bytes in ${count(kv.transfers ?? 0)} transfers (${kv.source}, the ${kv.role} pool) over ${over}${link}`;
}

/** Each target's value in the run's order, or why the fact has none. */
function fleetNote(targets: readonly TargetLevel[], key: FleetMetric, value: number | null): string {
  if (key === 'targetTtftP50Max') {
    if (value === null) return 'no target had a successful request';
    return `TTFT p50 of targets 1–${targets.length} in the run's order: ${targets.map((t) => (t.ttftMs === null ? '—' : t.ttftMs.p50.toFixed(1))).join(' / ')} ms`;
  }
  return `throughput of targets 1–${targets.length} in the run's order: ${targets.map((t) => t.throughputTokS.toFixed(1)).join(' / ')} tok/s; requests ${targets.map((t) => t.requests).join(' / ')}`;
}

/** A level's own words on a fact of set 5; undefined for any other fact. */
export function partsFactNote(key: MetricKey, l: LevelResult, value: number | null): string | undefined {
  if (isPool(key) && l.disagg !== undefined)
    return key === 'kvGbps' || key === 'kvTransferGbps' ? kvNote(l.disagg, key, value) : roleNote(l.disagg, key, value);
  if (isFleet(key) && l.targets !== undefined) return fleetNote(l.targets, key, value);
  return undefined;
}
