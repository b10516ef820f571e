import { afterEach, describe, expect, it } from 'vitest';
import { VLLM_NIXL, VLLM_PREFILL_TIME, parsePrometheusText, seriesValue } from '../core/index.js';
import { RoleMetrics } from './disagg-role.js';
import { simProfileSchema } from './profile-schema.js';
import { type SimServer, startSimulator } from './server.js';
import { applyFlags } from './sim-flags.js';

let sims: SimServer[] = [];
afterEach(async () => {
  await Promise.all(sims.map((s) => s.close()));
  sims = [];
});
const FAST = { prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0 };
const sum = (text: string, name: string) => seriesValue(parsePrometheusText(text), name, { combine: 'sum' });

describe("a simulator's part in a disaggregated server", () => {
  it("a decode pool's transfers take its one link in turn, bytes × 8 / the link each, counted in vLLM's NIXL histograms", () => {
    const m = new RoleMetrics(simProfileSchema.parse({ disagg: { role: 'decode', kvBytesPerToken: 1000, linkGbps: 8 } }).disagg as never);
    // 500 tokens × 1,000 bytes = 4 Mbit over 8 Gbit/s: 0.5 ms.
    expect(m.transfer(500, 10)).toBe(0.5);
    // Asked at the same moment, the next waits for the link: done 1.5 ms after the first, 2 ms after it was asked.
    expect(m.transfer(1500, 10)).toBe(2);
    // Asked once the link is free, it takes its own time only.
    expect(m.transfer(500, 100)).toBe(0.5);
    const text = m.render('model_name="m"').join('\n');
    expect(sum(text, `${VLLM_NIXL.bytes}_sum`)).toBe(2_500_000);
    expect(sum(text, `${VLLM_NIXL.bytes}_count`)).toBe(3);
    expect(sum(text, `${VLLM_NIXL.xferTime}_sum`)).toBeCloseTo(0.003, 12);
    expect(sum(text, VLLM_NIXL.failed)).toBe(0);
    expect(parsePrometheusText(text).badLines).toEqual([]);
    // A prefill pool reports its prefill time but no transfers; a router neither.
    const prefill = new RoleMetrics({ role: 'prefill', kvBytesPerToken: 1, linkGbps: 1 }).render('model_name="m"').join('\n');
    expect(prefill).toContain(`${VLLM_PREFILL_TIME}_count`);
    expect(prefill).not.toContain('nixl');
    expect(new RoleMetrics({ role: 'router', kvBytesPerToken: 1, linkGbps: 1, prefillUrl: 'http://p', decodeUrl: 'http://d' }).render('l="1"')).toEqual([]);
  });

  it('is set by --role, --prefill-url, --decode-url, --link-gbps and --kv-bytes-per-token; a router needs both pools and only it takes them', () => {
    const router = simProfileSchema.parse(
      applyFlags({}, { role: 'router', prefillUrl: 'http://127.0.0.1:8001', decodeUrl: 'http://127.0.0.1:8002', linkGbps: '25', kvBytesPerToken: '4096' }),
    );
    expect(router.disagg).toEqual({
      role: 'router',
      prefillUrl: 'http://127.0.0.1:8001',
      decodeUrl: 'http://127.0.0.1:8002',
      linkGbps: 25,
      kvBytesPerToken: 4096,
    });
    const message = 'a router needs prefillUrl and decodeUrl (--prefill-url, --decode-url), and only a router takes them';
    for (const bad of [
      { role: 'router', prefillUrl: 'http://p' },
      { role: 'decode', prefillUrl: 'http://p', decodeUrl: 'http://d' },
    ]) {
      const r = simProfileSchema.safeParse({ disagg: bad });
      expect(r.error?.issues[0]).toMatchObject({ path: ['disagg', 'role'], message });
    }
    // Without a role the profile is as it was before there were roles: its account hash is unchanged.
    expect('disagg' in simProfileSchema.parse({})).toBe(false);
    expect(simProfileSchema.parse({ disagg: { role: 'decode' } }).disagg).toEqual({ role: 'decode', kvBytesPerToken: 131_072, linkGbps: 100 });
  });

  it('a router sends each request to the prefill pool for one token, then to the decode pool, and passes its stream on', async () => {
    const prefill = await startSimulator({ ...FAST, port: 0, disagg: { role: 'prefill' } });
    const decode = await startSimulator({ ...FAST, port: 0, disagg: { role: 'decode', kvBytesPerToken: 1000 } });
    const router = await startSimulator({ ...FAST, port: 0, disagg: { role: 'router', prefillUrl: prefill.url, decodeUrl: decode.url } });
    sims.push(router, prefill, decode);
    const body = { model: 'goodput-sim-1', messages: [{ role: 'user', content: 'one two three four' }], max_tokens: 12, stream: true, ignore_eos: true };
    const res = await fetch(`${router.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = await res.text();
    expect(text.trim().endsWith('data: [DONE]')).toBe(true);
    const metrics = async (s: SimServer) => (await fetch(`${s.url}/metrics`)).text();
    const [p, d, r] = await Promise.all([metrics(prefill), metrics(decode), metrics(router)]);
    // The prefill pool generated its one token; the decode pool the twelve, after reading the prompt's KV.
    expect(sum(p, 'vllm:generation_tokens_total')).toBe(1);
    expect(sum(d, 'vllm:generation_tokens_total')).toBe(12);
    const prompt = sum(p, 'vllm:prompt_tokens_total') as number;
    expect(prompt).toBeGreaterThan(0);
    expect(sum(d, 'vllm:prompt_tokens_total')).toBe(prompt);
    expect(sum(d, `${VLLM_NIXL.bytes}_sum`)).toBe(prompt * 1000);
    // The router counts the request and when its bytes passed, and no tokens: it computes none.
    expect(sum(r, 'vllm:request_success_total')).toBe(1);
    expect(sum(r, 'vllm:time_to_first_token_seconds_count')).toBe(1);
    expect(r).not.toContain('vllm:generation_tokens');
  });
});
