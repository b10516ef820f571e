/** The sweep spec as stored with a run: everything that was asked, never the API key. */
import { hostname } from 'node:os';
import { type PoolingSpecInput, type SweepSpec, type SweepSpecInput, poolingSpecSchema, sweepSpecSchema } from '../runner/index.js';
import type { BeginRun, PoolingRunSpec, RunSpec } from '../store/index.js';
import { targetKey } from './target-key.js';

export function runSpecOf(spec: SweepSpec): RunSpec {
  return {
    url: spec.url, model: spec.model ?? null, endpoint: spec.endpoint, levels: spec.levels, outputTokens: spec.outputTokens,
    promptTokens: spec.promptTokens, requestsPerLevel: spec.requestsPerLevel, warmup: spec.warmup, thinking: spec.thinking,
    forceLength: spec.forceLength, temperature: spec.temperature, seed: spec.seed, hourlyCostUsd: spec.hourlyCostUsd,
    baselineRateUsdPer1M: spec.baselineRateUsdPer1M, gpuLabel: spec.gpuLabel, command: spec.command,
    arrivalKind: spec.arrival.kind, promptsKind: spec.prompts.kind,
    ...(spec.images === null ? {} : { images: spec.images }), ...(spec.audio === null ? {} : { audio: spec.audio }),
  };
}

/** What beginning a run of `input` in this process records. The spec must already be valid. */
export function beginRunOf(input: SweepSpecInput, server: { id: number; name: string } | null = null): BeginRun {
  const spec = sweepSpecSchema.parse(input);
  return {
    serverId: server?.id ?? null, serverName: server?.name ?? null, targetUrl: targetKey(spec.url),
    spec: runSpecOf(spec), ownerPid: process.pid, ownerHost: hostname(),
  };
}

/** What beginning an embeddings or rerank run of `input` in this process records. The spec must already be valid. */
export function beginPoolingRunOf(input: PoolingSpecInput): BeginRun {
  const s = poolingSpecSchema.parse(input);
  const spec: PoolingRunSpec = {
    url: s.url, model: s.model ?? null, endpoint: s.endpoint, levels: s.levels, itemsPerRequest: s.itemsPerRequest, itemTokens: s.itemTokens,
    queryTokens: s.endpoint === 'rerank' ? s.queryTokens : null, requestsPerLevel: s.requestsPerLevel, warmup: s.warmup, seed: s.seed,
    hourlyCostUsd: s.hourlyCostUsd, latencySlo: s.latencySlo, command: s.command,
  };
  return { serverId: null, serverName: null, targetUrl: targetKey(s.url), spec, ownerPid: process.pid, ownerHost: hostname() };
}
