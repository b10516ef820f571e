/**
 * `goodput run`'s engine: a contract in, one result out. Preflight and the
 * server's own report first (a contradicted declaration stops here), then
 * every prompt of every cell is built, then the cells run one at a time in
 * the stated order, each a runSweep with its own warm-ups. A cell that stops
 * (Ctrl-C, a dead server) ends the run with the cells finished so far.
 */
import { randomBytes } from 'node:crypto';
import type { LevelResult, RawRecord, RequestRecord, SweepResult } from '../core/index.js';
import { preflight } from '../client/index.js';
import { type SweepDeps, type SweepEvent, SweepError, type SweepSpecInput, runSweep } from '../runner/index.js';
import { type CellOutcome, assembleResult } from './assemble-result.js';
import type { Contract } from './contract-schema.js';
import { contractHash } from './contract-hash.js';
import { prepareCells } from './prepare-cells.js';
import type { RunPolicy } from './provider-policy.js';
import { checkServer } from './server-facts.js';
import { clientMachine } from './client-machine.js';
import { collectServerAccount } from './server-account.js';

export interface RunContractOptions {
  /** Overrides `server.url` (the URL is not part of the contract's hash). */
  url?: string;
  apiKey?: string;
  /** The exact command line, recorded in the result (secrets already removed). */
  command: string;
  signal?: AbortSignal;
  /** Every sweep event, with the cell it came from (0-based, in run order). */
  onEvent?: (e: SweepEvent, cell: number) => void;
  /** Awaited between levels (runSweep's afterLevel), with the cell. */
  afterLevel?: (level: LevelResult, records: readonly RequestRecord[], cell: number) => Promise<void>;
  /** Awaited before each level (runSweep's beforeLevel). */
  beforeLevel?: () => Promise<void>;
  /** Told before each cell starts. */
  onCell?: (index: number, total: number, label: string) => void;
  /** Awaited once every prompt is built and before the first request is measured, with the hash the result will carry (a signed repeat set signs it here). */
  onPrepared?: (contractHash: string) => Promise<void>;
  /** Awaited before each cell's sweep, with the spec it runs (the CLI opens its store here). */
  onCellStart?: (index: number, total: number, spec: SweepSpecInput) => Promise<void>;
  /** The server hooks of every cell's sweep (a cache reset before each cell or level, the profiler around a level). */
  serverHooks?: SweepSpecInput['serverHooks'];
  /** The pacing and retries to run under, when not the contract's own (a rerun of a result that recorded its policy). */
  policy?: RunPolicy;
  /** Swaps the sweep's dependencies (tests). */
  deps?: Omit<SweepDeps, 'signal' | 'onEvent' | 'afterLevel' | 'beforeLevel'>;
}

export async function runContract(contract: Contract, opts: RunContractOptions): Promise<SweepResult> {
  const url = opts.url ?? contract.server.url;
  const target = { baseUrl: url, apiKey: opts.apiKey };
  const pre = await preflight(target, contract.model.name);
  if (!pre.ok) throw new SweepError('preflight-refused', `${url} cannot be benchmarked: ${pre.message}`);
  const serverReport = await checkServer(contract, url, opts.apiKey);
  const serverAccount = await collectServerAccount(url, opts.apiKey, contract.model.name);
  const runId = randomBytes(4).toString('hex');
  const prepared = await prepareCells(contract, { url, apiKey: opts.apiKey, runId, command: opts.command, ...(opts.policy ? { policy: opts.policy } : {}) });
  await opts.onPrepared?.(contractHash(prepared.resolved));
  const outcomes: CellOutcome[] = [];
  // Every record, warm-ups included, kept in the result: the evidence its summaries are recomputed from.
  const records: RawRecord[] = [];
  for (const [i, cell] of prepared.cells.entries()) {
    if (opts.signal?.aborted && outcomes.length > 0) break;
    opts.onCell?.(i, prepared.cells.length, cell.key.prompt);
    await opts.onCellStart?.(i, prepared.cells.length, cell.spec);
    // The run's hooks join the cell's own (a primed cell's prefix).
    const spec = opts.serverHooks === undefined ? cell.spec : { ...cell.spec, serverHooks: { ...cell.spec.serverHooks, ...opts.serverHooks } };
    const result = await runSweep(spec, {
      ...opts.deps,
      signal: opts.signal,
      onEvent: (e) => opts.onEvent?.(e, i),
      ...(opts.beforeLevel ? { beforeLevel: opts.beforeLevel } : {}),
      afterLevel: async (l, r) => {
        for (const rec of r) records.push({ ...rec, cell: i });
        await opts.afterLevel?.(l, r, i);
      },
    });
    outcomes.push({ prepared: cell, result });
    if (result.run.status !== 'complete') break;
  }
  const result = assembleResult({
    resolved: prepared.resolved,
    tokenizer: prepared.tokenizer,
    serverReport,
    outcomes,
    totalCells: prepared.cells.length,
    command: opts.command,
    records,
    serverFingerprint: pre.fingerprint,
  });
  return { ...result, serverAccount, clientMachine: clientMachine() };
}
