/**
 * Server-side ground truth and GPU telemetry through runSweep, against the
 * simulator (which serves vLLM-style /metrics with its true timings) on
 * 127.0.0.1. Agreement within 5% is checked on a slow schedule in
 * server-truth.timing.test.ts; here: the plumbing, the counts, and the warnings.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type RequestRecord, fastestHeadersMs } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { type TextServer, startTextServer } from '../test-support/text-server.js';
import { pollingGpuSource } from '../telemetry/index.js';
import { levelWarnings } from './level-telemetry.js';
import { runSweep } from './run-kinds.js';

const FAST = { prefillBaseMs: 5, prefillMsPerToken: 0, decodeStepMs: 2, decodeMsPerExtraSeq: 0 };
const base = { outputTokens: 32, promptTokens: 16, requestsPerLevel: 6 as const, warmup: 1, gpuSource: 'none' as const };
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

describe('server-side ground truth against the simulator', () => {
  it("puts the server's own figures beside ours, per level, over exactly the measured requests", async () => {
    const s = await sim();
    const byLevel = new Map<number, readonly RequestRecord[]>();
    const result = await runSweep(
      { ...base, url: s.url, levels: [1, 2] },
      {
        afterLevel: async (l, records) => {
          byLevel.set(l.concurrency, records);
        },
      },
    );
    expect(result.run.serverMetrics).toMatchObject({ available: true, url: `${s.url}/metrics`, family: 'vllm', missing: [] });
    expect(result.run.serverMetrics?.found.ttftMs).toBe('vllm:time_to_first_token_seconds_sum + vllm:time_to_first_token_seconds_count');
    expect(result.warnings.map((w) => w.code)).not.toContain('metrics-missing');
    for (const level of result.levels) {
      const t = level.serverTruth;
      if (!t) throw new Error('expected a server view');
      // Warm-ups fall outside the window: the server counted exactly our 6 measured requests and their tokens.
      expect(t.requests).toBe(6);
      expect(t.generatedTokens).toBe(6 * 32);
      expect(t.promptTokens).toBeGreaterThan(0);
      expect(t.ttftMeanMs).toBeGreaterThan(4);
      expect(t.itlMeanMs).toBeGreaterThan(1);
      expect(t.itlPer).toBe('chunk');
      expect(t.queued).toBe(false);
      expect(t.rttMs).not.toBeNull();
      // No round trip is stated longer than the level's own fastest response: publish refuses that.
      expect(t.rttMs).toBeLessThanOrEqual(fastestHeadersMs(byLevel.get(level.concurrency) ?? []) ?? -1);
      expect(t.comparison.map((r) => r.metric)).toEqual(['ttft-mean-ms', 'itl-mean-ms', 'generated-tokens', 'requests']);
      expect(t.comparison.find((r) => r.metric === 'generated-tokens')).toMatchObject({ client: 192, server: 192, agrees: true });
      // The simulator reports its own write lateness; the TTFT allowance names it beside our loop delay.
      expect(t.comparison.find((r) => r.metric === 'ttft-mean-ms')?.basis).toMatch(
        /our event-loop delay [\d.]+ ms \(p99\) \+ the server's write lateness [\d.]+ ms \(p99\)/,
      );
    }
  });

  it('warns when the server queued requests: --max-batch 2 at concurrency 8', async () => {
    const s = await sim({ maxBatch: 2 });
    const result = await runSweep({ ...base, url: s.url, levels: [1, 8], requestsPerLevel: 16 });
    const [one, eight] = result.levels;
    expect(one?.serverTruth?.queued).toBe(false);
    expect(eight?.serverTruth?.queued).toBe(true);
    expect(eight?.serverTruth?.queueMeanMs).toBeGreaterThan(20);
    const w = result.warnings.find((x) => x.code === 'server-queued');
    expect(w?.message).toMatch(/^concurrency 8: the server queued requests \(mean queue time [\d.]+ ms \(\d+% of its TTFT\)/);
    expect(result.warnings.filter((x) => x.code === 'server-queued')).toHaveLength(1);
  });

  it('warns that there is no server view when the metrics endpoint is missing, and runs anyway', async () => {
    const s = await sim();
    const empty: TextServer = await startTextServer(() => null);
    closers.push(empty);
    const result = await runSweep({ ...base, url: s.url, levels: [1], metricsUrl: `${empty.url}/metrics` });
    expect(result.run.serverMetrics).toMatchObject({ available: false, reason: `no Prometheus metrics at ${empty.url}/metrics (HTTP 404)` });
    expect(result.warnings.find((w) => w.code === 'metrics-missing')?.message).toBe(
      `no server-side ground truth: no Prometheus metrics at ${empty.url}/metrics (HTTP 404)`,
    );
    expect(result.levels[0]?.serverTruth).toBeNull();
    expect(result.levels[0]?.succeeded).toBe(6);
  });

  it('names the metrics the server lacks', async () => {
    const s = await sim();
    const partial = await startTextServer((p) => (p === '/metrics' ? { body: 'vllm:num_requests_running 0\nvllm:num_requests_waiting 0\n' } : null));
    closers.push(partial);
    const result = await runSweep({ ...base, url: s.url, levels: [1], metricsUrl: `${partial.url}/metrics` });
    expect(result.warnings.find((w) => w.code === 'metrics-missing')?.message).toMatch(
      /lack: TTFT, inter-token time, e2e latency, queue time, finished requests, generated tokens/,
    );
    expect(result.levels[0]?.serverTruth?.comparison).toEqual([]);
    expect(result.levels[0]?.serverTruth?.missing).toContain('ttftMs');
  });

  it('with serverMetrics off, nothing is scraped and nothing is claimed', async () => {
    const s = await sim();
    const result = await runSweep({ ...base, url: s.url, levels: [1], serverMetrics: false });
    expect(result.run.serverMetrics).toBeNull();
    expect(result.levels[0]?.serverTruth).toBeNull();
  });
});

describe('telemetry warnings of a level', () => {
  it('a disagreement on a client-bound level says our own delay may explain it', () => {
    const t = {
      gpuMem: { available: false, source: 'not available', reason: 'x' } as const,
      gpu: null,
      serverTruth: null,
      warnings: [
        { code: 'server-disagrees', message: "level 4: our figures and the server's disagree: TTFT mean: …" },
        { code: 'server-queued', message: 'q' },
      ],
    };
    const bound = { clientBound: { bound: true, reason: "the client's event loop was delayed 43.2 ms (p99); budget 10 ms" } } as Parameters<
      typeof levelWarnings
    >[1];
    expect(levelWarnings(t, bound)[0]?.message).toMatch(
      /; this level is client-bound \(the client's event loop was delayed 43\.2 ms \(p99\); budget 10 ms\), so our own delay may explain it$/,
    );
    expect(levelWarnings(t, bound)[1]?.message).toBe('q');
    expect(levelWarnings(t, { clientBound: { ...bound.clientBound, bound: false } })).toBe(t.warnings);
  });
});

describe('GPU telemetry through runSweep', () => {
  it('records utilisation, power and energy per output token from the source, with the source', async () => {
    const s = await sim();
    let n = 0;
    const gpu = pollingGpuSource(
      'dcgm',
      'dcgm-exporter',
      async () => {
        n++;
        return { name: 'FakeGPU', usedMiB: 1000 + n, totalMiB: 8000, utilizationPct: 50, powerW: 200, energyJ: null };
      },
      5,
    );
    const result = await runSweep({ ...base, url: s.url, levels: [2], gpuSource: 'auto', serverMetrics: false }, { gpu });
    const level = result.levels[0];
    expect(level?.gpuMemMiB).toMatchObject({ available: true, source: 'dcgm-exporter', gpu: 'FakeGPU', totalMiB: 8000 });
    const g = level?.gpu;
    if (!g?.available) throw new Error('expected GPU readings');
    expect(g).toMatchObject({ source: 'dcgm-exporter', utilizationPct: { mean: 50, max: 50 }, powerW: { mean: 200, max: 200 } });
    // Energy is the measured window's, valid or not by how regularly the timer read (level-energy.test.ts scripts both cases).
    const e = level?.energy;
    if (!e) throw new Error('expected the level to carry its energy');
    expect(e).toMatchObject({ source: 'dcgm-exporter', intervalMs: 5, outputTokens: level?.outputTokensTotal });
    expect(g.energyJ).toBe(e.joules);
    expect(g.joulesPerOutputToken).toBe(e.joulesPerOutputToken);
    if (e.valid) expect(e.meanPowerW).toBeCloseTo(200, 9);
    else expect(e.reason).toMatch(/^no reading from|readings inside the/);
  });

  it('--gpu-source none: memory "not available" with the reason, no GPU figures', async () => {
    const s = await sim();
    const result = await runSweep({ ...base, url: s.url, levels: [1], serverMetrics: false });
    expect(result.levels[0]?.gpuMemMiB).toEqual({ available: false, source: 'not available', reason: 'GPU telemetry is off (--gpu-source none)' });
    expect(result.levels[0]?.gpu).toBeNull();
  });

  it('refuses --gpu-source dcgm without a URL before any level runs', async () => {
    const s = await sim();
    await expect(runSweep({ ...base, url: s.url, levels: [1], gpuSource: 'dcgm' })).rejects.toThrow(/dcgm needs a DCGM exporter URL \(--dcgm-url\)/);
    expect(s.stats().accepted).toBe(0);
  });
});
