/** The profile schema (defaults, strictness, messages) and profile files (JSON, YAML). */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSimProfile, simProfileSchema } from './index.js';
import { describeZodError } from './zod-issues.js';

const problem = (input: unknown): string => {
  const r = simProfileSchema.safeParse(input);
  if (r.success) throw new Error('expected a validation error');
  return describeZodError(r.error);
};

describe('simProfileSchema', () => {
  it('gives every field its default', () => {
    expect(simProfileSchema.parse({})).toEqual({
      model: 'goodput-sim-1',
      seed: 1,
      maxModelLen: 32768,
      chatTemplateTokens: 0,
      prefillBaseMs: 20,
      prefillMsPerToken: 0.05,
      decodeStepMs: 20,
      decodeMsPerExtraSeq: 0.1,
      stepTiming: 'independent',
      maxBatch: 256,
      kvCacheTokens: 1_000_000,
      tokensPerChunk: 1,
      reasoningTokens: 0,
      streamShape: 'reasoning_content',
      dialect: 'goodput',
      overloadLimit: null,
      naturalOutputTokens: { min: 20, max: 400 },
      prefixCaching: true,
      prefixBlockTokens: 16,
      quantizationNoise: 0,
      maxTopLogprobs: 20,
      pooling: { dimension: 384, baseMs: 0, msPerInputToken: 0.01 },
      images: { patchPixels: 32, baseTokens: 0, encoderMsPerImage: 30, fetchTimeoutMs: 10_000 },
      audio: { tokensPerSecond: 25, encoderMsPerSecond: 10 },
      gpu: { name: 'SimGPU 80GB', totalMiB: 81920, weightsMiB: 16000, kvMiBPerToken: 0.125 },
      faults: {
        http500: 0,
        http429: 0,
        http503: 0,
        http529: 0,
        dropStream: 0,
        malformedSse: 0,
        midStreamError: 0,
        stall: 0,
        stallMs: 2000,
        dieAfterRequests: null,
      },
      rateLimit: { rpm: null, tpm: null },
      toolCalls: { autoShare: 0.5, invalid: 0, malformed: 0 },
      structuredOutput: { invalid: 0, malformed: 0 },
      loraAdapters: [],
    });
  });

  it('fills nested defaults around the fields given', () => {
    const p = simProfileSchema.parse({ faults: { http500: 0.1 }, gpu: { totalMiB: 24576 } });
    expect(p.faults).toMatchObject({ http500: 0.1, stallMs: 2000 });
    expect(p.gpu).toMatchObject({ totalMiB: 24576, name: 'SimGPU 80GB' });
  });

  it('names the field of every problem, unknown keys included', () => {
    expect(problem({ bogus: 1 })).toBe('bogus: unknown key');
    expect(problem({ faults: { http418: 0.5 } })).toBe('faults.http418: unknown key');
    expect(problem({ decodeStepMs: 0 })).toMatch(/^decodeStepMs: /);
    expect(problem({ maxBatch: 1.5 })).toMatch(/^maxBatch: /);
    expect(problem({ faults: { http500: 1.2 } })).toMatch(/^faults\.http500: /);
    expect(problem({ faults: { http500: 0.6, dropStream: 0.6 } })).toBe('faults: the fault shares add up to more than 1');
    expect(problem({ naturalOutputTokens: { min: 50, max: 10 } })).toBe('naturalOutputTokens.max: max must be >= min');
    expect(problem({ model: 7 })).toMatch(/^model: /);
  });
});

describe('loadSimProfile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'goodput-sim-profile-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const file = async (name: string, text: string) => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };

  it('reads JSON and YAML, applying defaults', async () => {
    const json = await loadSimProfile(await file('a.json', '{"decodeStepMs": 7, "faults": {"stall": 0.25}}'));
    expect(json).toMatchObject({ decodeStepMs: 7, prefillBaseMs: 20, faults: { stall: 0.25, stallMs: 2000 } });
    const yaml = await loadSimProfile(await file('b.yaml', 'model: my-model\nnaturalOutputTokens:\n  min: 3\n  max: 9\n'));
    expect(yaml).toMatchObject({ model: 'my-model', naturalOutputTokens: { min: 3, max: 9 } });
    expect(await loadSimProfile(await file('empty.yml', ''))).toEqual(simProfileSchema.parse({}));
  });

  it('names the file and the field on a bad value or an unknown key', async () => {
    const bad = await file('bad.yaml', 'decodeStepMs: -2\n');
    await expect(loadSimProfile(bad)).rejects.toThrow(new RegExp(`^${bad}: decodeStepMs: `));
    const unknown = await file('unknown.json', '{"gpu": {"vendor": "x"}}');
    await expect(loadSimProfile(unknown)).rejects.toThrow(`${unknown}: gpu.vendor: unknown key`);
  });

  it('names the file when it cannot be read or parsed', async () => {
    const broken = await file('broken.json', '{"model": ');
    await expect(loadSimProfile(broken)).rejects.toThrow(new RegExp(`^${broken}: not valid JSON or YAML`));
    const missing = join(dir, 'missing.yaml');
    await expect(loadSimProfile(missing)).rejects.toThrow(new RegExp(`^${missing}: cannot read the profile`));
  });
});
