/**
 * A server built of parts in a comparison: a disaggregated server's pools
 * (each pool's tokens per second and per GPU, the KV cache moved between them
 * and the time to first token split into its parts) and a fleet's targets
 * (each target's requests, failures, throughput and TTFT), per level and run.
 * A pool's figures are its own counters as the result states them; a target's
 * are recomputed from the records. Either way they are one value per level
 * and run of servers that are not the same from run to run, so they are set
 * side by side with no difference or verdict, and the notes name what a cell
 * cannot say (a pool without figures, a transfer not counted, a slow target).
 */
import { type FleetRun, type LevelResult, type TargetLevel, slowTarget } from '../../core/index.js';
import { type ServerSideComparison, type ServerSideRun, sideBySide } from './compare-server.js';
import { num } from './format.js';

/** A compared run with what its run states of its targets. */
export interface PartsRun extends ServerSideRun {
  run: { fleet?: FleetRun | undefined };
}

const POOLS_BASIS =
  "Each pool's own counters over the level's measured window, as each result states them (they are not in its records): one value per level and run, " +
  "so no difference or verdict is computed from them. Prefill is the prefill pool's prompt tokens, decode the decode pool's output tokens, per second; KV is Gbit/s over " +
  'the level and while transferring, the declared link in brackets (a rate above it is refused wherever a result is read); the TTFT split is queue + prefill + ' +
  "transfer + other: the prefill pool's queue and prefill means, the mean transfer and what is left of our mean TTFT, in brackets.";

export const POOL_HEADERS = ['Prefill: prompt tok/s (per GPU)', 'Decode: output tok/s (per GPU)', 'KV Gbit/s: level / transferring', 'TTFT split ms (of ours)'];

/** A pool's rate and its rate per GPU (when its GPUs were declared), or why it has none. */
function poolCell(d: NonNullable<LevelResult['disagg']>, role: 'prefill' | 'decode'): string {
  const r = d.roles.find((x) => x.role === role);
  if (r === undefined) return '—';
  if (r.error !== null) return 'no figures';
  const [rate, perGpu] = role === 'prefill' ? [r.promptTokensPerS, r.promptTokensPerSPerGpu] : [r.generatedTokensPerS, r.generatedTokensPerSPerGpu];
  return `${num(rate, 0)}${perGpu === null ? '' : ` (${num(perGpu, 0)} per GPU)`}`;
}

function poolCells(l: LevelResult): string[] {
  const d = l.disagg;
  if (d === undefined) return ['not disaggregated', '—', '—', '—'];
  const kv = d.kvTransfer;
  const s = d.ttftSplit;
  return [
    poolCell(d, 'prefill'),
    poolCell(d, 'decode'),
    kv === null ? '—' : `${num(kv.levelGbps, 3)} / ${num(kv.transferGbps, 3)}${kv.linkGbps === null ? '' : ` (of ${kv.linkGbps})`}`,
    s === null ? '—' : `${num(s.queueMs, 1)} + ${num(s.prefillMs, 1)} + ${num(s.transferMs, 1)} + ${num(s.otherMs, 1)} (of ${num(s.ttftMs, 1)})`,
  ];
}

/** What a level's pools cannot say in a cell: a pool without figures and why, its own notes, a transfer not counted or counted in time only, failed transfers. */
function poolNotes(where: string, l: LevelResult): string[] {
  const d = l.disagg;
  if (d === undefined) return [];
  const out = d.roles.flatMap((r) => [
    ...(r.error === null ? [] : [`${where}: the ${r.role} pool has no figures: ${r.error}`]),
    ...r.notes.map((n) => `${where}: the ${r.role} pool: ${n}`),
  ]);
  const kv = d.kvTransfer;
  if (kv === null) out.push(`${where}: no KV transfer counted (goodput reads vLLM's NIXL histograms and SGLang's transfer latency)`);
  else if (kv.bytes === null) out.push(`${where}: the ${kv.role} pool counts its KV transfers' time, not their bytes, so no rate`);
  if (kv !== null && kv.failed !== null && kv.failed > 0) out.push(`${where}: ${kv.failed} KV transfers failed`);
  return out;
}

/** The runs' pools side by side; null when no run's levels carry any. */
export function comparePools(runs: readonly ServerSideRun[], axis: string): ServerSideComparison | null {
  if (!runs.some((r) => r.levels.some((l) => l.disagg !== undefined))) return null;
  return sideBySide(runs, axis, { basis: POOLS_BASIS, headers: POOL_HEADERS, cells: poolCells, notes: poolNotes });
}

const FLEET_BASIS =
  "Each target's part of the level, recomputed from the run's records (each record names its target): its requests, failures, output tokens over the level's own " +
  "measured window (so a run's targets add up to its level) and TTFT p50, in the order of the run's targets. The targets of different runs are different servers, " +
  'so they are set side by side and no difference is computed between them.';

export const FLEET_COMPARE_HEADERS = ['Targets: requests each', 'Failed each', 'Throughput tok/s each', 'TTFT p50 ms each'];

function fleetCells(l: LevelResult): string[] {
  const t = l.targets;
  if (t === undefined) return ['one server', '—', '—', '—'];
  const each = (f: (x: TargetLevel) => string) => t.map(f).join(' / ');
  return [each((x) => String(x.requests)), each((x) => String(x.failed)), each((x) => num(x.throughputTokS, 1)), each((x) => num(x.ttftMs?.p50, 1))];
}

/** The runs' targets side by side, each fleet's targets and routing named first; null when no run routed over a fleet. */
export function compareFleet(runs: readonly PartsRun[], axis: string): ServerSideComparison | null {
  if (!runs.some((r) => r.levels.some((l) => l.targets !== undefined))) return null;
  const side = sideBySide(runs, axis, {
    basis: FLEET_BASIS,
    headers: FLEET_COMPARE_HEADERS,
    cells: fleetCells,
    notes: (where, l) => {
      const slow = l.targets === undefined ? null : slowTarget(l.targets);
      return slow === null ? [] : [`${where}: ${slow}`];
    },
  });
  const fleets = runs.flatMap((r) => {
    const f = r.run.fleet;
    return f === undefined ? [] : [`${r.label}: ${f.urls.length} targets routed ${f.route}, in this order: ${f.urls.join(', ')}`];
  });
  return { ...side, notes: [...fleets, ...side.notes] };
}
