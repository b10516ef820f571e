/**
 * A forger with goodput's own code: edits a result's records, contract or run
 * facts, then recomputes everything a hash or a summary would betray (level
 * summaries and cards from the records, recordsSha256, contractHash), so only
 * the checks that go past arithmetic can catch the lie.
 */
import { type Contract, contractHash, contractSchema, recordsSha256, type StoredRecord } from '../contract/index.js';
import { type SweepResult, buildCards } from '../core/index.js';
import { levelFromRecords } from '../runner/index.js';

export interface Forgery {
  records?: (records: StoredRecord[]) => StoredRecord[];
  contract?: (c: Record<string, any>) => void; // eslint-disable-line @typescript-eslint/no-explicit-any
  run?: (run: Record<string, any>) => void; // eslint-disable-line @typescript-eslint/no-explicit-any
  levels?: (levels: SweepResult['levels']) => SweepResult['levels'];
}

/** The result's top-level run forged and made self-consistent again. */
export function forge(result: SweepResult, f: Forgery): SweepResult {
  const copy = structuredClone(result);
  if (f.run) f.run(copy.run as unknown as Record<string, unknown>);
  const records = f.records ? f.records(copy.records ?? []) : (copy.records ?? []);
  const stated = f.levels ? f.levels(copy.levels) : copy.levels;
  const levels = stated.map((l) =>
    levelFromRecords(
      copy,
      l,
      records.filter((r) => r.concurrency === l.concurrency),
    ),
  );
  let contract = copy.contract;
  let hash = copy.contractHash;
  if (f.contract) {
    const c = structuredClone(copy.contract) as Record<string, unknown>;
    f.contract(c);
    const parsed = contractSchema.parse(c) as Contract;
    contract = parsed as unknown as Record<string, unknown>;
    hash = contractHash(parsed);
  }
  const cards = buildCards({ levels, hourlyCostUsd: copy.run.hourlyCostUsd, baselineRateUsdPer1M: copy.run.baselineRateUsdPer1M, gpuLabel: copy.run.gpuLabel });
  return { ...copy, levels, cards, records, recordsSha256: recordsSha256(records), contract, contractHash: hash };
}
