/** The sweep spec as stored with a run: everything that was asked, never the API key. */
import { hostname } from 'node:os';
import { type SweepSpec, type SweepSpecInput, sweepSpecSchema } from '../runner/index.js';
import type { BeginRun, RunSpec } from '../store/index.js';
import { targetKey } from './target-key.js';

export function runSpecOf(spec: SweepSpec): RunSpec {
  return {
    url: spec.url, model: spec.model ?? null, endpoint: spec.endpoint, levels: spec.levels, outputTokens: spec.outputTokens,
    promptTokens: spec.promptTokens, requestsPerLevel: spec.requestsPerLevel, warmup: spec.warmup, thinking: spec.thinking,
    forceLength: spec.forceLength, temperature: spec.temperature, seed: spec.seed, hourlyCostUsd: spec.hourlyCostUsd,
    baselineRateUsdPer1M: spec.baselineRateUsdPer1M, gpuLabel: spec.gpuLabel, command: spec.command,
    arrivalKind: spec.arrival.kind, promptsKind: spec.prompts.kind,
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
