/**
 * Only the contract whose hash recomputes speaks for the workload: a run's own
 * copy of its SLOs, output cap, requests per level, warm-ups, levels, GPU label
 * and rate must be the contract's, and a level's client-bound verdict is
 * judged with the budget `goodput run` uses from a loop delay its records'
 * timing can hold. A run fact a forger rewrote is refused naming it.
 */
import type { Contract } from '../contract/index.js';
import { type ClientBound, DEFAULT_CLIENT_BUDGET_MS, type SweepResult } from '../core/index.js';
import { type Refusal, refusal } from './refusal.js';
import { contractCap } from './record-physics.js';

const json = (v: unknown): string =>
  JSON.stringify(v ?? null, (_k, x: unknown) =>
    x !== null && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(
          Object.entries(x as Record<string, unknown>)
            .filter(([, y]) => y !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : x,
  );

/** The run facts the contract fixes, as `goodput run` writes them. */
function contractFacts(c: Contract): Array<[string, unknown]> {
  const floor = c.slo.qualityFloor ?? c.quality.floor;
  const cap = contractCap(c);
  return [
    ['slo', { ...c.slo, ...(floor === undefined ? {} : { qualityFloor: floor }) }],
    ...(cap === null ? [] : [['outputTokens', cap] as [string, unknown]]),
    ['forceLength', c.decoding.ignoreEos],
    ['requestsPerLevel', c.workload.requestsPerLevel],
    ['warmupPerLevel', c.workload.warmup],
    ['levelsRequested', c.load.levels],
    ['hourlyCostUsd', c.hardware.gpuHourlyUsd ?? null],
    ['gpuLabel', c.hardware.label],
    // Absent from both before --lora: no refusal for a contract or a run of an earlier version.
    ['lora', c.workload.lora],
  ];
}

/** Refusals for one run whose facts or levels are not its contract's; `where` names the run. */
export function contractSpeaksRefusals(where: string, c: Contract, run: SweepResult): Refusal[] {
  const out: Refusal[] = [];
  const facts = run.run as unknown as Record<string, unknown>;
  for (const [key, value] of contractFacts(c)) {
    if (json(facts[key]) !== json(value))
      out.push(
        refusal(
          'contract-speaks',
          `${where} run.${key}`,
          `states ${json(facts[key]).slice(0, 120)}, the hash-checked contract ${json(value).slice(0, 120)}; only the contract states the workload`,
        ),
      );
  }
  const wanted = [...new Set(c.load.levels)].sort((a, b) => a - b);
  const got = run.levels.map((l) => l.concurrency).sort((a, b) => a - b);
  if (json(got) !== json(wanted))
    out.push(
      refusal('contract-speaks', `${where} levels`, `are concurrency ${got.join(', ') || 'none'}; the contract runs ${wanted.join(', ')}, every one of them`),
    );
  return out;
}

/** The span of a level's records in ms: no recorded client stall can be longer than the level itself. */
function spanMs(records: ReadonlyArray<{ sendNs: number; endNs: number | null }>): number {
  if (records.length === 0) return 0;
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of records) {
    lo = Math.min(lo, r.sendNs);
    hi = Math.max(hi, r.endNs ?? r.sendNs);
  }
  return (hi - lo) / 1e6;
}

/**
 * A level's client-bound inputs: the budget is goodput run's own, the loop
 * delay's percentiles are ordered and no longer than the level's records
 * last, and the busy share is a share.
 */
export function clientBoundRefusals(
  where: string,
  level: { concurrency: number; clientBound: ClientBound },
  records: ReadonlyArray<{ sendNs: number; endNs: number | null }>,
): Refusal[] {
  const out: Refusal[] = [];
  const cb = level.clientBound;
  const field = `${where} levels[c=${level.concurrency}].clientBound`;
  if (cb.budgetMs !== DEFAULT_CLIENT_BUDGET_MS)
    out.push(refusal('contract-speaks', `${field}.budgetMs`, `states ${cb.budgetMs}; goodput run judges every level with ${DEFAULT_CLIENT_BUDGET_MS} ms`));
  const d = cb.loopDelayMs;
  if (d !== null) {
    const span = spanMs(records);
    if (!(d.p50 <= d.p99 && d.p99 <= d.max))
      out.push(refusal('client-bound-evidence', `${field}.loopDelayMs`, `states p50 ${d.p50}, p99 ${d.p99}, max ${d.max}: percentiles out of order`));
    else if (d.max > span)
      out.push(refusal('client-bound-evidence', `${field}.loopDelayMs`, `states a stall of ${d.max} ms in a level whose records span ${span.toFixed(1)} ms`));
  }
  if (cb.clientCpuPct !== null && cb.clientCpuPct > 100)
    out.push(refusal('client-bound-evidence', `${field}.clientCpuPct`, `states ${cb.clientCpuPct} %; the client's busy share of one core is at most 100 %`));
  return out;
}

/**
 * Repeats are declared up front: the contract's count is the number of runs
 * shipped, each carrying its index in one repeat set, so none can be dropped
 * (or a better one swapped in from another set) unseen.
 */
export function repeatRefusals(where: string, c: Contract, runs: readonly SweepResult[]): Refusal[] {
  const declared = c.repeats ?? 1;
  if (runs.length !== declared) {
    const why =
      c.repeats === undefined
        ? 'but the contract declares no repeat count (goodput run --repeats N declares it before the first run)'
        : `but the contract declares ${declared}; every run of a declared set ships`;
    return [refusal('repeats-declared', `${where}: repeats`, `holds ${runs.length} ${runs.length === 1 ? 'run' : 'runs'}, ${why}`)];
  }
  if (declared === 1) return [];
  const out: Refusal[] = [];
  const set = runs[0]?.run.repeat?.set;
  runs.forEach((r, k) => {
    const rep = r.run.repeat;
    if (rep === undefined || rep.index !== k + 1 || rep.of !== declared || rep.set !== set) {
      out.push(
        refusal(
          'repeats-declared',
          `${where}: run ${k + 1} run.repeat`,
          `is ${rep === undefined ? 'absent' : `run ${rep.index} of ${rep.of} in set ${rep.set}`}; run ${k + 1} of ${declared} in one set ${set ?? '(none)'} was expected`,
        ),
      );
    }
  });
  return out;
}
