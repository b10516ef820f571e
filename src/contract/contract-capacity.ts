/**
 * `goodput capacity`'s engine: the contract's load axis searched for the
 * highest level at which every SLO holds (runner/capacity.ts), each probe with
 * prompts built for it as `goodput run` would. A contract with a matrix of
 * more than one cell is refused: capacity is a property of one workload.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { preflight } from '../client/index.js';
import { type ServerReport, serverReportSchema } from '../core/index.js';
import { type CapacityProbe, type SweepDeps, SweepError, TOOL_VERSION, capacityReportSchema, findCapacity } from '../runner/index.js';
import { contractHash } from './contract-hash.js';
import type { Contract } from './contract-schema.js';
import { ContractError } from './errors.js';
import { prepareCells } from './prepare-cells.js';
import { checkServer } from './server-facts.js';

/** What makes a capacity file rerunnable and comparable: the resolved contract, its hash, the server's report, the command. */
export const capacityProvenance = {
  contract: z.record(z.string(), z.unknown()),
  contractHash: z.string(),
  serverReport: serverReportSchema,
  command: z.string(),
  toolVersion: z.string(),
  startedAt: z.string(),
};

/** The provenance of a capacity search of the resolved contract `resolved`, begun at `startedAt`. */
export function capacityProvenanceOf(resolved: Contract, serverReport: ServerReport, command: string, startedAt: string) {
  return {
    contract: resolved as unknown as Record<string, unknown>,
    contractHash: contractHash(resolved),
    serverReport,
    command,
    toolVersion: TOOL_VERSION,
    startedAt,
  };
}

/** The capacity file: the report plus what makes it rerunnable and comparable. */
export const contractCapacitySchema = capacityReportSchema.extend(capacityProvenance);
export type ContractCapacity = z.infer<typeof contractCapacitySchema>;

export interface CapacityRunOptions {
  url?: string;
  apiKey?: string;
  command: string;
  /** Rate axes: stop when the gap is within this share of the upper level. */
  resolution?: number;
  maxProbes?: number;
  deps?: SweepDeps;
  onProbe?: (p: CapacityProbe) => void;
}

export async function contractCapacity(contract: Contract, opts: CapacityRunOptions): Promise<ContractCapacity> {
  const w = contract.workload;
  const cells = (w.prompts.kind === 'synthetic' ? w.prompts.tokens.length : 1) * (Array.isArray(w.outputTokens) ? w.outputTokens.length : 1) * w.cache.length;
  if (cells > 1) {
    throw new ContractError(
      'bad-contract',
      `workload: capacity searches one workload, but the contract's matrix has ${cells} cells; give one prompt length, one output length and one cache condition`,
    );
  }
  const url = opts.url ?? contract.server.url;
  const pre = await preflight({ baseUrl: url, apiKey: opts.apiKey }, contract.model.name);
  if (!pre.ok) throw new SweepError('preflight-refused', `${url} cannot be benchmarked: ${pre.message}`);
  const serverReport = await checkServer(contract, url, opts.apiKey);
  const runId = randomBytes(4).toString('hex');
  const startedAt = new Date().toISOString();
  let probe = 0;
  let resolved = contract;
  const report = await findCapacity({
    coarse: contract.load.levels,
    resolution: opts.resolution,
    maxProbes: opts.maxProbes,
    deps: opts.deps,
    onProbe: opts.onProbe,
    specFor: async (level) => {
      const one = { ...contract, load: { ...contract.load, levels: [level] } };
      const prepared = await prepareCells(one, { url, apiKey: opts.apiKey, runId: `${runId}p${probe++}`, command: opts.command });
      resolved = { ...prepared.resolved, load: contract.load };
      return (prepared.cells[0] as (typeof prepared.cells)[number]).spec;
    },
  });
  return { ...report, ...capacityProvenanceOf(resolved, serverReport, opts.command, startedAt) };
}
