/**
 * The receipt end-to-end tests' contracts and simulator profiles: one
 * experiment against two simulators, the model's quantization and the
 * simulator's decode step being all that differs.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Simulator flags: a fixed 5 ms prefill and `stepMs` per decode step, no batching slowdown. */
export const simProfile = (stepMs: number): string[] =>
  ['--prefill-base-ms', '5', '--prefill-ms-per-token', '0', '--decode-step-ms', String(stepMs), '--decode-ms-per-extra-seq', '0'];

export interface ContractShape { promptTokens: number; outputTokens: number; ttftSloMs: number }

/** Writes `<dir>/<name>.yaml` for the server at `url`; levels 1 and 2, 4 requests each. */
export function writeReceiptContract(dir: string, name: string, url: string, quantization: string, shape: ContractShape): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, [
    'version: 1', `name: e2e-${name}`, `server: { url: "${url}", endpoint: chat }`,
    `model: { name: goodput-sim-1, revision: sim-1, tokenizer: { kind: server }, precision: bf16, quantization: ${quantization} }`,
    `workload: { prompts: { kind: synthetic, tokens: ${shape.promptTokens} }, outputTokens: ${shape.outputTokens}, cache: { kind: cold }, requestsPerLevel: 4, warmup: 1 }`,
    'decoding: { temperature: 0, topP: 1, seed: 42, ignoreEos: true }', 'thinking: off',
    'load: { pattern: { kind: concurrency }, levels: [1, 2] }', `slo: { ttftMs: { p: 95, max: ${shape.ttftSloMs} } }`,
    'hardware: { label: SimGPU 80GB, gpuHourlyUsd: 2.5, priceAsOf: 2026-06-01 }', '',
  ].join('\n'));
  return path;
}
