/**
 * A disaggregated server through runSweep: two simulators as the prefill and
 * decode pools and a third as the router in front of them, each pool's metrics
 * endpoint given with its role. Every level has each pool's figures, the KV
 * moved (vLLM's NIXL histograms on the decode pool) and the TTFT split; a KV
 * rate above the declared link is refused as impossible. Counts and the
 * simulators' own arithmetic only: no wall-clock verdicts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type DisaggSpec, type LevelResult, type RequestRecord, measuredWindowMs } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { SweepError } from './errors.js';
import { levelFromRecords } from './level-result.js';
import { runSweep } from './run-kinds.js';

const FAST = { prefillBaseMs: 2, prefillMsPerToken: 0.01, decodeStepMs: 1, decodeMsPerExtraSeq: 0, dialect: 'vllm' as const };
const base = { outputTokens: 24, promptTokens: 64, gpuSource: 'none' as const, requestsPerLevel: 8, warmup: 1 };
/** The decode pool reads KV over a 10 Gbit/s link; the simulator's default KV size per prompt token. */
const LINK_GBPS = 10;
const KV_BYTES_PER_TOKEN = 131_072;

let sims: SimServer[] = [];
afterEach(async () => {
  await Promise.all(sims.map((s) => s.close()));
  sims = [];
});

/** Prefill and decode pools and a router in front of them; the pools' roles as a sweep declares them. */
async function pools(kvLinkGbps: number | null): Promise<{ router: SimServer; disagg: DisaggSpec }> {
  const prefill = await startSimulator({ ...FAST, port: 0, disagg: { role: 'prefill' } });
  const decode = await startSimulator({ ...FAST, port: 0, disagg: { role: 'decode', linkGbps: LINK_GBPS } });
  const router = await startSimulator({ ...FAST, port: 0, disagg: { role: 'router', prefillUrl: prefill.url, decodeUrl: decode.url } });
  sims.push(router, prefill, decode);
  const roles = [
    { role: 'prefill' as const, url: `${prefill.url}/metrics`, gpus: 2 },
    { role: 'decode' as const, url: `${decode.url}/metrics`, gpus: 6 },
    { role: 'router' as const, url: `${router.url}/metrics`, gpus: null },
  ];
  return { router, disagg: { roles, kvLinkGbps } };
}

describe('a disaggregated server per level', () => {
  it('gives each pool its own figures, the KV moved between them and the TTFT split, for every level', async () => {
    const { router, disagg } = await pools(100);
    const byLevel = new Map<number, readonly RequestRecord[]>();
    const result = await runSweep(
      { ...base, url: router.url, levels: [1, 4], disagg },
      {
        afterLevel: async (l, r) => void byLevel.set(l.concurrency, r),
      },
    );
    expect(result.levels).toHaveLength(2);
    for (const level of result.levels) {
      const records = (byLevel.get(level.concurrency) ?? []).filter((r) => !r.warmup);
      const prompt = records.reduce((a, r) => a + (r.promptTokens as number), 0);
      const output = records.reduce((a, r) => a + r.outputTokens, 0);
      const d = level.disagg;
      if (d === undefined) throw new Error('expected the pools');
      const windowMs = measuredWindowMs(byLevel.get(level.concurrency) ?? []);
      expect(d.windowMs).toBe(windowMs);
      const [p, dec, r] = d.roles;
      // Each measured request was prefilled once (for one token) and decoded once; the warm-up is outside the window.
      expect(p).toMatchObject({ role: 'prefill', gpus: 2, requests: 8, promptTokens: prompt, generatedTokens: 8, error: null });
      expect(p?.promptTokensPerS).toBe(prompt / (windowMs / 1000));
      expect(p?.promptTokensPerSPerGpu).toBe((p?.promptTokensPerS as number) / 2);
      expect(p?.queueMeanMs).not.toBeNull();
      expect(p?.prefillMeanMs).not.toBeNull();
      expect(dec).toMatchObject({ role: 'decode', gpus: 6, requests: 8, generatedTokens: output, error: null });
      expect(dec?.generatedTokensPerSPerGpu).toBe(output / (windowMs / 1000) / 6);
      expect(r).toMatchObject({ role: 'router', gpus: null, requests: 8, error: null });
      // One transfer per request of its prompt's KV, read over the decode pool's one link, in turn.
      const bytes = prompt * KV_BYTES_PER_TOKEN;
      expect(d.kvTransfer).toMatchObject({ source: 'vllm-nixl', role: 'decode', bytes, transfers: 8, failed: 0, linkGbps: 100 });
      expect(d.kvTransfer?.levelGbps).toBe((bytes * 8) / 1e9 / (windowMs / 1000));
      expect(d.kvTransfer?.levelGbps).toBeLessThanOrEqual(LINK_GBPS);
      const alone = (bytes * 8 * 1000) / (LINK_GBPS * 1e9) / 8;
      if (level.concurrency === 1) {
        // One at a time: each transfer has the link to itself.
        expect(d.kvTransfer?.transferGbps).toBeCloseTo(LINK_GBPS, 6);
        expect(d.kvTransfer?.meanTransferMs).toBeCloseTo(alone, 6);
      } else {
        // Four at once share it: a transfer waits for those before it, so none beats the link.
        expect(d.kvTransfer?.transferGbps).toBeLessThanOrEqual(LINK_GBPS * (1 + 1e-9));
        expect(d.kvTransfer?.meanTransferMs).toBeGreaterThanOrEqual(alone * (1 - 1e-9));
      }
      const split = d.ttftSplit;
      expect(split?.transferMs).toBe(d.kvTransfer?.meanTransferMs);
      expect(split?.queueMs).toBe(p?.queueMeanMs);
      expect(split?.prefillMs).toBe(p?.prefillMeanMs);
      expect(split?.otherMs).toBe((split?.ttftMs as number) - (split?.queueMs as number) - (split?.prefillMs as number) - (split?.transferMs as number));
      // A level recomputed from its records (receipts, verify) gives the run's figures again: the counters carried, the window and the arithmetic redone.
      expect(levelFromRecords(result, level as LevelResult, byLevel.get(level.concurrency) ?? []).disagg).toEqual(d);
    }
  });

  it('refuses a KV rate above the declared link bandwidth as impossible, naming the figures', async () => {
    const { router, disagg } = await pools(1);
    const run = runSweep({ ...base, url: router.url, levels: [1], disagg });
    await expect(run).rejects.toBeInstanceOf(SweepError);
    await expect(run).rejects.toMatchObject({ code: 'bad-input' });
    // Each transfer runs at the decode pool's 10 Gbit/s, ten times the 1 Gbit/s declared.
    await expect(run).rejects.toThrow(
      /^concurrency 1: the KV transfer rate is impossible: \d+ bytes reported by the decode pool \((.+ measured window is [\d.,]+ Gbit\/s; )?[\d.,]+ Gbit in [\d.,]+ s of summed transfer time is 10\.00 Gbit\/s\), above the declared link bandwidth of 1\.000 Gbit\/s \(--kv-link-gbps\)$/,
    );
  });
});
