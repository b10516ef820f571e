/**
 * A contract for a non-streaming endpoint (embeddings, rerank): the text fields
 * that mean nothing without generated tokens are refused by name, the pooling
 * fields are required where they apply and refused where they do not, and the
 * latency objective is `slo.e2eMs` (the whole request: nothing is streamed).
 */
import type { z } from 'zod';
import { LIMITS, type PoolingEndpoint } from '../core/index.js';

/** The parts of a parsed contract these checks read (the schema's output, before its type exists). */
interface PoolingView {
  server: { endpoint: string };
  workload: {
    prompts: { kind: string; tokens?: number[] };
    outputTokens?: unknown;
    cache: Array<{ kind: string }>;
    batchSize?: number | undefined;
    documents?: number | undefined;
    queryTokens?: number | undefined;
  };
  decoding: { temperature: number; topP: number; ignoreEos: boolean };
  thinking: string;
  load: { pattern: { kind: string } };
  quality: { metric: string; floor?: number | undefined; baselineUrl?: string | undefined };
  slo: Record<string, unknown>;
  hardware: { utilisation?: number | undefined; overheads: unknown[]; baselineRateUsdPer1M?: number | undefined };
}

/** SLO fields of text generation: a non-streamed answer has no first token and no token pace. */
const TEXT_SLOS = ['ttftMs', 'tpotMs', 'ttftFromScheduleMs', 'e2eFromScheduleMs', 'toolCallValid', 'jobDeadlineMs', 'qualityFloor'] as const;

/** The pooling fields and the endpoint each belongs to. */
const POOLING_FIELDS = [
  ['batchSize', 'embeddings'],
  ['documents', 'rerank'],
  ['queryTokens', 'rerank'],
] as const;

/** Adds an issue for every field of a text-generation contract given with a pooling endpoint, and every pooling field missing or misplaced. */
export function poolingContractIssues(c: PoolingView, endpoint: PoolingEndpoint, ctx: z.RefinementCtx): void {
  const add = (path: Array<string | number>, message: string) => ctx.addIssue({ code: 'custom', path, message });
  const notFor = `does not apply to server.endpoint ${endpoint}`;
  const w = c.workload;
  for (const [field, owner] of POOLING_FIELDS) {
    if (owner === endpoint && w[field] === undefined) add(['workload', field], `server.endpoint ${endpoint} needs workload.${field}`);
    if (owner !== endpoint && w[field] !== undefined) add(['workload', field], `${notFor} (it needs server.endpoint ${owner})`);
  }
  if (w.prompts.kind !== 'synthetic' || w.prompts.tokens?.length !== 1) {
    add(
      ['workload', 'prompts'],
      `server.endpoint ${endpoint} sends synthetic texts of one length: kind synthetic with one tokens value (tokens per ${endpoint === 'rerank' ? 'document' : 'input'})`,
    );
  }
  if (w.outputTokens !== undefined) add(['workload', 'outputTokens'], `${notFor}: nothing is generated`);
  if (w.cache.length !== 1 || w.cache[0]?.kind !== 'cold')
    add(['workload', 'cache'], `${notFor}: every ${endpoint === 'rerank' ? 'document' : 'input'} is drawn afresh (cold)`);
  if (c.decoding.temperature !== 0) add(['decoding', 'temperature'], `${notFor}: nothing is sampled`);
  if (c.decoding.topP !== 1) add(['decoding', 'topP'], `${notFor}: nothing is sampled`);
  if (!c.decoding.ignoreEos) add(['decoding', 'ignoreEos'], `${notFor}: nothing is generated`);
  if (c.thinking !== 'off') add(['thinking'], `${notFor}: nothing is generated`);
  if (c.load.pattern.kind !== 'concurrency')
    add(['load', 'pattern', 'kind'], `server.endpoint ${endpoint} runs closed-loop concurrency levels: kind concurrency`);
  for (const field of TEXT_SLOS) if (c.slo[field] !== undefined) add(['slo', field], `${notFor}: state the latency objective as slo.e2eMs (the whole request)`);
  if (c.slo.e2eMs === undefined) add(['slo', 'e2eMs'], `server.endpoint ${endpoint} is judged by latency: give slo.e2eMs {p, max}`);
  if (c.quality.metric !== 'none' || c.quality.floor !== undefined || c.quality.baselineUrl !== undefined)
    add(['quality'], `${notFor}: there is no generated text to score (metric none)`);
  if (c.hardware.utilisation !== undefined) add(['hardware', 'utilisation'], `${notFor}: its cost is per 1M input tokens from gpuHourlyUsd`);
  if (c.hardware.overheads.length > 0) add(['hardware', 'overheads'], `${notFor}: its cost is per 1M input tokens from gpuHourlyUsd`);
  if (c.hardware.baselineRateUsdPer1M !== undefined) add(['hardware', 'baselineRateUsdPer1M'], `${notFor}: its cost is per 1M input tokens from gpuHourlyUsd`);
  // A token is at least a byte of the body: a request past this cannot be sent (as the sweep's own check says).
  const items = (endpoint === 'rerank' ? w.documents : w.batchSize) ?? 0;
  const tokens = items * (w.prompts.tokens?.[0] ?? 0) + (endpoint === 'rerank' ? (w.queryTokens ?? 0) : 0);
  if (tokens > LIMITS.requestBodyBytes.max) {
    add(
      ['workload', endpoint === 'rerank' ? 'documents' : 'batchSize'],
      `${items} × ${w.prompts.tokens?.[0]} tokens makes requests of ${tokens} tokens, more than fit in ${LIMITS.requestBodyBytes.max} ${LIMITS.requestBodyBytes.what}`,
    );
  }
}
