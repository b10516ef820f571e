/**
 * Pooling records get the physics of every record: embeddings and rerank runs
 * made against simulators, one lie planted per copy and made self-consistent
 * with goodput's own code (levels, peak and capacity recomputed from the edited
 * records, recordsSha256 again), then `goodput receipt create`: each is refused
 * with exit 2, its rule and record named, and nothing written. The untouched
 * runs make a receipt.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolingRecordsSha256, runPoolingContract, validateContract } from '../contract/index.js';
import { type PoolingRecord, type PoolingResult, compareWholeWithServer, poolingCapacity, poolingLevel, poolingPeak } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { type Doc, poolingContract } from '../test-support/pooling-contract.js';
import { receiptCli } from '../test-support/receipt-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-pooling-physics-'));
const { create, refused: refusedPair } = receiptCli(dir, 'a faster encoder');
const sims: SimServer[] = [];
let base: PoolingResult;
let fast: PoolingResult;
let slowBase: PoolingResult;
let slowFast: PoolingResult;
const run = async (sim: SimServer, over: (c: Doc) => void = () => {}) =>
  runPoolingContract(validateContract(poolingContract(sim.url, 'embeddings', over), 'contract.yaml', dir), {
    url: sim.url,
    command: 'goodput run contract.yaml',
  });

/**
 * A forger with goodput's own code: the records edited, then every level, the peak, the capacity and the hash recomputed
 * from them. The server's figures are left as the server gave them; with `recompare`, the comparison beside them is
 * recomputed from the edited records too.
 */
function forged(r: PoolingResult, edit: (records: PoolingRecord[]) => PoolingRecord[], recompare = false): PoolingResult {
  const f = structuredClone(r);
  const records = edit(f.records ?? []);
  const levels = f.levels.map((l) => {
    const cb = l.clientBound;
    const client = cb === undefined ? null : { loopDelayMs: cb.loopDelayMs, clientCpuPct: cb.clientCpuPct, budgetMs: cb.budgetMs };
    const own = records.filter((x) => x.concurrency === l.concurrency);
    const level = poolingLevel(l.concurrency, own, f.run.hourlyCostUsd, f.run.latencySlo, client);
    const st = l.serverTruth;
    if (st === undefined || st === null) return level;
    const { metricsUrl: _u, rttMs: _r, comparison: _c, queued: _q, ...figures } = st;
    const again = compareWholeWithServer(own, { ...figures, missing: [], lateP99Ms: figures.lateP99Ms ?? null });
    return { ...level, serverTruth: recompare ? { ...st, ...again } : st };
  });
  const capacity = f.run.latencySlo === null ? null : poolingCapacity(levels, f.run.latencySlo);
  return { ...f, records, recordsSha256: poolingRecordsSha256(records), levels, peak: poolingPeak(levels), capacity };
}

beforeAll(async () => {
  sims.push(await startSimulator({ port: 0, pooling: { dimension: 32, baseMs: 1, msPerInputToken: 0.02 } }));
  sims.push(await startSimulator({ port: 0, pooling: { dimension: 32, baseMs: 1, msPerInputToken: 0.01 } }));
  // Slow encoders, so a run lasts long enough that a timeline compressed fourfold leaves seconds of its wall time unexplained.
  sims.push(await startSimulator({ port: 0, pooling: { dimension: 32, baseMs: 900, msPerInputToken: 0 } }));
  sims.push(await startSimulator({ port: 0, pooling: { dimension: 32, baseMs: 800, msPerInputToken: 0 } }));
  const slow = (c: Doc) => {
    c.workload.requestsPerLevel = 12;
    c.load.levels = [1];
  };
  [base, fast, slowBase, slowFast] = await Promise.all([
    run(sims[0] as SimServer),
    run(sims[1] as SimServer),
    run(sims[2] as SimServer, slow),
    run(sims[3] as SimServer, slow),
  ]);
}, 90_000);
afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
});

let n = 0;
const refused = (baseline: PoolingResult, optimized: PoolingResult): Promise<string> => refusedPair(`case-${n++}`, baseline, optimized);

describe('pooling records have the physics of every record', () => {
  it("the untouched runs were counted by the server's own tokenizer and make receipts", async () => {
    expect(fast.run.tokenizer.exact).toBe(true);
    for (const [b, o, name] of [
      [base, fast, 'fast'],
      [slowBase, slowFast, 'slow'],
    ] as const) {
      const out = join(dir, 'good', `${name}.json`);
      const r = await create(name, b, o, out);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
  });

  it("input tokens ×4 (+300 %): refused against the tokens sent, by the server's own tokenizer", async () => {
    const lie = forged(fast, (rs) => rs.map((x) => (x.inputTokens === null ? x : { ...x, inputTokens: x.inputTokens * 4 })));
    // The level's rate, not the peak: on a busy machine a level can be client-bound and leave the peak.
    expect(lie.levels[0]?.inputTokensPerS).toBeCloseTo((fast.levels[0]?.inputTokensPerS ?? 0) * 4, 6);
    const stderr = await refused(base, lie);
    expect(stderr).toMatch(
      /evidence\.optimized: run 1 records\[c=\d\] record seq \d+\.inputTokens: states \d+ input tokens; its 4 items were 128 tokens by the server's own tokenizer, so the server counts 64 to 288 \[rule: input-tokens\]/,
    );
  });

  it('a request encoded at one instant: refused by the encode rate', async () => {
    const lie = forged(fast, (rs) => rs.map((x, i) => (i === 1 ? { ...x, endNs: x.sentNs } : x)));
    const stderr = await refused(base, lie);
    expect(stderr).toMatch(
      /evidence\.optimized: run 1 records\[c=\d\] record seq \d+: encodes \d+ input tokens at one instant; no request is encoded faster than 10,000,000 tok\/s \[rule: encode-rate\]/,
    );
  });

  it("a timeline compressed fourfold: refused against the run's wall clock", async () => {
    const origin = Math.min(...(slowFast.records ?? []).map((x) => x.sentNs));
    const squeeze = (t: number) => origin + (t - origin) / 4;
    const lie = forged(slowFast, (rs) => rs.map((x) => ({ ...x, sentNs: squeeze(x.sentNs), endNs: squeeze(x.endNs) })));
    // The level's rate, not the peak: on a busy machine the forger's squeezed level can turn client-bound and leave the peak.
    expect(lie.levels[0]?.itemsPerS ?? 0).toBeGreaterThan((slowFast.levels[0]?.itemsPerS ?? 0) * 3.9);
    const stderr = await refused(slowBase, lie);
    expect(stderr).toMatch(
      /evidence\.optimized: run 1 records: last [\d.]+ s of a run that went from \S+ to \S+ \([\d.]+ s\); setup and 1 level gaps account for at most 6 s \[rule: wall-clock\]/,
    );
  });

  it("a timeline compressed fourfold with the run's start and end moved to fit: refused against the server's own latency", async () => {
    for (const l of slowFast.levels) expect(l.serverTruth?.e2eMeanMs ?? 0).toBeGreaterThan(700);
    const origin = Math.min(...(slowFast.records ?? []).map((x) => x.sentNs));
    const squeeze = (t: number) => origin + (t - origin) / 4;
    const squeezed = (recompare: boolean) => {
      const lie = forged(slowFast, (rs) => rs.map((x) => ({ ...x, sentNs: squeeze(x.sentNs), endNs: squeeze(x.endNs) })), recompare);
      // The run's wall clock moved to fit the records, so the wall-clock rule alone lets it through.
      const start = Date.parse(lie.run.startedAt);
      const span = (Date.parse(lie.run.endedAt) - start) / 4;
      return { ...lie, run: { ...lie.run, endedAt: new Date(start + span).toISOString() } };
    };
    // The comparison beside the server's figures recomputed by the forger: the server's latency is four times ours.
    const recompared = await refused(slowBase, squeezed(true));
    expect(recompared).not.toMatch(/\[rule: wall-clock\]/);
    expect(recompared).toMatch(
      /evidence\.optimized: run 1 levels\[c=1\]\.serverTruth e2e-mean-ms: latency mean: ours [\d.]+ ms, the server's [\d.]+ ms \(allowed -[\d.]+ to \+[\d.]+ ms\): the server's own account disagrees past the allowance.*\[rule: server-agreement\]/,
    );
    // The comparison left as the run recorded it: it no longer follows from the records.
    const kept = await refused(slowBase, squeezed(false));
    expect(kept).toMatch(
      /evidence\.optimized: run 1 levels\[c=1\]\.serverTruth\.comparison\[0\]\.client: states [\d.]+, its records and the server's deltas give [\d.]+ \[rule: server-truth\]/,
    );
  });

  it('a round trip longer than the fastest answer: refused', async () => {
    const lie = structuredClone(fast);
    const st = lie.levels[0]?.serverTruth;
    if (st === undefined || st === null) throw new Error('no server view recorded');
    st.rttMs = 60_000;
    const stderr = await refused(base, lie);
    expect(stderr).toMatch(
      /evidence\.optimized: run 1 levels\[c=\d\]\.serverTruth\.rttMs: states a 60000 ms round trip, longer than the fastest answer \([\d.]+ ms from its send to its last byte\) \[rule: server-truth\]/,
    );
  });

  it("records that last longer than the run: refused against the run's wall clock", async () => {
    const lie = forged(fast, (rs) => rs.map((x) => (x.concurrency === 1 ? { ...x, sentNs: x.sentNs + 30e9, endNs: x.endNs + 30e9 } : x)));
    const stderr = await refused(base, lie);
    expect(stderr).toMatch(/evidence\.optimized: run 1 records: last [\d.]+ s, but the run went from \S+ to \S+ \([\d.]+ s\) \[rule: wall-clock\]/);
  });
});
