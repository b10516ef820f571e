/**
 * The receipt end-to-end tests' contracts and simulator profiles: one
 * experiment against two simulators, the model's quantization and the
 * simulator's decode step being all that differs.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import type { Ran } from './goodput-process.js';

/** Simulator flags: a fixed 5 ms prefill and `stepMs` per decode step, no batching slowdown. */
const simProfile = (stepMs: number): string[] => [
  '--prefill-base-ms',
  '5',
  '--prefill-ms-per-token',
  '0',
  '--decode-step-ms',
  String(stepMs),
  '--decode-ms-per-extra-seq',
  '0',
];

export interface ContractShape {
  promptTokens: number;
  outputTokens: number;
  ttftSloMs: number;
}

/** Writes `<dir>/<name>.yaml` for the server at `url`; levels 1 and 2, 4 requests each. */
export function writeReceiptContract(dir: string, name: string, url: string, quantization: string, shape: ContractShape): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(
    path,
    [
      'version: 1',
      `name: e2e-${name}`,
      `server: { url: "${url}", endpoint: chat }`,
      `model: { name: goodput-sim-1, revision: sim-1, tokenizer: { kind: server }, precision: bf16, quantization: ${quantization} }`,
      `workload: { prompts: { kind: synthetic, tokens: ${shape.promptTokens} }, outputTokens: ${shape.outputTokens}, cache: { kind: cold }, requestsPerLevel: 4, warmup: 1 }`,
      'decoding: { temperature: 0, topP: 1, seed: 42, ignoreEos: true }',
      'thinking: off',
      'load: { pattern: { kind: concurrency }, levels: [1, 2] }',
      `slo: { ttftMs: { p: 95, max: ${shape.ttftSloMs} } }`,
      'hardware: { label: SimGPU 80GB, gpuHourlyUsd: 2.5, priceAsOf: 2026-06-01 }',
      '',
    ].join('\n'),
  );
  return path;
}

/**
 * Two simulators in their own processes for a test file, started before its
 * tests and stopped after: the baseline, and an optimized one with a faster
 * decode step and quantization noise.
 */
export function useSimulatorPair(baselineStepMs: number, optimizedStepMs: number, noise: number): { baseline: () => SimProcess; optimized: () => SimProcess } {
  let pair: [SimProcess, SimProcess] | null = null;
  beforeAll(async () => {
    pair = await Promise.all([
      spawnSimProcess(simProfile(baselineStepMs)),
      spawnSimProcess([...simProfile(optimizedStepMs), '--quantization-noise', String(noise)]),
    ]);
  }, 30_000);
  afterAll(async () => {
    await Promise.all((pair ?? []).map((s) => s.stop()));
  });
  const get = (i: 0 | 1) => () => {
    if (pair === null) throw new Error('the simulators are not started');
    return pair[i];
  };
  return { baseline: get(0), optimized: get(1) };
}

/** A goodput command that must succeed: its output is shown when it did not. */
export const expectOk = (r: Ran, what: string): void => {
  expect(r.code, `${what}:\n${r.stdout}\n${r.stderr}`).toBe(0);
};
