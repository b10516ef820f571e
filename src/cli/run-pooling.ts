/**
 * `goodput run` and `goodput rerun` for an embeddings or rerank contract: the
 * runs (one, or the contract's repeats), the result with its evidence, the
 * table, and for a rerun the two side by side, level by level.
 */
import { randomBytes } from 'node:crypto';
import { type Contract, combinePoolingRuns, runPoolingContract } from '../contract/index.js';
import type { PoolingResult } from '../core/index.js';
import { asUsageErrors } from './contract-errors.js';
import { badFlag, apiKeyFromEnv, parseUrl } from './parse-flags.js';
import { sayWritten, writeRecords } from './files.js';
import { AfterMeasuring, writeResult } from './after-measuring.js';
import { poolingProgress } from './pooling-view.js';
import { wholeAnswerExit } from './kind-view.js';
import { renderPoolingResult } from './pooling-view.js';
import { type RunFlags, repeatCount } from './run-flags.js';
import { EXIT } from './exit-codes.js';

/** Flags of `run` that a pooling contract has no use for yet, refused by name rather than ignored. */
function refuseTextFlags(flags: RunFlags): void {
  if (flags.save === true)
    throw badFlag(
      '--save',
      'an embeddings or rerank contract run is not stored yet (goodput sweep --endpoint … --save stores a sweep): keep the result with --json',
    );
  if (flags.sign === true) throw badFlag('--sign', 'signs text-generation results only: an embeddings or rerank result is not signed yet');
  if (flags.key !== undefined) throw badFlag('--key', 'signs text-generation results only: an embeddings or rerank result is not signed yet');
  if (flags.qualityBaseline !== undefined) throw badFlag('--quality-baseline', 'an embeddings or rerank contract generates no text to score');
}

/** Runs a pooling contract with progress on stderr, writes the files and prints the table. Returns the exit code and the result. */
export async function runPoolingAndReport(contract: Contract, flags: RunFlags, command: string): Promise<{ code: number; result: PoolingResult }> {
  refuseTextFlags(flags);
  if (flags.json !== undefined && flags.json === flags.raw) throw badFlag('--raw', 'must be a different file from --json');
  const repeats = repeatCount(contract, flags);
  if (repeats > 1 && flags.raw !== undefined) throw badFlag('--raw', "cannot be combined with --repeats: every run's records are kept in the --json result");
  const declared: Contract = repeats > 1 ? { ...contract, repeats } : contract;
  const url = flags.url === undefined ? undefined : parseUrl('--url', flags.url);
  const apiKey = apiKeyFromEnv(flags.apiKeyEnv, contract.server.apiKeyEnv ?? 'GOODPUT_API_KEY');
  const ctrl = new AbortController();
  const onSignal = () => ctrl.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let first = true;
  const set = randomBytes(8).toString('hex');
  try {
    const runs: PoolingResult[] = [];
    for (let i = 0; i < repeats; i++) {
      if (repeats > 1) process.stderr.write(`run ${i + 1} of ${repeats} (set ${set})\n`);
      const one = await asUsageErrors(() =>
        runPoolingContract(declared, {
          url,
          apiKey,
          command,
          signal: ctrl.signal,
          onEvent: poolingProgress,
          afterLevel: async (records) => {
            if (flags.raw) await writeRecords(flags.raw, records, first);
            first = false;
          },
        }),
      );
      runs.push(one);
      if (one.run.status !== 'complete' || ctrl.signal.aborted) break;
    }
    const result = combinePoolingRuns(runs);
    // Each step runs even when one before it failed: a late failure never costs the runs.
    const after = new AfterMeasuring();
    const contractLine = result.contractHash ? `\ncontract ${result.contractHash.slice(0, 12)}${runs.length > 1 ? `, ${runs.length} runs` : ''}` : '';
    const wrote = await writeResult(after, result, flags.json, () => renderPoolingResult(result, process.stdout.isTTY === true) + contractLine);
    sayWritten([wrote, first ? undefined : flags.raw]);
    const worst = runs.map(wholeAnswerExit).find((c) => c !== EXIT.ok) ?? EXIT.ok;
    return { code: after.code(runs.length < repeats && worst === EXIT.ok ? EXIT.stopped : worst), result };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

const f1 = (x: number | null | undefined) => (x === null || x === undefined ? '—' : x.toFixed(1));

/** A rerun beside its original: the contract hashes, then each level's items/s and latency p95 on both sides. */
export function renderPoolingRerun(a: PoolingResult, b: PoolingResult, names: [string, string]): string {
  const same = a.contractHash !== undefined && a.contractHash === b.contractHash;
  const out = [
    same
      ? `same contract (${a.contractHash?.slice(0, 12)})`
      : `contracts differ: ${a.contractHash?.slice(0, 12) ?? 'none'} vs ${b.contractHash?.slice(0, 12) ?? 'none'}`,
  ];
  const items = a.run.endpoint === 'rerank' ? 'documents/s' : 'inputs/s';
  out.push(`concurrency  ${items} (${names[0]} → ${names[1]})  latency p95 ms`);
  for (const l of a.levels) {
    const m = b.levels.find((x) => x.concurrency === l.concurrency);
    out.push(`${String(l.concurrency).padStart(11)}  ${f1(l.itemsPerS)} → ${f1(m?.itemsPerS)}  ${f1(l.latencyMs?.p95)} → ${f1(m?.latencyMs?.p95)}`);
  }
  return out.join('\n');
}
