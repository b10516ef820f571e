/**
 * Evidence integrity of one side's result file: its contract hash recomputes,
 * every run carries its raw records under a hash that recomputes, and every
 * level summary and card recomputes from those records with the code `goodput
 * run` used (runner's levelResult, core's buildCards). What comes back is the
 * recomputation, never the file's own numbers.
 */
import { type Contract, type StoredRecord, recordsSha256, runsOf, verifiedContract } from '../contract/index.js';
import { type SweepResult, buildCards, engineCard, modelCard } from '../core/index.js';
import { levelFromRecords } from '../runner/index.js';
import { clientBoundRefusals, contractSpeaksRefusals, repeatRefusals } from './contract-speaks.js';
import type { ConfigurationKey } from './fact.js';
import { imageFilesRefusals } from './image-files.js';
import { physicsRefusals } from './record-physics.js';
import { serverTruthRefusals } from './server-agreement.js';
import { type Refusal, refusal } from './refusal.js';
import { runSetRefusals } from './run-set-check.js';
import { differenceText, differences } from './same-numbers.js';
import type { KindSide, ReceiptResult } from './receipt-kind.js';

/** How a kind checks one side: what it refuses of the contract before any run, its runs, their declared count, and one run rebuilt from its records. */
export interface SideChecks<R> {
  refuse(contract: Contract): Refusal | null;
  runs: readonly R[];
  repeats(contract: Contract, runs: readonly R[]): Refusal[];
  run(run: R, k: number, contract: Contract): R | null;
}

/** One side checked as every kind checks it; refusals are appended to `out`, the side rebuilt from its records (run 1 first) returned when there are none. */
export function checkedSide<R extends ReceiptResult>(side: ConfigurationKey, result: R, out: Refusal[], checks: SideChecks<R>): KindSide<R> | null {
  const before = out.length;
  const v = trustedContract(side, result, out);
  if (v === null) return null;
  const refused = checks.refuse(v.contract);
  if (refused !== null) {
    out.push(refused);
    return null;
  }
  out.push(...checks.repeats(v.contract, checks.runs));
  if (out.length > before) return null;
  const runs = checks.runs.map((r, k) => checks.run(r, k, v.contract));
  if (out.length > before) return null;
  return { contract: v.contract, contractHash: v.hash, runs: runs as R[] };
}

/** The contract a side's result carries, once it parses and hashes to the stated hash; else null with the refusal in `out`. */
export function trustedContract(
  side: ConfigurationKey,
  result: Pick<SweepResult, 'contract' | 'contractHash'>,
  out: Refusal[],
): { contract: Contract; hash: string } | null {
  const v = verifiedContract(result);
  if (v.ok) return v;
  if (v.reason === 'absent')
    out.push(
      refusal(
        'contract-hash',
        `evidence.${side}: contract`,
        'is not in the result, so its workload cannot be reconstructed (record runs with goodput run CONTRACT.yaml)',
      ),
    );
  if (v.reason === 'schema') for (const i of v.issues) out.push(refusal('schema', `evidence.${side}: contract.${i.path}`, i.message));
  if (v.reason === 'hash')
    out.push(
      refusal('contract-hash', `evidence.${side}: contractHash`, `states ${v.stated ?? 'none'}, its contract hashes to ${v.actual}; the contract was edited`),
    );
  return null;
}

/** A run a receipt can use: complete, with its records under a hash that recomputes (`hashOf`); else the refusal. */
export function recordsRefusal<T>(
  where: string,
  run: { run: { status: string; stopReason: string | null }; records?: readonly T[]; recordsSha256?: string },
  hashOf: (records: readonly T[]) => string,
): Refusal | null {
  if (run.run.status !== 'complete')
    return refusal(
      'run-complete',
      `${where} status`,
      `is ${run.run.status}${run.run.stopReason ? ` (${run.run.stopReason})` : ''}; a receipt compares complete runs`,
    );
  if (run.records === undefined || run.recordsSha256 === undefined) {
    return refusal(
      'records-reproduce',
      `${where} records`,
      'are not in the result, so its level summaries cannot be recomputed; record it again with goodput run CONTRACT.yaml --json FILE',
    );
  }
  const hash = hashOf(run.records);
  return hash === run.recordsSha256
    ? null
    : refusal('records-hash', `${where} recordsSha256`, `states ${run.recordsSha256}, its records hash to ${hash}; the records were edited`);
}

function checkRun(side: ConfigurationKey, k: number, run: SweepResult, contract: Contract, allow: boolean, out: Refusal[]): SweepResult | null {
  const synthetic = contract.workload.prompts.kind === 'synthetic';
  const where = `evidence.${side}: run ${k + 1}`;
  const unusable = recordsRefusal(where, run, recordsSha256);
  if (unusable !== null || run.records === undefined) {
    if (unusable !== null) out.push(unusable);
    return null;
  }
  if (run.records.some((r) => (r.cell ?? 0) !== 0)) {
    out.push(refusal('records-reproduce', `${where} records`, 'belong to more than one matrix cell; a receipt compares one-cell contracts'));
    return null;
  }
  const byLevel = new Map<number, StoredRecord[]>();
  for (const r of run.records) byLevel.set(r.concurrency, [...(byLevel.get(r.concurrency) ?? []), r]);
  const stray = [...byLevel.keys()].filter((c) => !run.levels.some((l) => l.concurrency === c));
  if (stray.length > 0) out.push(refusal('records-reproduce', `${where} records`, `include concurrency ${stray.join(', ')}, which has no level summary`));
  const before = out.length;
  out.push(...contractSpeaksRefusals(where, contract, run), ...imageFilesRefusals(where, contract, run));
  for (const l of run.levels) out.push(...clientBoundRefusals(where, l, byLevel.get(l.concurrency) ?? []));
  if (out.length > before) return null;
  const stall = (c: number) => run.levels.find((l) => l.concurrency === c)?.clientBound.loopDelayMs?.max ?? null;
  out.push(...physicsRefusals(where, contract, run.records, stall, run.tokenizer?.exact === true));
  if (out.length > before) return null;
  out.push(...serverTruthRefusals(where, run, allow));
  if (out.length > before) return null;
  const levels = run.levels.map((stated) => {
    const records = byLevel.get(stated.concurrency) ?? [];
    const again = levelFromRecords(run, stated, records);
    // Corpora carry per-prompt output caps the result does not hold: their short count is not recomputed.
    const compare = synthetic ? again : { ...again, outputTokens: { ...again.outputTokens, short: stated.outputTokens.short } };
    for (const d of differences(stated, compare, `levels[c=${stated.concurrency}]`, false)) {
      out.push(refusal('records-reproduce', `${where} ${d.path}`, differenceText(d, 'its records give')));
    }
    return compare;
  });
  if (out.length > before) return null;
  const cards = buildCards({ levels, hourlyCostUsd: run.run.hourlyCostUsd, baselineRateUsdPer1M: run.run.baselineRateUsdPer1M, gpuLabel: run.run.gpuLabel });
  for (const d of differences({ model: run.cards.model, engine: run.cards.engine }, { model: modelCard(levels), engine: engineCard(levels) }, 'cards', false)) {
    out.push(refusal('records-reproduce', `${where} ${d.path}`, differenceText(d, 'its levels give')));
  }
  return out.length > before ? null : { ...run, levels, cards };
}

/** Checks one side's result; refusals are appended to `out`, the rebuilt side returned when there are none. */
export function checkEvidence(side: ConfigurationKey, result: SweepResult, out: Refusal[], allowServerDisagreement = false): KindSide<SweepResult> | null {
  return checkedSide(side, result, out, {
    refuse: (contract) =>
      contract.load.pattern.kind !== 'concurrency'
        ? refusal(
            'same-workload',
            `evidence.${side}: contract.load.pattern.kind`,
            `is ${contract.load.pattern.kind}; a receipt compares closed-loop concurrency sweeps`,
          )
        : result.matrix !== undefined
          ? refusal('same-workload', `evidence.${side}: matrix`, 'a receipt compares one-cell contracts, not a matrix')
          : null,
    runs: runsOf(result),
    // A signed set's own rules come beside the declared count's, so a dropped run is named by both.
    repeats: (contract, all) => [
      ...repeatRefusals(`evidence.${side}`, contract, all),
      ...runSetRefusals(`evidence.${side}`, contract.repeats ?? 1, result.contractHash ?? '', result.runSet, all, recordsSha256),
    ],
    run: (r, k, contract) => checkRun(side, k, r, contract, allowServerDisagreement, out),
  });
}
