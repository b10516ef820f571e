/**
 * Requests given up on purpose, end to end: the client closes the socket at its
 * point and records the outcome `cancelled`; the simulator frees the slot at once,
 * so its running count falls and its queue drains where, without cancelling, both
 * stay full; `goodput sweep --cancel-after-tokens` counts the cancelled requests
 * apart (the level valid, no figure including them) and says so beside the
 * server's own tokens and queue; the flags' refusals name the flag.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RequestRecord, type SweepResult, sweepResultSchema } from '../core/index.js';
import { type RequestSpec, createStreamingClient } from '../client/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { patient } from '../test-support/patience.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'goodput-cancel-'));
});

/** The simulator's running and waiting gauges, as a scrape of its /metrics reads them. */
async function queueOf(sim: SimServer): Promise<{ running: number; waiting: number }> {
  const text = await (await fetch(`${sim.url}/metrics`)).text();
  const gauge = (name: string) => Number(new RegExp(`^vllm:${name}\\{[^}]*\\} (\\S+)$`, 'm').exec(text)?.[1]);
  return { running: gauge('num_requests_running'), waiting: gauge('num_requests_waiting') };
}

describe('the simulator when its clients go away', () => {
  let sim: SimServer;
  beforeAll(async () => {
    // Two slots, and requests that would decode for 4 s: six sent at once hold both slots and queue four. A 100 ms
    // prefill keeps a queued request tokenless for 100 ms after it is let in, so a cancel timer firing late on a
    // loaded machine cannot see a token the test says it has not.
    sim = await startSimulator({ port: 0, prefillBaseMs: 100, prefillMsPerToken: 0, decodeStepMs: 20, decodeMsPerExtraSeq: 0, maxBatch: 2 });
  });
  afterAll(async () => {
    await sim?.close();
  });
  const spec = (cancel?: RequestSpec['cancel']): RequestSpec => ({
    endpoint: 'chat',
    model: 'goodput-sim-1',
    prompt: 'one two three four',
    maxTokens: 200,
    forceLength: true,
    thinking: false,
    ...(cancel === undefined ? {} : { cancel }),
  });
  const sendSix = (client: ReturnType<typeof createStreamingClient>, cancel?: RequestSpec['cancel']) =>
    Promise.all(Array.from({ length: 6 }, (_, seq) => client.send(spec(cancel), { seq, concurrency: 6, warmup: false, targetSendNs: 0 })));

  it('keeps both slots and its queue full while the clients wait, and frees them when the clients give up', async () => {
    const waiting = createStreamingClient({ baseUrl: sim.url }, { connections: 6 });
    const held = sendSix(waiting);
    await expect.poll(() => queueOf(sim), { timeout: patient(5000) }).toEqual({ running: 2, waiting: 4 });
    await waiting.close();
    await held;
    await expect.poll(() => queueOf(sim), { timeout: patient(5000) }).toEqual({ running: 0, waiting: 0 });

    const before = sim.stats().cancelled;
    const impatient = createStreamingClient({ baseUrl: sim.url }, { connections: 6 });
    const records = await sendSix(impatient, { afterMs: 300, afterTokens: null });
    await impatient.close();
    // Each gave up at its time: the two decoding had read tokens, the four queued had none.
    expect(records.map((r) => r.outcome).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)))).toEqual([
      ...Array.from({ length: 4 }, () => ({ kind: 'cancelled', after: 'ms', phase: 'first-token' })),
      ...Array.from({ length: 2 }, () => ({ kind: 'cancelled', after: 'ms', phase: 'stream' })),
    ]);
    expect(records.every((r) => r.outputTokens < 200)).toBe(true);
    // The server heard every socket close: nothing runs, nothing waits, six requests ended as cancelled.
    await expect.poll(() => queueOf(sim), { timeout: patient(5000) }).toEqual({ running: 0, waiting: 0 });
    await expect.poll(() => sim.stats().cancelled - before, { timeout: patient(5000) }).toBe(6);
  });

  it('reads to the end a request that ends before its point, and gives up one that reads its tokens', async () => {
    const client = createStreamingClient({ baseUrl: sim.url }, { connections: 2 });
    const short = { ...spec({ afterMs: 60_000, afterTokens: 10 }), maxTokens: 3 };
    const long = spec({ afterMs: null, afterTokens: 5 });
    const [done, cut] = await Promise.all([
      client.send(short, { seq: 0, concurrency: 2, warmup: false, targetSendNs: 0 }),
      client.send(long, { seq: 1, concurrency: 2, warmup: false, targetSendNs: 0 }),
    ]);
    await client.close();
    expect(done.outcome).toEqual({ kind: 'ok' });
    expect(done.outputTokens).toBe(3);
    expect(cut.outcome).toEqual({ kind: 'cancelled', after: 'tokens', phase: 'stream' });
    expect(cut.chunkTokens.reduce((a, b) => a + b, 0)).toBe(5);
    expect(cut.finishReason).toBeNull();
  });
});

describe('goodput sweep --cancel-after-tokens', () => {
  let sim: SimServer;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 3, decodeMsPerExtraSeq: 0, maxBatch: 2 });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('counts the requests given up apart, keeps them out of every figure, and shows the server stopped decoding for them', async () => {
    const json = join(dir, 'cancel.json');
    const raw = join(dir, 'cancel.jsonl');
    const r = await cli([
      'sweep',
      '--url',
      sim.url,
      '--levels',
      '4',
      '--requests-per-level',
      '8',
      '--warmup',
      '1',
      '--output-tokens',
      '64',
      '--prompt-tokens',
      '8',
      '--gpu-source',
      'none',
      '--client-threads',
      '1',
      '--metrics-interval-ms',
      '100',
      '--cancel-after-tokens',
      '8',
      '--cancel-fraction',
      '0.5',
      '--json',
      json,
      '--raw',
      raw,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const result: SweepResult = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    const level = result.levels[0] as SweepResult['levels'][number];
    expect(level).toMatchObject({ requests: 8, succeeded: 4, failed: 0, invalid: false, failures: {} });
    const records = readFileSync(raw, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as RequestRecord)
      .filter((x) => !x.warmup);
    const cancelled = records.filter((x) => x.outcome.kind === 'cancelled');
    // Every other measured request (the second, fourth, …), each after at least its 8 tokens and well before its 64.
    expect(cancelled.map((x) => x.seq).sort((a, b) => a - b)).toEqual([2, 4, 6, 8]);
    expect(cancelled.every((x) => x.outputTokens >= 8 && x.outputTokens < 64)).toBe(true);
    const read = cancelled.reduce((a, x) => a + x.outputTokens, 0);
    expect(level.cancelled).toEqual({ requests: 4, afterMs: 0, afterTokens: 4, beforeFirstToken: 0, outputTokens: read });
    // Throughput and the latencies are the four complete requests' alone.
    expect(level.outputTokensTotal).toBe(4 * 64);
    expect(level.outputTokens).toMatchObject({ min: 64, max: 64, short: 0 });
    // The server stopped soon after each close: far below the 4 × 64 more a server decoding on for closed sockets would generate
    // (it may write a few overdue steps before it hears the close: its late event loop emits them at once).
    const generated = level.serverTruth?.generatedTokens ?? null;
    expect(generated).not.toBeNull();
    expect(generated as number).toBeGreaterThanOrEqual(4 * 64 + read);
    expect(generated as number).toBeLessThan(4 * 64 + read + (4 * 64) / 2);
    expect(level.serverTruth?.comparison.find((c) => c.metric === 'generated-tokens')?.agrees).toBe(true);
    expect(r.stdout).toContain('Cancelled on purpose (neither success nor failure, in no latency or throughput figure), beside the server:');
    expect(r.stdout).toMatch(
      /4 streams: 4 of 8 requests cancelled by the client \(4 after the tokens; 0 before their first token\), \d+ tokens read before it; the server generated \d+ tokens/,
    );
  });

  it('refuses a share without a point, a share above 1, a point past its limit or at 0, and embeddings, naming the flag', async () => {
    const base = ['sweep', '--url', sim.url, '--levels', '1'];
    const accepted = sim.stats().accepted;
    const refusals: Array<[string[], string]> = [
      [['--cancel-fraction', '0.5'], '--cancel-fraction: needs --cancel-after-ms or --cancel-after-tokens (when a request is given up)'],
      [['--cancel-after-ms', '100', '--cancel-fraction', '1.5'], "--cancel-fraction: '1.5' must be at most 1"],
      [['--cancel-after-tokens', '40000'], '--cancel-after-tokens: 40000 is above the limit of 32768 output tokens per request'],
      [['--cancel-after-ms', '0'], "--cancel-after-ms: '0' must be greater than 0"],
      [['--endpoint', 'embeddings', '--cancel-after-ms', '100'], '--cancel-after-ms: does not apply to --endpoint embeddings'],
      // Before: accepted, and the run reported no request cancelled.
      [
        ['--cancel-after-ms', '900000'],
        "cancel.afterMs: 900000 is not below a request's total timeout (600000 ms): each would fail as timed out before it is given up",
      ],
      [
        ['--output-tokens', '64', '--cancel-after-tokens', '64'],
        'cancel.afterTokens: 64 is not below the output tokens (64): every request ends there before it would be cut',
      ],
    ];
    for (const [flags, message] of refusals) {
      const r = await cli([...base, ...flags]);
      expect(r.code, flags.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect(sim.stats().accepted).toBe(accepted);
  });
});
