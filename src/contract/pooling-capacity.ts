/**
 * `goodput capacity` for an embeddings or rerank contract: its concurrency
 * levels searched for the highest at which slo.e2eMs holds with no failed
 * request, the file carrying what makes it rerunnable and comparable.
 */
import type { z } from 'zod';
import { capacityProvenance } from './contract-capacity.js';
import { type PoolingCapacityProbe, TOOL_VERSION, findCapacity, poolingCapacityReportSchema } from '../runner/index.js';
import { contractHash } from './contract-hash.js';
import type { Contract } from './contract-schema.js';
import { poolingSpecOf } from './run-pooling-contract.js';
import { tokenizerOf } from './prepare-cells.js';
import { checkServer } from './server-facts.js';

export const poolingContractCapacitySchema = poolingCapacityReportSchema.extend(capacityProvenance);
export type PoolingContractCapacity = z.infer<typeof poolingContractCapacitySchema>;

export interface PoolingCapacityRunOptions {
  url?: string;
  apiKey?: string;
  command: string;
  maxProbes?: number;
  onProbe?: (p: PoolingCapacityProbe) => void;
}

export async function poolingContractCapacity(contract: Contract, opts: PoolingCapacityRunOptions): Promise<PoolingContractCapacity> {
  const url = opts.url ?? contract.server.url;
  poolingSpecOf(contract, url, opts.apiKey, opts.command);
  const serverReport = await checkServer(contract, url, opts.apiKey);
  const { resolved: tokenizer } = await tokenizerOf(contract, { url, apiKey: opts.apiKey, runId: '', command: opts.command });
  const resolved: Contract = { ...contract, model: { ...contract.model, tokenizer } };
  const startedAt = new Date().toISOString();
  const spec = poolingSpecOf(resolved, url, opts.apiKey, opts.command);
  const report = await findCapacity({ specFor: async () => spec, coarse: spec.levels, maxProbes: opts.maxProbes, onProbe: opts.onProbe });
  return {
    ...report,
    contract: resolved as unknown as Record<string, unknown>,
    contractHash: contractHash(resolved),
    serverReport,
    command: opts.command,
    toolVersion: TOOL_VERSION,
    startedAt,
  };
}
