/**
 * A disaggregated server's pools in a receipt's evidence: the public copy
 * withholds each pool's address as it does the server's, keeping every figure;
 * and a result that states a KV rate above its declared link is refused when
 * receipt create reads it (exit 2, nothing written), naming the figures.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WITHHELD_URL } from '../contract/index.js';
import type { DisaggLevel, LevelResult } from '../core/index.js';
import { contract, level, resultOf } from '../test-support/receipt-fixture.js';
import { receiptCli } from '../test-support/receipt-cli.js';
import { publicTextResult } from './evidence-files.js';

const none = { requests: null, promptTokens: null, generatedTokens: null, queueMeanMs: null, prefillMeanMs: null, ttftMeanMs: null, waiting: null, notes: [] };
const rates = { promptTokensPerS: null, promptTokensPerSPerGpu: null, generatedTokensPerS: null, generatedTokensPerSPerGpu: null };
const disagg = (linkGbps: number): DisaggLevel => ({
  windowMs: 1000,
  roles: [
    {
      role: 'prefill',
      metricsUrl: 'http://10.0.0.5:8000/metrics',
      family: 'vllm',
      gpus: 2,
      ...none,
      ...rates,
      promptTokens: 4000,
      promptTokensPerS: 4000,
      error: null,
    },
    { role: 'decode', metricsUrl: 'http://10.0.0.6:8000/metrics', family: 'vllm', gpus: 6, ...none, ...rates, generatedTokens: 512, error: null },
  ],
  // 1.25 GB in 1 s: 10 Gbit/s over the level, 20 Gbit/s over the 0.5 s the transfers took.
  kvTransfer: {
    source: 'vllm-nixl',
    role: 'decode',
    bytes: 1_250_000_000,
    transfers: 8,
    seconds: 0.5,
    meanTransferMs: 62.5,
    failed: 0,
    levelGbps: 10,
    transferGbps: 20,
    linkGbps,
  },
  ttftSplit: null,
});
const figures = { tokS: 100, perReq: 50, ttft: [40, 60] as [number, number], tpot: 10, e2e: 700 };
const withPools = (linkGbps: number) =>
  resultOf(contract(), [{ ...level({ c: 1, ...figures }), disagg: disagg(linkGbps) } as LevelResult, level({ c: 2, ...figures })]);

describe("a disaggregated server's pools in the evidence", () => {
  it("withholds each pool's address in the public copy and keeps every figure", () => {
    const pub = publicTextResult(withPools(100));
    const d = pub.levels[0]?.disagg;
    expect(d?.roles.map((r) => r.metricsUrl)).toEqual([WITHHELD_URL, WITHHELD_URL]);
    expect({ ...d, roles: d?.roles.map(({ metricsUrl: _u, ...r }) => r) }).toEqual({
      ...disagg(100),
      roles: disagg(100).roles.map(({ metricsUrl: _u, ...r }) => r),
    });
    expect(JSON.stringify(pub)).not.toContain('10.0.0.5');
  });

  it('refuses, where receipt create reads it, a result whose KV rate is above its declared link', async () => {
    const { refused } = receiptCli(mkdtempSync(join(tmpdir(), 'goodput-disagg-evidence-')), 'disaggregated');
    const stderr = await refused('over-link', withPools(15), withPools(100));
    expect(stderr).toContain(
      'the KV transfer rate is impossible: 1250000000 bytes reported by the decode pool (10.00 Gbit in 0.5000 s of summed transfer time is 20.00 Gbit/s), above the declared link bandwidth of 15.00 Gbit/s (--kv-link-gbps)',
    );
  });
});
