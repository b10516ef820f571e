/** The performance model over real HTTP: prefix cache, batch and KV queueing, disconnects, GPU memory, /metrics. Its latencies have upper bounds too, so it runs in the sequential timing pass. */
import { describe, expect, it } from 'vitest';
import { useSimulators } from '../test-support/simulators.js';
import { streamPost, tokenEvents, type StreamResult } from '../test-support/sim-test-client.js';
import { wallClock } from '../test-support/wall-clock.js';

const MODEL = 'goodput-sim-1';
const sim = useSimulators({ prefillMsPerToken: 0, decodeMsPerExtraSeq: 0 });
const prompt = (n: number, tag = 'w') => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');
const body = (content: string, extra: Record<string, unknown> = {}) => ({
  model: MODEL,
  messages: [{ role: 'user', content }],
  stream: true,
  stream_options: { include_usage: true },
  ...extra,
});
const ttft = (r: StreamResult) => (tokenEvents(r)[0]?.atMs ?? Number.NaN) - r.sentMs;
const cached = (r: StreamResult) =>
  (r.events.at(-2)?.json?.['usage'] as { prompt_tokens_details: { cached_tokens: number } }).prompt_tokens_details.cached_tokens;
const metric = (text: string, name: string) => Number(new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, 'm').exec(text)?.[1]);

describe('prefix caching', () => {
  it('reuses the leading full blocks of a repeated prompt (shorter TTFT), but not across cache salts', async () => {
    const s = await sim({ prefillBaseMs: 5, prefillMsPerToken: 1, decodeStepMs: 1 });
    const p = prompt(100);
    const req = (extra = {}) => streamPost(s.url, '/v1/chat/completions', body(p, { max_tokens: 2, ignore_eos: true, ...extra }));
    const cold = await req();
    const warm = await req();
    expect(cached(cold)).toBe(0);
    expect(cached(warm)).toBe(96); // floor((100 - 1) / 16) blocks of 16: the last token is always computed
    expect(ttft(cold)).toBeGreaterThanOrEqual(104);
    wallClock(ttft(warm), 'warm TTFT (ms)').toBeLessThan(ttft(cold) - 60); // 5 + 4 ms of prefill instead of 105
    const salted = await req({ cache_salt: 'tenant-a' });
    expect(cached(salted)).toBe(0);
    expect(cached(await req({ cache_salt: 'tenant-a' }))).toBe(96);
    expect(cached(await req({ cache_salt: 'tenant-b' }))).toBe(0);
    const other = await streamPost(s.url, '/v1/chat/completions', body(`x ${p}`, { max_tokens: 2 }));
    expect(cached(other)).toBe(0); // a different first block changes every block's key
    const m = await (await fetch(`${s.url}/metrics`)).text();
    expect(metric(m, 'vllm:prefix_cache_hits_total')).toBe(192);
    expect(metric(m, 'vllm:prefix_cache_queries_total')).toBe(601);
  });

  it('never reports cached tokens with prefix caching off', async () => {
    const s = await sim({ prefillBaseMs: 1, decodeStepMs: 1, prefixCaching: false });
    await streamPost(s.url, '/v1/chat/completions', body(prompt(64), { max_tokens: 1 }));
    expect(cached(await streamPost(s.url, '/v1/chat/completions', body(prompt(64), { max_tokens: 1 })))).toBe(0);
  });
});

describe('queueing', () => {
  // One request lasts 20 ms of prefill + 9 steps of 5 ms = 65 ms.
  const forced = body('a b c d e', { max_tokens: 10, ignore_eos: true });

  it('queues the (maxBatch+1)-th request FIFO until a slot frees, one request duration later', { retry: 2 }, async () => {
    const s = await sim({ prefillBaseMs: 20, decodeStepMs: 5, maxBatch: 2 });
    const pending = [0, 1, 2].map(() => streamPost(s.url, '/v1/chat/completions', forced));
    // A failed check below ends the test (and its server) with these in flight: their resets must not surface as unhandled.
    for (const p of pending) p.catch(() => {});
    // All three arrived (bounded: 2 s), however late a loaded machine delivers them.
    for (let i = 0; i < 2000 && s.stats().running + s.stats().waiting < 3; i++) await new Promise((r) => setTimeout(r, 1));
    expect(s.stats()).toMatchObject({ running: 2, waiting: 1 });
    const results = await Promise.all(pending);
    wallClock(results.map(ttft).sort((a, b) => a - b)[1], 'second TTFT (ms)').toBeLessThan(40);
    // The third is admitted when the first one ends, so its first token comes one request duration after the first's.
    const firsts = results.map((r) => tokenEvents(r)[0]?.atMs ?? Number.NaN).sort((a, b) => a - b);
    expect((firsts[2] as number) - (firsts[0] as number)).toBeGreaterThan(65 - 5);
    wallClock((firsts[2] as number) - (firsts[0] as number), 'queued request start gap (ms)').toBeLessThan(65 + 15);
    const m = await (await fetch(`${s.url}/metrics`)).text();
    expect(metric(m, 'vllm:request_queue_time_seconds_sum')).toBeGreaterThan(0.04);
  });

  it('queues when the KV budget is full even though the batch has room, and models GPU memory from it', { retry: 2 }, async () => {
    // Each request reserves 5 prompt + 10 output = 15 tokens; 40 fit two.
    const s = await sim({ prefillBaseMs: 20, decodeStepMs: 5, kvCacheTokens: 40, gpu: { weightsMiB: 1000, kvMiBPerToken: 2 } });
    const pending = [0, 1, 2].map(() => streamPost(s.url, '/v1/chat/completions', forced));
    // A failed check below ends the test (and its server) with these in flight: their resets must not surface as unhandled.
    for (const p of pending) p.catch(() => {});
    // All three arrived (bounded: 2 s), however late a loaded machine delivers them.
    for (let i = 0; i < 2000 && s.stats().running + s.stats().waiting < 3; i++) await new Promise((r) => setTimeout(r, 1));
    expect(s.stats()).toMatchObject({ running: 2, waiting: 1, kvReservedTokens: 30 });
    expect(await (await fetch(`${s.url}/sim/gpu`)).json()).toEqual({ name: 'SimGPU 80GB', totalMiB: 81920, usedMiB: 1060 });
    const m = await (await fetch(`${s.url}/metrics`)).text();
    expect(metric(m, 'vllm:kv_cache_usage_perc')).toBeCloseTo(0.75, 5);
    expect(metric(m, 'vllm:num_requests_waiting')).toBe(1);
    const firsts = (await Promise.all(pending)).map((r) => tokenEvents(r)[0]?.atMs ?? Number.NaN).sort((a, b) => a - b);
    expect((firsts[2] as number) - (firsts[0] as number)).toBeGreaterThan(65 - 5);
    expect(((await (await fetch(`${s.url}/sim/gpu`)).json()) as { usedMiB: number }).usedMiB).toBe(1000);
  });

  it('frees the batch slot and KV reservation at once when a client disconnects', async () => {
    const s = await sim({ prefillBaseMs: 10, decodeStepMs: 5, maxBatch: 1 });
    const ctrl = new AbortController();
    const long = streamPost(s.url, '/v1/chat/completions', body('a', { max_tokens: 1000, ignore_eos: true }), {}, ctrl.signal).catch(() => null);
    await new Promise((r) => setTimeout(r, 30));
    expect(s.stats()).toMatchObject({ running: 1 });
    ctrl.abort();
    await long;
    await new Promise((r) => setTimeout(r, 20));
    expect(s.stats()).toMatchObject({ running: 0, waiting: 0, kvReservedTokens: 0, cancelled: 1 });
    const next = await streamPost(s.url, '/v1/chat/completions', body('a', { max_tokens: 2 }));
    wallClock(ttft(next), 'TTFT after a cancel (ms)').toBeLessThan(40);
  });
});

describe('batching slowdown', () => {
  it('re-evaluates the step time from the running batch at every step', async () => {
    const s = await sim({ prefillBaseMs: 5, decodeStepMs: 5, decodeMsPerExtraSeq: 5 });
    const forced = body('a', { max_tokens: 10, ignore_eos: true });
    await streamPost(s.url, '/v1/chat/completions', forced);
    expect(s.stats().meanTpotMs).toBeCloseTo(5, 6); // alone: 5 ms steps
    await Promise.all([0, 1, 2, 3].map(() => streamPost(s.url, '/v1/chat/completions', forced)));
    // Four running: 5 + 3 × 5 = 20 ms steps, fewer once the first ones finish.
    const meanOfFour = ((s.stats().meanTpotMs as number) * 5 - 5) / 4;
    expect(meanOfFour).toBeGreaterThan(15);
    expect(meanOfFour).toBeLessThanOrEqual(20);
  });
});

describe('/metrics', () => {
  it('reports vLLM metric names with model_name and the true timings', async () => {
    const s = await sim({ prefillBaseMs: 30, decodeStepMs: 5 });
    await Promise.all([0, 1, 2].map(() => streamPost(s.url, '/v1/chat/completions', body('a b c', { max_tokens: 5, ignore_eos: true }))));
    const m = await (await fetch(`${s.url}/metrics`)).text();
    for (const name of [
      'vllm:num_requests_running',
      'vllm:num_requests_waiting',
      'vllm:kv_cache_usage_perc',
      'vllm:prompt_tokens_total',
      'vllm:generation_tokens_total',
      'vllm:prefix_cache_queries_total',
      'vllm:prefix_cache_hits_total',
    ]) {
      expect(m).toMatch(new RegExp(`^${name}\\{model_name="${MODEL}"\\} `, 'm'));
    }
    expect(metric(m, 'vllm:prompt_tokens_total')).toBe(9);
    expect(metric(m, 'vllm:generation_tokens_total')).toBe(15);
    expect(m).toMatch(/^vllm:time_to_first_token_seconds_bucket\{model_name="goodput-sim-1",le="\+Inf"\} 3\.0$/m);
    const meanTtft = metric(m, 'vllm:time_to_first_token_seconds_sum') / metric(m, 'vllm:time_to_first_token_seconds_count');
    expect(meanTtft).toBeGreaterThanOrEqual(0.03);
    expect(meanTtft).toBeLessThan(0.04);
    expect(metric(m, 'vllm:inter_token_latency_seconds_count')).toBe(12);
    expect(metric(m, 'vllm:e2e_request_latency_seconds_count')).toBe(3);
    expect(m).toMatch(/^vllm:request_success_total\{finished_reason="length",model_name="goodput-sim-1"\} 3\.0$/m);
    expect(s.stats()).toMatchObject({ completed: 3 });
    // The model's own timings: exact but for binary error (30.000000000000075 was seen).
    expect(s.stats().meanTtftMs).toBeCloseTo(30, 9);
    expect(s.stats().meanTpotMs).toBeCloseTo(5, 9);
  });
});
