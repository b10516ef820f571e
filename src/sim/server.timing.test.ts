/**
 * Timing accuracy: the times at which the simulator writes bytes must match its
 * schedule, because the client's accuracy is measured against it. Schedule here:
 * 50 ms prefill, 10 ms decode steps, no batching slowdown. Tolerances are generous
 * (the machine is shared) but an error of a few ms at p50 fails.
 */
import { Agent, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSimProcess, startSimulator, type SimProcess, type SimServer, type SimStats } from './index.js';
import { quantile, streamPost, tokenEvents, type StreamResult } from '../test-support/sim-test-client.js';
import { wallClock } from '../test-support/wall-clock.js';

const PREFILL_MS = 50;
const STEP_MS = 10;
const TOKENS = 30;
const SCHEDULE = { prefillBaseMs: PREFILL_MS, prefillMsPerToken: 0, decodeStepMs: STEP_MS, decodeMsPerExtraSeq: 0, maxBatch: 1024 };
const body = (maxTokens: number) => ({
  model: 'goodput-sim-1',
  messages: [{ role: 'user', content: 'time me' }],
  stream: true,
  max_tokens: maxTokens,
  ignore_eos: true,
});

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.map((c) => c()));
  cleanup = [];
});

/** Runs `n` concurrent streams, the i-th sent `i × staggerMs` after the first. */
async function streams(url: string, n: number, staggerMs: number): Promise<StreamResult[]> {
  // Warm the connection pool first, so connection set-up is not in the measurement.
  await Promise.all(Array.from({ length: n }, () => streamPost(url, '/v1/chat/completions', body(1))));
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      await new Promise((r) => setTimeout(r, i * staggerMs));
      return streamPost(url, '/v1/chat/completions', body(TOKENS));
    }),
  );
}
const ttfts = (rs: StreamResult[]) => rs.map((r) => (tokenEvents(r)[0]?.atMs ?? Number.NaN) - r.sentMs);
const itls = (rs: StreamResult[]) =>
  rs.flatMap((r) => {
    const t = tokenEvents(r).map((e) => e.atMs);
    return t.slice(1).map((x, i) => x - (t[i] as number));
  });

describe('timing accuracy', () => {
  // Retried: a shared 2-core machine can deschedule the client; a wrong schedule fails every attempt.
  it('32 concurrent streams: client-side TTFT and inter-token times match the schedule at p50', { retry: 2 }, async () => {
    const s: SimServer = await startSimulator(SCHEDULE);
    cleanup.push(() => s.close());
    const rs = await streams(s.url, 32, 1);
    expect(rs.every((r) => tokenEvents(r).length === TOKENS && r.done)).toBe(true);
    const ttft = ttfts(rs);
    const itl = itls(rs);
    const seen = `TTFT p50 ${quantile(ttft, 0.5)}, ITL p10/50/90 ${[0.1, 0.5, 0.9].map((p) => quantile(itl, p)).join('/')}`;
    expect(quantile(ttft, 0.5), seen).toBeGreaterThanOrEqual(PREFILL_MS);
    wallClock(quantile(ttft, 0.5), seen).toBeLessThan(PREFILL_MS + 4);
    wallClock(Math.abs(quantile(itl, 0.5) - STEP_MS), seen).toBeLessThan(0.5);
    wallClock(quantile(itl, 0.1), seen).toBeGreaterThan(STEP_MS - 5);
    wallClock(quantile(itl, 0.9), seen).toBeLessThan(STEP_MS + 5);
    const st = s.stats();
    expect(st.meanTtftMs).toBeCloseTo(PREFILL_MS, 6);
    expect(st.meanTpotMs).toBeCloseTo(STEP_MS, 6);
    wallClock(st.writeLateness.p50Ms, 'write lateness p50 (ms)').toBeLessThan(1);
  });

  it('256 concurrent streams in their own process: writes land on the schedule at p50', { retry: 2 }, async () => {
    const p: SimProcess = await spawnSimProcess([
      '--prefill-base-ms',
      String(PREFILL_MS),
      '--prefill-ms-per-token',
      '0',
      '--decode-step-ms',
      String(STEP_MS),
      '--decode-ms-per-extra-seq',
      '0',
      '--max-batch',
      '1024',
    ]);
    cleanup.push(() => p.stop());
    // A light client (node:http, bodies drained, only the tail kept): the server's own lateness is measured.
    const agent = new Agent({ keepAlive: true, maxSockets: 256 });
    cleanup.push(async () => agent.destroy());
    const drain = (maxTokens: number) =>
      new Promise<string>((resolve, reject) => {
        const req = request(`${p.url}/v1/chat/completions`, { method: 'POST', agent }, (res) => {
          let tail = '';
          res.setEncoding('utf8');
          res.on('data', (text: string) => {
            tail = (tail + text).slice(-32);
          });
          res.on('end', () => resolve(tail));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(JSON.stringify(body(maxTokens)));
      });
    await Promise.all(Array.from({ length: 256 }, () => drain(1)));
    const tails = await Promise.all(Array.from({ length: 256 }, () => drain(TOKENS)));
    expect(tails.every((t) => t.endsWith('data: [DONE]\n\n'))).toBe(true);
    const st = (await (await fetch(`${p.url}/sim/stats`)).json()) as SimStats;
    expect(st.completed).toBe(512);
    expect(st.writeLateness.count).toBe(256 * (1 + TOKENS));
    // About 0.05 ms on an idle machine; under a full parallel test run about 1.5 ms.
    wallClock(st.writeLateness.p50Ms, `write lateness ${JSON.stringify(st.writeLateness)}`).toBeLessThan(2);
    const m = await (await fetch(`${p.url}/metrics`)).text();
    const v = (name: string) => Number(new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, 'm').exec(m)?.[1]);
    const itlMeanMs = (v('vllm:inter_token_latency_seconds_sum') / v('vllm:inter_token_latency_seconds_count')) * 1000;
    wallClock(Math.abs(itlMeanMs - STEP_MS), `server ITL mean ${itlMeanMs} ms`).toBeLessThan(0.5);
  });
});

describe('an injected stall', () => {
  it('pauses the stream for stallMs within 40 ms (the fault test only checks there is one stall, in the middle)', async () => {
    const s: SimServer = await startSimulator({ ...SCHEDULE, decodeStepMs: 1, prefillBaseMs: 5, faults: { stall: 1, stallMs: 150 } });
    cleanup.push(() => s.close());
    const r = await streamPost(s.url, '/v1/chat/completions', body(20));
    const t = tokenEvents(r).map((e) => e.atMs);
    const longest = Math.max(...t.slice(1).map((x, i) => x - (t[i] as number)));
    expect(longest).toBeGreaterThan(150 - 20);
    wallClock(longest, 'longest stall (ms)').toBeLessThan(150 + 40);
  });
});
