/**
 * `goodput run` and `goodput capacity` for an embeddings or rerank contract:
 * the server's declared facts checked, the tokenizer resolved (a file's hash
 * checked against the contract's), then one pooling sweep, or a search of its
 * levels for the highest at which slo.e2eMs holds. A run's result carries the
 * resolved contract, its hash, what the server reported, and every request
 * record with their hash: the evidence each level is recomputed from.
 */
import {
  type PoolingEndpoint,
  type PoolingLevel,
  type PoolingRecord,
  type PoolingResult,
  type PoolingSlo,
  canonicalJson,
  isPoolingEndpoint,
} from '../core/index.js';
import { type PoolingCapacityProbe, type PoolingSpecInput, type SweepEvent, findCapacity, poolingCapacityReportSchema, runSweep } from '../runner/index.js';
import type { z } from 'zod';
import { sha256Hex } from '../workload/index.js';
import { capacityProvenance, capacityProvenanceOf } from './contract-capacity.js';
import { contractHash } from './contract-hash.js';
import type { Contract } from './contract-schema.js';
import { ContractError } from './errors.js';
import { declaredPolicy } from './provider-policy.js';
import { evidenceOf, stackRuns } from './repeat-runs.js';
import { tokenizerOf } from './prepare-cells.js';
import { checkServer } from './server-facts.js';
import { clientMachine } from './client-machine.js';
import { collectServerAccount } from './server-account.js';

export interface PoolingRunOptions {
  url?: string;
  apiKey?: string;
  command: string;
  signal?: AbortSignal;
  onEvent?: (e: SweepEvent<'pooling'>) => void;
  /** Awaited between levels, with the level's records and the level itself. */
  afterLevel?: (records: readonly PoolingRecord[], level: PoolingLevel) => Promise<void>;
  /** Awaited before each level (runSweep's beforeLevel). */
  beforeLevel?: () => Promise<void>;
  /**
   * Awaited once the tokenizer is resolved and before the first request, with the hash the result will carry and the
   * sweep it runs (a signed repeat set signs the hash here; the CLI opens its store with the sweep).
   */
  onPrepared?: (contractHash: string, spec: PoolingSpecInput) => Promise<void>;
}

/** sha256 (hex) of the canonical JSON of a pooling run's records. */
export function poolingRecordsSha256(records: readonly PoolingRecord[]): string {
  return sha256Hex(canonicalJson(records));
}

/** The pooling sweep a contract describes (a contract that passed the schema: its pooling fields are there). */
export function poolingSpecOf(
  c: Contract,
  url: string,
  apiKey: string | undefined,
  command: string,
): PoolingSpecInput & { endpoint: PoolingEndpoint; latencySlo: PoolingSlo } {
  const endpoint = c.server.endpoint;
  if (!isPoolingEndpoint(endpoint)) throw new ContractError('bad-contract', `server.endpoint: ${endpoint} is not embeddings or rerank`);
  const w = c.workload;
  const tokens = w.prompts.kind === 'synthetic' ? w.prompts.tokens[0] : undefined;
  const items = endpoint === 'rerank' ? w.documents : w.batchSize;
  const slo = c.slo.e2eMs;
  if (tokens === undefined || items === undefined || slo === undefined)
    throw new ContractError('bad-contract', 'workload: an embeddings or rerank contract states its prompt length, items per request and slo.e2eMs');
  const t = c.model.tokenizer;
  return {
    url,
    apiKey,
    model: c.model.name,
    endpoint,
    levels: c.load.levels,
    itemsPerRequest: items,
    itemTokens: tokens,
    queryTokens: w.queryTokens ?? 32,
    // The counter was resolved already (its kind frozen in the contract); the sweep counts with the same one.
    tokenizer: t.kind === 'file' ? { kind: 'file', path: t.path } : t.kind === 'approximate' ? { kind: 'approximate' } : { kind: 'auto' },
    requestsPerLevel: w.requestsPerLevel,
    warmup: w.warmup,
    seed: c.decoding.seed,
    hourlyCostUsd: c.hardware.gpuHourlyUsd ?? null,
    latencySlo: { p: slo.p, maxMs: slo.max },
    // Retried as the contract declares (its defaults without a provider section); never paced.
    retry: declaredPolicy(c.provider).retry,
    command,
  };
}

/**
 * What a run and a capacity search of a pooling contract both start from: its fields checked before the server is
 * asked anything, the server's report on its declared facts, the tokenizer resolved (frozen in the contract) and the
 * sweep the resolved contract describes.
 */
async function preparePooling(contract: Contract, opts: { url?: string; apiKey?: string; command: string }) {
  const url = opts.url ?? contract.server.url;
  poolingSpecOf(contract, url, opts.apiKey, opts.command);
  const serverReport = await checkServer(contract, url, opts.apiKey);
  const { resolved: tokenizer } = await tokenizerOf(contract, { url, apiKey: opts.apiKey, runId: '', command: opts.command });
  const resolved: Contract = { ...contract, model: { ...contract.model, tokenizer } };
  return { serverReport, resolved, spec: poolingSpecOf(resolved, url, opts.apiKey, opts.command) };
}

export async function runPoolingContract(contract: Contract, opts: PoolingRunOptions): Promise<PoolingResult> {
  const { serverReport, resolved, spec } = await preparePooling(contract, opts);
  // The server's account and configuration, collected as a text run collects them: a receipt lays both sides' side by side.
  const serverAccount = await collectServerAccount(spec.url, opts.apiKey, contract.model.name);
  await opts.onPrepared?.(contractHash(resolved), spec);
  const records: PoolingRecord[] = [];
  const result = await runSweep(spec, {
    signal: opts.signal,
    onEvent: opts.onEvent,
    ...(opts.beforeLevel ? { beforeLevel: opts.beforeLevel } : {}),
    afterLevel: async (level, recs) => {
      records.push(...recs);
      await opts.afterLevel?.(recs, level);
    },
  });
  return {
    ...result,
    serverReport,
    serverAccount,
    clientMachine: clientMachine(),
    contract: resolved as unknown as Record<string, unknown>,
    contractHash: contractHash(resolved),
    records,
    recordsSha256: poolingRecordsSha256(records),
  };
}

/** Runs of one pooling contract as one result: the first on top, the others in `repeats` (each with its records). */
export function combinePoolingRuns(runs: readonly PoolingResult[]): PoolingResult {
  return stackRuns(
    runs,
    (r) => ({ run: r.run, warnings: r.warnings, levels: r.levels, peak: r.peak, capacity: r.capacity, ...evidenceOf(r) }),
    'combinePoolingRuns',
  );
}

/** `goodput capacity`'s file for a pooling contract: the search's report plus what makes it rerunnable and comparable. */
export const poolingContractCapacitySchema = poolingCapacityReportSchema.extend(capacityProvenance);
export type PoolingContractCapacity = z.infer<typeof poolingContractCapacitySchema>;

export interface PoolingCapacityRunOptions {
  url?: string;
  apiKey?: string;
  command: string;
  maxProbes?: number;
  onProbe?: (p: PoolingCapacityProbe) => void;
}

/** `goodput capacity` for a pooling contract: its levels searched for the highest at which slo.e2eMs holds with no failed request. */
export async function poolingContractCapacity(contract: Contract, opts: PoolingCapacityRunOptions): Promise<PoolingContractCapacity> {
  const { serverReport, resolved, spec } = await preparePooling(contract, opts);
  const startedAt = new Date().toISOString();
  const report = await findCapacity({ specFor: async () => spec, coarse: spec.levels, maxProbes: opts.maxProbes, onProbe: opts.onProbe });
  return { ...report, ...capacityProvenanceOf(resolved, serverReport, opts.command, startedAt) };
}
