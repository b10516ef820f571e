// The server's own account, recomputed: a timeline compressed after the run, a
// comparison stated as agreeing, another run's server truth, an inflated round
// trip: each refused naming the level, the metric and the rule; allowed
// disagreements and a missing account become limitations.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredRecord } from '../contract/index.js';
import { SERVER_LATENESS_BUCKETS_S, type ServerTruth, type SweepResult, compareWithServer, ttftMs } from '../core/index.js';
import { evidencePair } from '../test-support/evidence-fixture.js';
import { forge } from '../test-support/forger.js';
import { measuredQualityFixture } from '../test-support/quality-fixture.js';
import { packReceipt } from '../test-support/receipt-dir.js';
import { receiptFile } from './receipt-file.js';
import { recomputeReceipt } from './receipt-file.js';

const root = mkdtempSync(join(tmpdir(), 'goodput-server-truth-'));
let n = 0;

/** The server's figures a faithful engine would report for these records (its TTFT 0.5 ms under ours), and the comparison. */
function truthOf(records: readonly StoredRecord[], loopP99: number | null): ServerTruth {
  const ok = records.filter((r) => !r.warmup && r.outcome.kind === 'ok');
  const ttft = ok.map(ttftMs).filter((v): v is number => v !== null);
  const figures = {
    family: 'vllm',
    requests: records.filter((r) => !r.warmup).length,
    ttftMeanMs: ttft.reduce((a, b) => a + b, 0) / ttft.length - 0.5,
    itlMeanMs: null,
    itlPer: null,
    e2eMeanMs: null,
    queueMeanMs: null,
    generatedTokens: records.filter((r) => !r.warmup).reduce((a, r) => a + r.outputTokens, 0),
    promptTokens: null,
    prefixCacheHitPct: null,
    lateP99Ms: null,
    running: null,
    waiting: null,
    kvCacheUsagePct: null,
    missing: [],
    notes: [],
  };
  const rttMs = 0.4;
  return { metricsUrl: 'http://withheld.invalid/', ...figures, rttMs, ...compareWithServer(records, figures, rttMs, loopP99) };
}

/** A result whose every level carries the server's account of its own records. */
function withTruth(r: SweepResult): SweepResult {
  return forge(r, {
    levels: (ls) =>
      ls.map((l) => ({
        ...l,
        serverTruth: truthOf(
          (r.records ?? []).filter((x) => x.concurrency === l.concurrency),
          l.clientBound.loopDelayMs?.p99 ?? null,
        ),
      })),
  });
}

async function refusals(optimized: SweepResult, allow = false): Promise<{ messages: string[]; limitations: string[] }> {
  const dir = join(root, `case-${n++}`);
  mkdirSync(dir, { recursive: true });
  const baseline = withTruth(evidencePair().baseline);
  const d = packReceipt(join(dir, 'r.json'), { baseline, optimized, quality: measuredQualityFixture({ baseline, optimized }) });
  let text = d.text;
  if (allow) {
    const doc = JSON.parse(text) as Parameters<typeof receiptFile>[0] & { evidence: Parameters<typeof receiptFile>[1] };
    text = JSON.stringify(receiptFile(doc, doc.evidence, true));
  }
  const r = await recomputeReceipt(text, dir, '2026-07-01');
  return r.ok ? { messages: [], limitations: r.receipt.limitations } : { messages: r.refusals.map((x) => x.message), limitations: [] };
}

/** Every instant of every record after its send moved `factor` of the way back to its send. */
const compress = (factor: number) => (rs: StoredRecord[]) =>
  rs.map((r) => {
    const at = (t: number) => r.sendNs + (t - r.sendNs) * factor;
    return {
      ...r,
      headersNs: r.headersNs === null ? null : at(r.headersNs),
      firstTokenNs: r.firstTokenNs === null ? null : at(r.firstTokenNs),
      firstAnswerNs: r.firstAnswerNs === null ? null : at(r.firstAnswerNs),
      chunkNs: r.chunkNs.map(at),
      endNs: r.endNs === null ? null : at(r.endNs),
    };
  });

describe('server truth recomputed at publish', () => {
  const good = withTruth(evidencePair().optimized);
  it('an account that agrees recomputes, with no limitation about it', async () => {
    const r = await refusals(good);
    expect(r.messages).toEqual([]);
    expect(r.limitations.join('\n')).not.toMatch(/server's account|reported no figures/);
  });
  it('a timeline compressed by half after the run (the comparison recomputed by the forger too)', async () => {
    const forged = forge(good, { records: compress(0.5) });
    const again = forge(forged, {
      levels: (ls) =>
        ls.map((l) => ({
          ...l,
          serverTruth: {
            ...(l.serverTruth as ServerTruth),
            ...compareWithServer(
              (forged.records ?? []).filter((x) => x.concurrency === l.concurrency),
              { ...(l.serverTruth as ServerTruth), missing: [], lateP99Ms: null },
              0.4,
              null,
            ),
          },
        })),
    });
    const { messages } = await refusals(again);
    expect(messages).toContainEqual(
      expect.stringMatching(
        /^evidence\.optimized: run 1 levels\[c=1\]\.serverTruth ttft-mean-ms: TTFT mean: ours [\d.]+ ms, the server's [\d.]+ ms \(allowed .*\): the server's own account disagrees past the allowance.*\[rule: server-agreement\]$/,
      ),
    );
  });
  it('a timeline compressed with the stored comparison still saying it agrees', async () => {
    const { messages } = await refusals(forge(good, { records: compress(0.5) }));
    expect(messages).toContainEqual(
      expect.stringMatching(
        /^evidence\.optimized: run 1 levels\[c=\d\]\.serverTruth\.comparison\[0\]\.agrees: states true, its records and the server's deltas give false \[rule: server-truth\]$/,
      ),
    );
  });
  it("server truth copied from the other configuration's run", async () => {
    const baseline = withTruth(evidencePair().baseline);
    const { messages } = await refusals(forge(good, { levels: (ls) => ls.map((l, i) => ({ ...l, serverTruth: baseline.levels[i]?.serverTruth })) }));
    expect(messages.some((m) => /serverTruth.*\[rule: server-truth\]$/.test(m))).toBe(true);
  });
  it('a round trip inflated to widen the allowance', async () => {
    const { messages } = await refusals(
      forge(good, { levels: (ls) => ls.map((l) => ({ ...l, serverTruth: { ...(l.serverTruth as ServerTruth), rttMs: 500 } })) }),
    );
    expect(messages).toContainEqual(
      expect.stringMatching(
        /levels\[c=1\]\.serverTruth\.rttMs: states a 500 ms round trip, longer than the fastest response's headers \(1\.00 ms after its send\) \[rule: server-truth\]$/,
      ),
    );
  });
  it('a disagreement the receipt allows is published as a limitation naming the metric and both numbers', async () => {
    const forged = forge(good, {
      levels: (ls) =>
        ls.map((l) => {
          const st = l.serverTruth as ServerTruth;
          const figures = { ...st, missing: [], lateP99Ms: null, ttftMeanMs: (st.ttftMeanMs ?? 0) / 2 };
          return {
            ...l,
            serverTruth: {
              ...figures,
              ...compareWithServer(
                (good.records ?? []).filter((x) => x.concurrency === l.concurrency),
                figures,
                0.4,
                null,
              ),
            },
          };
        }),
    });
    expect((await refusals(forged)).messages.some((m) => m.endsWith('[rule: server-agreement]'))).toBe(true);
    const { messages, limitations } = await refusals(forged, true);
    expect(messages).toEqual([]);
    expect(limitations).toContainEqual(
      expect.stringMatching(/^optimized: concurrency 1: the server's account disagrees: TTFT mean: ours [\d.]+ ms, the server's [\d.]+ ms \(allowed/),
    );
  });
  /** Each level's server lateness set to `late(span)` ms, its comparison recomputed as the run would have. */
  const withLate = (late: (spanMs: number) => number) =>
    forge(good, {
      levels: (ls) =>
        ls.map((l) => {
          const records = (good.records ?? []).filter((x) => x.concurrency === l.concurrency);
          const span = (Math.max(...records.map((x) => x.endNs ?? x.sendNs)) - Math.min(...records.map((x) => x.sendNs))) / 1e6;
          const st = { ...(l.serverTruth as ServerTruth), lateP99Ms: late(span) };
          return { ...l, serverTruth: { ...st, ...compareWithServer(records, { ...st, missing: [], lateP99Ms: st.lateP99Ms }, st.rttMs, null) } };
        }),
    });
  /** The first lateness bucket bound at or above `spanMs`, ms: how a lateness inside the level reads off the histogram. */
  const bucketAbove = (spanMs: number) => 1000 * (SERVER_LATENESS_BUCKETS_S.find((b) => b * 1000 >= spanMs) ?? 1);
  it("a short level's lateness read off the histogram as the bucket bound above its span passes", async () => {
    const { messages } = await refusals(withLate(bucketAbove));
    expect(messages).toEqual([]);
  });
  it('a lateness past the bucket that could hold the level is refused', async () => {
    const { messages } = await refusals(withLate((span) => 2 * bucketAbove(span) + 1));
    expect(messages).toContainEqual(
      expect.stringMatching(
        /^evidence\.optimized: run 1 levels\[c=1\]\.serverTruth\.lateP99Ms: states [\d.]+ ms of server lateness in a level whose records span [\d.]+ ms \(read off the histogram's buckets, at most [\d.]+ ms\) \[rule: server-truth\]$/,
      ),
    );
  });
  it('a configuration whose server reported nothing says so', async () => {
    const { messages, limitations } = await refusals(evidencePair().optimized);
    expect(messages).toEqual([]);
    expect(limitations).toContain(
      "optimized: the server reported no figures of its own (no /metrics), so no number here is checked against the server's account.",
    );
  });
});
