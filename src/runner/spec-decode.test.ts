/**
 * Speculative decoding through runSweep: the simulator's draft model (4
 * positions, acceptance 0.7, seeded) against its own counters and our chunks,
 * and a metrics endpoint whose counters disagree with the chunks the server
 * streamed. Counts only: no wall-clock verdicts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type LevelResult, type RequestRecord, VLLM_SPEC_DECODE, parsePrometheusText, seriesList, seriesValue } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { type TextServer, startTextServer } from '../test-support/text-server.js';
import { levelFromRecords } from './level-result.js';
import { runSweep } from './run-kinds.js';

const FAST = { prefillBaseMs: 2, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0 };
const base = { outputTokens: 256, promptTokens: 16, gpuSource: 'none' as const };
let closers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(closers.map((s) => s.close()));
  closers = [];
});
async function sim(profile: Parameters<typeof startSimulator>[0] = {}): Promise<SimServer> {
  const s = await startSimulator({ ...FAST, port: 0, ...profile });
  closers.push(s);
  return s;
}

describe('speculative decoding per level', () => {
  it("states the counters' arithmetic exactly, and our tokens per chunk within 5 %", async () => {
    // Playing vLLM, the simulator streams cumulative usage, so our chunk counts are exact.
    const s = await sim({ specDecode: { positions: 4, accept: 0.7 }, seed: 7, dialect: 'vllm' });
    // Our own scrapes just before and after the level: without warm-ups nothing else runs between them and the level's window.
    const scrape = async () => parsePrometheusText(await (await fetch(`${s.url}/metrics`)).text());
    let before = await scrape();
    let after = before;
    let records: readonly RequestRecord[] = [];
    const result = await runSweep(
      { ...base, url: s.url, levels: [4], requestsPerLevel: 48, warmup: 0 },
      {
        beforeLevel: async () => {
          before = await scrape();
        },
        afterLevel: async (_, r) => {
          after = await scrape();
          records = r;
        },
      },
    );
    const delta = (name: string) => (seriesValue(after, name, { combine: 'sum' }) as number) - (seriesValue(before, name, { combine: 'sum' }) as number);
    const drafts = delta(VLLM_SPEC_DECODE.drafts);
    const accepted = delta(VLLM_SPEC_DECODE.acceptedTokens);
    expect(drafts).toBeGreaterThan(1000);
    const spec = result.levels[0]?.specDecode;
    if (spec === undefined) throw new Error('expected speculative-decoding figures');
    expect(spec.source).toBe('vllm-counters');
    expect(spec.counters).toEqual({ drafts, draftTokens: 4 * drafts, acceptedTokens: accepted });
    expect(spec.acceptanceLength).toBe(1 + accepted / drafts);
    expect(spec.acceptanceRate).toBe(accepted / (4 * drafts));
    const perPos = (x: typeof before) => seriesList(x, VLLM_SPEC_DECODE.acceptedPerPos).map((p) => p.value);
    const was = perPos(before);
    expect(spec.perPosition).toEqual(perPos(after).map((n, i) => (n - (was[i] as number)) / drafts));
    expect(spec.perPosition).toHaveLength(4);
    // 48 requests of 256 tokens: about 4,400 verification steps, near 1 + 0.7 + 0.7² + 0.7³ + 0.7⁴.
    expect(Math.abs(spec.acceptanceLength - 2.7731)).toBeLessThan(0.1);
    const client = spec.client;
    if (client === null) throw new Error('expected our own estimate');
    expect(client.exact).toBe(true);
    expect(Math.abs(client.tokensPerChunk - spec.acceptanceLength) / spec.acceptanceLength).toBeLessThan(0.05);
    expect(spec.agrees).toBe(true);
    expect(result.warnings.map((w) => w.code)).not.toContain('spec-decode-disagrees');
    // A level recomputed from its records (receipts, verify) keeps the stated figures: the counters are not in the records.
    expect(levelFromRecords(result, result.levels[0] as LevelResult, records).specDecode).toEqual(spec);
    // The generated tokens still match the server's count: one chunk now carries several.
    expect(result.levels[0]?.serverTruth?.comparison.find((r) => r.metric === 'generated-tokens')).toMatchObject({ client: 48 * 256, agrees: true });
  });

  it('warns, naming both figures, when the counters disagree with the chunks the server streamed', async () => {
    const s = await sim();
    // Counters that say 4 tokens per verification step while the simulator streams one token per chunk.
    let scrapes = 0;
    const lying: TextServer = await startTextServer((p) => {
      if (p !== '/metrics') return null;
      scrapes++;
      return {
        body: [
          `vllm:num_requests_running 0`,
          `${VLLM_SPEC_DECODE.drafts} ${10 * scrapes}`,
          `${VLLM_SPEC_DECODE.draftTokens} ${40 * scrapes}`,
          `${VLLM_SPEC_DECODE.acceptedTokens} ${30 * scrapes}`,
        ].join('\n'),
      };
    });
    closers.push(lying);
    const result = await runSweep({ ...base, outputTokens: 32, url: s.url, levels: [1], requestsPerLevel: 4, warmup: 1, metricsUrl: `${lying.url}/metrics` });
    const spec = result.levels[0]?.specDecode;
    expect(spec).toMatchObject({ source: 'vllm-counters', acceptanceLength: 4, acceptanceRate: 0.75, agrees: false });
    expect(spec?.client?.tokensPerChunk).toBe(1);
    const w = result.warnings.filter((x) => x.code === 'spec-decode-disagrees');
    expect(w).toHaveLength(1);
    expect(w[0]?.message).toMatch(
      /^concurrency 1: our tokens per chunk and the server's speculative decoding disagree: acceptance length: server 4\.00 \(1 \+ \d+ accepted \/ \d+ drafts\), ours 1\.00 tokens per chunk over 124 chunks \(chunk counts not reported by the server: spread evenly\); allowed ±5% \(±0\.20\)$/,
    );
  });
});
