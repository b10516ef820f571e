/**
 * A receipt's contract readied to run again: the reader's addresses where the
 * evidence withheld them (neither in the hash, so the hash is the receipt's),
 * the declared run count or a bounded --repeats (withheld files:
 * reproduce-files.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { contractHash, contractSchema } from '../contract/index.js';
import type { ReceiptResult } from '../publish/index.js';
import type { Doc } from '../test-support/pooling-contract.js';
import { rerunnable, reproduceRepeats } from './reproduce-runs.js';

const WITHHELD_URL = 'http://withheld.invalid/';
/** A chat contract's public copy (as receipt-contracts writes it, its server withheld), resolved, then edited by `edit`. */
const evidence = (edit: (c: Doc) => void = () => {}): ReceiptResult => {
  const c: Doc = {
    version: 1,
    name: 'reproduce',
    server: { url: WITHHELD_URL, endpoint: 'chat' },
    model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
    workload: { prompts: { kind: 'synthetic', tokens: 16 }, outputTokens: 8, cache: { kind: 'cold' }, requestsPerLevel: 4, warmup: 1 },
    decoding: { temperature: 0, topP: 1, seed: 42, ignoreEos: true },
    thinking: 'off',
    load: { pattern: { kind: 'concurrency' }, levels: [1, 2] },
    slo: { ttftMs: { p: 95, max: 500 } },
    hardware: { label: 'SimGPU 80GB', gpuHourlyUsd: 2.5, priceAsOf: '2026-06-01' },
  };
  // The evidence carries the contract resolved, every default stated.
  const resolved = contractSchema.parse(c) as Doc;
  edit(resolved);
  return { contract: resolved } as unknown as ReceiptResult;
};

describe('rerunnable', () => {
  it("puts the reader's servers where the evidence withheld them, keeping the contract hash", () => {
    const published = evidence((c) => {
      c.repeats = 3;
      c.quality = { ...c.quality, baselineUrl: WITHHELD_URL };
    });
    const c = rerunnable('optimized', published, 'http://127.0.0.1:9001', 'http://127.0.0.1:9000', undefined);
    expect(c.server.url).toBe('http://127.0.0.1:9001');
    expect(c.quality.baselineUrl).toBe('http://127.0.0.1:9000');
    expect(c.repeats).toBe(3);
    expect(contractHash(c)).toBe(contractHash(contractSchema.parse(published.contract)));
  });

  it('runs --repeats times when given, bounded as run bounds it', () => {
    expect(rerunnable('baseline', evidence(), 'http://127.0.0.1:9000', 'http://127.0.0.1:9000', '4').repeats).toBe(4);
    expect(
      rerunnable(
        'baseline',
        evidence((c) => (c.repeats = 3)),
        'http://127.0.0.1:9000',
        'http://127.0.0.1:9000',
        '1',
      ).repeats,
    ).toBeUndefined();
    expect(() => reproduceRepeats(3, '21')).toThrow('--repeats: 21 is above the limit of 20');
    expect(() => reproduceRepeats(3, '2')).toThrow(/--repeats: 2 runs give no spread worth stating/);
    expect(reproduceRepeats(undefined, undefined)).toBe(1);
  });

  it("refuses a fleet's or pools' contract, whose other addresses are withheld, naming them", () => {
    const parts = evidence((c) => {
      c.server = {
        ...c.server,
        fleet: { targets: [`${WITHHELD_URL}#target-2`, `${WITHHELD_URL}#target-3`], route: 'round-robin' },
        pools: { roles: [{ role: 'prefill', url: WITHHELD_URL, gpus: 2 }], kvLinkGbps: null },
      };
    });
    expect(() => rerunnable('optimized', parts, 'http://127.0.0.1:9001', 'http://127.0.0.1:9000', undefined)).toThrow(
      'optimized: the run was measured on a fleet of 3 targets and pools (prefill), whose addresses the receipt withholds; goodput reproduce gives one address a side, so run its contract with your own addresses (goodput run) instead',
    );
  });

  it('refuses evidence without a contract', () => {
    expect(() => rerunnable('optimized', {} as ReceiptResult, 'http://127.0.0.1:9000', 'http://127.0.0.1:9000', undefined)).toThrow(
      "optimized: the receipt's evidence carries no contract to run again",
    );
  });
});
