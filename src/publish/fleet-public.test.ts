/** A fleet run's public copy: every target's address withheld, its place kept, and the breakdown still what the records give. */
import { afterEach, describe, expect, it } from 'vitest';
import type { LevelResult, RequestRecord } from '../core/index.js';
import { WITHHELD_URL } from '../contract/index.js';
import { levelFromRecords, runSweep } from '../runner/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { publicTextResult } from './evidence-files.js';

let sims: SimServer[] = [];
afterEach(async () => {
  await Promise.all(sims.map((s) => s.close()));
  sims = [];
});

describe('a fleet run made public', () => {
  it('withholds the targets, telling them apart by place', async () => {
    sims = await Promise.all([0, 1].map(() => startSimulator({ port: 0, prefillBaseMs: 1, decodeStepMs: 1, decodeMsPerExtraSeq: 0 })));
    const urls = sims.map((s) => s.url);
    let records: readonly RequestRecord[] = [];
    const result = await runSweep(
      {
        url: urls[0] as string,
        fleet: { urls },
        levels: [2],
        requestsPerLevel: 4,
        warmup: 0,
        outputTokens: 8,
        promptTokens: 8,
        gpuSource: 'none',
        clientThreads: 1,
      },
      { afterLevel: async (_, r) => void (records = r) },
    );
    const open = publicTextResult(result);
    const withheld = [`${WITHHELD_URL}#target-1`, `${WITHHELD_URL}#target-2`];
    expect(open.run.fleet).toEqual({ urls: withheld, route: 'round-robin' });
    const level = open.levels[0] as LevelResult;
    expect(level.targets?.map((t) => t.url)).toEqual(withheld);
    expect(JSON.stringify(open)).not.toContain(urls[1]);
    expect(levelFromRecords(open, level, records).targets).toEqual(level.targets);
  });
});
