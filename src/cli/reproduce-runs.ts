/**
 * `goodput reproduce`'s runs: each side's contract, as the receipt's evidence
 * carries it, run again against the server the reader names, through the
 * contract runners `goodput run` uses, as many times as the receipt's set
 * declares. The evidence's copy withholds every location (the server's
 * address, the quality baseline's, file paths); the reader's addresses take
 * their place, none of which is in the contract hash, so a rerun is the
 * receipt's experiment by its hash. The files the copy withholds (a prompt
 * corpus, a tokenizer file) are the reader's to give (reproduce-files.ts).
 */
import { randomBytes } from 'node:crypto';
import {
  type Contract,
  combinePoolingRuns,
  combineRepeats,
  contractSchema,
  isPoolingEndpoint,
  recordedPolicy,
  repeatsProblem,
  runContract,
  runPoolingContract,
} from '../contract/index.js';
import type { PoolingResult, SweepResult } from '../core/index.js';
import type { ReceiptResult } from '../publish/index.js';
import { asUsageErrors } from './contract-errors.js';
import { CliError, EXIT } from './exit-codes.js';
import { badFlag, parseNumber } from './parse-flags.js';
import { progressReporter } from './progress.js';
import { poolingProgress } from './pooling-view.js';

/**
 * One side's contract, readied to run against `url`: its quality baseline (where it declares one) at `baselineUrl`,
 * its run count the one it declares, or `--repeats` (`repeatsFlag`) when the reader gives one.
 */
export function rerunnable(side: string, result: ReceiptResult, url: string, baselineUrl: string, repeatsFlag: string | undefined): Contract {
  const parsed = contractSchema.safeParse(result.contract);
  if (!parsed.success) throw new CliError(EXIT.usage, `${side}: the receipt's evidence carries no contract to run again`);
  const c = parsed.data;
  // Reproduce takes one address a side: a fleet's other targets and the pools' endpoints are withheld, and nothing says where the reader's are.
  const parts = [
    ...(c.server.fleet === undefined ? [] : [`a fleet of ${c.server.fleet.targets.length + 1} targets`]),
    ...(c.server.pools === undefined ? [] : [`pools (${c.server.pools.roles.map((r) => r.role).join(', ')})`]),
  ];
  if (parts.length > 0)
    throw new CliError(
      EXIT.usage,
      `${side}: the run was measured on ${parts.join(' and ')}, whose addresses the receipt withholds; goodput reproduce gives one address a side, so run its contract with your own addresses (goodput run) instead`,
    );
  const repeats = reproduceRepeats(c.repeats, repeatsFlag);
  const { repeats: _r, ...rest } = c;
  return {
    ...rest,
    ...(repeats > 1 ? { repeats } : {}),
    server: { ...c.server, url },
    // Where the score's baseline answers is a location; that the score is measured in the run is in the hash.
    quality: c.quality.baselineUrl === undefined ? c.quality : { ...c.quality, baselineUrl },
  };
}

/** The run count: --repeats, bounded like run's, else the count the receipt's contract declares (1 when none). */
export function reproduceRepeats(declared: number | undefined, flag: string | undefined): number {
  if (flag === undefined) return declared ?? 1;
  const n = parseNumber('--repeats', flag, { integer: true, min: 1 });
  const why = repeatsProblem(n);
  if (why !== null) throw badFlag('--repeats', why);
  return n;
}

/** A run that did not complete checks nothing: the reader is told which server and why. */
function completed<R extends { run: { status: string; stopReason?: string | null } }>(side: string, r: R, signal: AbortSignal): R {
  if (signal.aborted) throw new CliError(EXIT.stopped, 'stopped: no claim was checked');
  if (r.run.status !== 'complete')
    throw new CliError(
      EXIT.serverFailed,
      `${side}: the run did not complete (${r.run.status}${r.run.stopReason ? `: ${r.run.stopReason}` : ''}); no claim was checked`,
    );
  return r;
}

/**
 * Every run of one side's contract, as one result of its kind (the first run on top, as run --repeats keeps them); a
 * text side under the pacing and retries the published run recorded (`published`).
 */
export async function runSide(
  side: string,
  contract: Contract,
  apiKey: string | undefined,
  signal: AbortSignal,
  published: ReceiptResult,
): Promise<ReceiptResult> {
  const repeats = contract.repeats ?? 1;
  const command = `goodput reproduce (${side})`;
  const opts = { url: contract.server.url, apiKey, command, signal };
  if (isPoolingEndpoint(contract.server.endpoint)) {
    const runs: PoolingResult[] = [];
    for (let i = 0; i < repeats; i++)
      runs.push(completed(side, await asUsageErrors(() => runPoolingContract(contract, { ...opts, onEvent: poolingProgress })), signal));
    return combinePoolingRuns(runs);
  }
  const set = randomBytes(8).toString('hex');
  const progress = progressReporter(process.stderr);
  const runs: SweepResult[] = [];
  for (let i = 0; i < repeats; i++) {
    process.stderr.write(`${side}: run ${i + 1} of ${repeats}\n`);
    const policy = recordedPolicy(contract, (published as SweepResult).run);
    const one = completed(side, await asUsageErrors(() => runContract(contract, { ...opts, policy, onEvent: progress })), signal);
    runs.push(repeats > 1 ? { ...one, run: { ...one.run, repeat: { index: i + 1, of: repeats, set } } } : one);
  }
  return combineRepeats(runs);
}
