/**
 * Evidence integrity of an embeddings or rerank side: its contract hashes to
 * the stated hash and describes this endpoint, every run keeps its records
 * under a hash that recomputes, the records are what the contract sends (items
 * per request, levels, warm-ups and measured counts), and every level, the
 * peak and the capacity recompute from those records with the code `goodput
 * run` used (core's poolingLevel). A level's server truth (runs that recorded
 * one) is checked as a text level's is (server-agreement.ts). What comes back
 * is the recomputation.
 */
import { type Contract, isPoolingEndpoint, poolingRecordsSha256, poolingSpecOf } from '../contract/index.js';
import { checkedSide, recordsRefusal } from './evidence-check.js';
import type { KindSide } from './receipt-kind.js';
import { clientBoundRefusals } from './contract-speaks.js';
import { wholePhysicsRefusals } from './whole-physics.js';
import { type PoolingRecord, type PoolingResult, poolingCapacity, poolingLevel, poolingPeak } from '../core/index.js';
import type { ConfigurationKey } from './fact.js';
import { type Refusal, refusal } from './refusal.js';
import { differenceText, differences } from './same-numbers.js';
import { impossibleRecords, levelRefusal, listed, sharedLevelProblems } from './record-physics.js';
import { poolingServerTruthRefusals } from './server-agreement.js';
import { runSetRefusals } from './run-set-check.js';

/** Every run of a pooling result, the top level first (repeats share its contract and report). */
export function poolingRunsOf(r: PoolingResult): PoolingResult[] {
  const { repeats, ...top } = r;
  return [top, ...(repeats ?? []).map((x) => ({ ...top, records: undefined, recordsSha256: undefined, ...x }))];
}

/** What each record must be, by the contract: the level's warm-ups then its measured requests, each carrying the contract's items. */
function recordRefusals(where: string, contract: Contract, run: PoolingResult, records: readonly PoolingRecord[]): Refusal[] {
  const spec = poolingSpecOf(contract, 'http://127.0.0.1', undefined, '');
  const out: Refusal[] = [];
  records.forEach((r, i) => {
    if (r.items !== spec.itemsPerRequest)
      out.push(refusal('records-reproduce', `${where} records[${i}].items`, `is ${r.items}; the contract sends ${spec.itemsPerRequest} per request`));
    if (run.run.endpoint === 'rerank' && r.dimension !== null)
      out.push(refusal('records-reproduce', `${where} records[${i}].dimension`, 'is stated for a rerank request, which returns no vectors'));
  });
  const levels = new Set(run.levels.map((l) => l.concurrency));
  const stray = [...new Set(records.map((r) => r.concurrency))].filter((c) => !levels.has(c));
  if (stray.length > 0) out.push(refusal('records-reproduce', `${where} records`, `include concurrency ${stray.join(', ')}, which has no level summary`));
  const measuredLevels = [...levels].sort((a, b) => a - b).join(', ');
  const asked = [...new Set(run.run.levelsRequested)].sort((a, b) => a - b).join(', ');
  if (measuredLevels !== asked)
    out.push(refusal('level-count', `${where} levels`, `are at concurrency ${measuredLevels}; a complete run measures every level it asked for (${asked})`));
  // Sequence numbers, counts and requests in flight: the checks every kind's records get, worded as for text.
  const shared = run.levels.flatMap((l) => {
    const own = records.filter((r) => r.concurrency === l.concurrency);
    const span = (r: PoolingRecord) => [r.sentNs, r.endNs] as const;
    return sharedLevelProblems({ contract, concurrency: l.concurrency, records: own, span }).map((p) => levelRefusal(where, l.concurrency, p));
  });
  return [...out, ...listed(where, shared, impossibleRecords)];
}

function checkRun(side: ConfigurationKey, k: number, run: PoolingResult, contract: Contract, allow: boolean, out: Refusal[]): PoolingResult | null {
  const where = `evidence.${side}: run ${k + 1}`;
  const before = out.length;
  const unusable = recordsRefusal(where, run, poolingRecordsSha256);
  if (unusable !== null || run.records === undefined) {
    if (unusable !== null) out.push(unusable);
    return null;
  }
  // The run's own description of what it sent must be the contract's.
  const spec = poolingSpecOf(contract, run.run.url, undefined, run.run.command);
  const expected = {
    endpoint: spec.endpoint,
    itemsPerRequest: spec.itemsPerRequest,
    itemTokens: spec.itemTokens,
    queryTokens: spec.endpoint === 'rerank' ? (spec.queryTokens ?? null) : null,
    levelsRequested: spec.levels,
    requestsPerLevel: spec.requestsPerLevel,
    warmupPerLevel: spec.warmup,
    hourlyCostUsd: spec.hourlyCostUsd,
    seed: spec.seed,
    latencySlo: spec.latencySlo,
  };
  const stated = Object.fromEntries(Object.keys(expected).map((key) => [key, run.run[key as keyof typeof expected]]));
  for (const d of differences(stated, expected, 'run', false))
    out.push(refusal('contract-speaks', `${where} ${d.path}`, differenceText(d, 'its contract says')));
  out.push(...recordRefusals(where, contract, run, run.records));
  for (const l of run.levels) {
    const records = run.records.filter((r) => r.concurrency === l.concurrency).map((r) => ({ sendNs: r.sentNs, endNs: r.endNs }));
    if (l.clientBound !== undefined) out.push(...clientBoundRefusals(where, { concurrency: l.concurrency, clientBound: l.clientBound }, records));
  }
  if (out.length > before) return null;
  const view = {
    itemTokens: run.run.itemTokens,
    queryTokens: run.run.queryTokens,
    tokenizerExact: run.run.tokenizer.exact,
    startedAt: run.run.startedAt,
    endedAt: run.run.endedAt,
    levels: run.levels.length,
  };
  out.push(...wholePhysicsRefusals(where, view, run.records));
  out.push(...poolingServerTruthRefusals(where, run, allow));
  if (out.length > before) return null;
  const levels = run.levels.map((stated) => {
    // The loop delay and busy share are not in the records: taken from the stated level, the verdict recomputed.
    const cb = stated.clientBound;
    const client = cb === undefined ? null : { loopDelayMs: cb.loopDelayMs, clientCpuPct: cb.clientCpuPct, budgetMs: cb.budgetMs };
    // The server's own view is not in the records: checked above against them, and kept as stated.
    const again = {
      ...poolingLevel(
        stated.concurrency,
        run.records?.filter((r) => r.concurrency === stated.concurrency) ?? [],
        run.run.hourlyCostUsd,
        run.run.latencySlo,
        client,
      ),
      ...(stated.serverTruth === undefined ? {} : { serverTruth: stated.serverTruth }),
    };
    for (const d of differences(stated, again, `levels[c=${stated.concurrency}]`, false))
      out.push(refusal('records-reproduce', `${where} ${d.path}`, differenceText(d, 'its records give')));
    return again;
  });
  const peak = poolingPeak(levels);
  const capacity = run.run.latencySlo === null ? null : poolingCapacity(levels, run.run.latencySlo);
  for (const d of differences({ peak: run.peak, capacity: run.capacity }, { peak, capacity }, '', false))
    out.push(refusal('records-reproduce', `${where} ${d.path}`, differenceText(d, 'its levels give')));
  return out.length > before ? null : { ...run, levels, peak, capacity };
}

/** Checks one pooling side; refusals are appended to `out`, the side rebuilt (levels, peak and capacity from its records) returned when there are none. */
export function checkPoolingEvidence(
  side: ConfigurationKey,
  result: PoolingResult,
  out: Refusal[],
  allowServerDisagreement = false,
): KindSide<PoolingResult> | null {
  return checkedSide(side, result, out, {
    refuse: (contract) =>
      !isPoolingEndpoint(contract.server.endpoint) || contract.server.endpoint !== result.run.endpoint
        ? refusal(
            'contract-speaks',
            `evidence.${side}: run.endpoint`,
            `is ${result.run.endpoint}, but its contract's server.endpoint is ${contract.server.endpoint}`,
          )
        : null,
    runs: poolingRunsOf(result),
    // A signed set's own rules come beside the declared count's, as for text, so a dropped run is named by both.
    repeats: (contract, all) => {
      const declared = contract.repeats ?? 1;
      const held = `holds ${all.length} ${all.length === 1 ? 'run' : 'runs'}, but the contract declares ${declared}; every run of a declared set ships`;
      return [
        ...(all.length === declared ? [] : [refusal('repeats-declared', `evidence.${side}: repeats`, held)]),
        ...runSetRefusals(`evidence.${side}`, declared, result.contractHash ?? '', result.runSet, all, poolingRecordsSha256),
      ];
    },
    run: (r, k, contract) => checkRun(side, k, r, contract, allowServerDisagreement, out),
  });
}
