/**
 * A read trace as the two parts of a sweep spec a replay needs: the arrival
 * (each request's recorded send offset; levels are speeds) and the prompt
 * source (each request's lengths and shared blocks, built at send time).
 */
import { basename } from 'node:path';
import type { ArrivalSpec } from '../core/index.js';
import type { PromptSource } from './prompt-source.js';
import type { Trace } from './trace-read.js';
import type { AgentsSource } from './agent-source.js';
import type { AgentTrace } from './agent-trace-read.js';

export function replayParts(trace: Trace, o: { blockTokens: number; maxConcurrency: number | null }): { arrival: ArrivalSpec; prompts: PromptSource } {
  return {
    arrival: {
      kind: 'trace',
      offsetsMs: trace.requests.map((r) => r.atMs),
      source: {
        file: basename(trace.path),
        sha256: trace.sha256,
        format: trace.format,
        window: trace.window,
        skippedFailed: trace.skipped.failed,
        skippedOutsideWindow: trace.skipped.outsideWindow,
        labels: trace.labels,
      },
      maxConcurrency: o.maxConcurrency,
    },
    prompts: {
      kind: 'trace',
      blockTokens: o.blockTokens,
      requests: trace.requests.map((r) => ({
        p: r.promptTokens,
        o: r.outputTokens,
        ...(r.hashIds ? { h: r.hashIds } : {}),
        ...(r.prompt !== undefined ? { text: r.prompt } : {}),
      })),
    },
  };
}

/** An agent trace's parts: its roots' recorded starts as the arrival (levels are speeds), its sessions as the prompts. */
export function agentReplayParts(trace: AgentTrace): { arrival: ArrivalSpec; prompts: AgentsSource } {
  const roots = trace.source.sessions
    .filter((s) => s.parent === null)
    .map((s) => s.atMs)
    .sort((a, b) => a - b);
  return {
    arrival: {
      kind: 'trace',
      offsetsMs: roots,
      maxConcurrency: null,
      source: { file: basename(trace.path), sha256: trace.sha256, format: trace.format, window: null, skippedFailed: 0, skippedOutsideWindow: 0, labels: {} },
    },
    prompts: trace.source,
  };
}
