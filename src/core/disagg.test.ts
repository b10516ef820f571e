import { describe, expect, it } from 'vitest';
import { rec } from '../test-support/records.js';
import { type DisaggRoleLevel, type KvTransfer, type TtftSplit, disaggLevelSchema } from './disagg-schema.js';
import { type RoleScrapes, describeKvTransfer, describeRole, describeTtftSplit, disaggFromRecords, disaggLevel, measuredWindowMs } from './disagg.js';
import { discoverMetrics } from './metric-discovery.js';
import { parsePrometheusText } from './prometheus-text.js';

const l = 'model_name="m"';
const text = (series: Record<string, number>) =>
  parsePrometheusText(
    Object.entries(series)
      .map(([k, v]) => `${k.includes('{') ? k : `${k}{${l}}`} ${v}`)
      .join('\n'),
  );

/** A pool's endpoint, its two scrapes around the level. */
function pool(role: RoleScrapes['role'], gpus: number | null, before: Record<string, number>, after: Record<string, number>): RoleScrapes {
  const a = text(after);
  return { role, url: `http://${role}:8000/metrics`, gpus, map: discoverMetrics(a, 'vllm'), scrapes: { before: text(before), after: a, readings: [] } };
}

const prefill = pool(
  'prefill',
  2,
  {
    'vllm:prompt_tokens_total': 1000,
    'vllm:request_success_total': 10,
    'vllm:request_queue_time_seconds_sum': 1,
    'vllm:request_queue_time_seconds_count': 10,
    'vllm:request_prefill_time_seconds_sum': 2,
    'vllm:request_prefill_time_seconds_count': 10,
  },
  {
    'vllm:prompt_tokens_total': 5000,
    'vllm:request_success_total': 12,
    'vllm:request_queue_time_seconds_sum': 1.5,
    'vllm:request_queue_time_seconds_count': 12,
    'vllm:request_prefill_time_seconds_sum': 2.5,
    'vllm:request_prefill_time_seconds_count': 12,
  },
);
const nixl = (bytes: number, n: number, seconds: number) => ({
  'vllm:nixl_bytes_transferred_sum': bytes,
  'vllm:nixl_bytes_transferred_count': n,
  'vllm:nixl_xfer_time_seconds_sum': seconds,
  'vllm:nixl_xfer_time_seconds_count': n,
  'vllm:nixl_num_failed_transfers_total': 0,
});
const decode = pool(
  'decode',
  6,
  { 'vllm:generation_tokens_total': 0, 'vllm:request_success_total': 0, ...nixl(0, 0, 0) },
  { 'vllm:generation_tokens_total': 6000, 'vllm:request_success_total': 2, ...nixl(250_000_000, 2, 0.25) },
);
const router: RoleScrapes = {
  ...pool('router', null, {}, { 'vllm:request_success_total': 1 }),
  scrapes: { error: 'the scrape after the level failed: HTTP 500' },
};

// Two measured requests sent at 0, first tokens at 100 and 140 ms, the last ending at 2 s; a warm-up before, outside the window.
const records = [
  rec({ sendMs: 0, chunksMs: [100, 200], endMs: 1000 }),
  rec({ sendMs: 0, chunksMs: [140, 240], endMs: 2000 }),
  rec({ sendMs: -500, chunksMs: [-400], endMs: -100, warmup: true }),
];

describe('a disaggregated server over one level', () => {
  it("gives each pool's own figures over the measured window, per GPU where its GPUs were declared", () => {
    expect(measuredWindowMs(records)).toBe(2000);
    const { disagg, problem } = disaggLevel([prefill, decode, router], records, null);
    expect(problem).toBeNull();
    expect(disagg.windowMs).toBe(2000);
    const [p, d, r] = disagg.roles;
    // 4,000 prompt tokens in 2 s over 2 GPUs; 2 requests queued 250 ms in all and prefilled 500 ms in all.
    expect(p).toMatchObject({ role: 'prefill', gpus: 2, requests: 2, promptTokens: 4000, promptTokensPerS: 2000, promptTokensPerSPerGpu: 1000, error: null });
    expect(p?.queueMeanMs).toBeCloseTo(250, 9);
    expect(p?.prefillMeanMs).toBeCloseTo(250, 9);
    expect(d).toMatchObject({ role: 'decode', gpus: 6, generatedTokens: 6000, generatedTokensPerS: 3000, generatedTokensPerSPerGpu: 500 });
    expect(r).toMatchObject({ role: 'router', requests: null, promptTokensPerS: null, error: 'the scrape after the level failed: HTTP 500' });
    expect(describeRole(p as never)).toBe('prefill (2 GPUs): 2,000 prompt tok/s (1,000 per GPU), 2 requests, queue 250.0 ms, prefill 250.0 ms');
    expect(describeRole(d as never)).toBe('decode (6 GPUs): 3,000 generated tok/s (500 per GPU), 2 requests');
    expect(describeRole(r as never)).toBe('router: no figures: the scrape after the level failed: HTTP 500');
    expect(disaggLevelSchema.safeParse(disagg).success).toBe(true);
  });

  it("reads the KV moved from vLLM's NIXL histograms on the decode pool, and splits our TTFT into the pools' parts", () => {
    const { disagg } = disaggLevel([prefill, decode], records, 400);
    // 250 MB = 2 Gbit: 1 Gbit/s over the 2 s window, 8 Gbit/s over the 0.25 s the two transfers took.
    expect(disagg.kvTransfer).toEqual({
      source: 'vllm-nixl',
      role: 'decode',
      bytes: 250_000_000,
      transfers: 2,
      seconds: 0.25,
      meanTransferMs: 125,
      failed: 0,
      levelGbps: 1,
      transferGbps: 8,
      linkGbps: 400,
    });
    expect(describeKvTransfer(disagg.kvTransfer as never)).toBe(
      'KV 250.00 MB in 2 transfers (mean 125.0 ms), 1.00 Gbit/s over the level, 8.00 Gbit/s while transferring; link 400 Gbit/s (vllm-nixl, decode pool)',
    );
    // Ours: (100 + 140) / 2 = 120 ms, against queue 250 + prefill 250 + transfer 125: the parts exceed it, so other is negative and says so.
    expect(disagg.ttftSplit?.ttftMs).toBe(120);
    expect(disagg.ttftSplit?.transferMs).toBe(125);
    expect(disagg.ttftSplit?.otherMs).toBeCloseTo(120 - 625, 9);
    expect(describeTtftSplit(disagg.ttftSplit as never)).toBe('TTFT 120.0 ms = queue 250.0 ms + prefill 250.0 ms + transfer 125.0 ms + other -505.0 ms');
  });

  it('is rebuilt from its records: the window, every rate, per GPU and the split worked out again, the counters carried', () => {
    const { disagg } = disaggLevel([prefill, decode, router], records, 400);
    expect(disaggFromRecords(disagg, records)).toEqual(disagg);
    const [p, d, r] = disagg.roles as [DisaggRoleLevel, DisaggRoleLevel, DisaggRoleLevel];
    const kv = disagg.kvTransfer as KvTransfer;
    const split = disagg.ttftSplit as TtftSplit;
    // Every figure a forger would edit: the window, the rates, the KV rates, our TTFT and what is left of it.
    const edited = {
      windowMs: 1000,
      roles: [{ ...p, promptTokensPerS: 4000, promptTokensPerSPerGpu: 2000 }, { ...d, generatedTokensPerSPerGpu: 1 }, r],
      kvTransfer: { ...kv, levelGbps: 2, transferGbps: 1 },
      ttftSplit: { ...split, ttftMs: 60, otherMs: 0 },
    };
    expect(disaggFromRecords(edited, records)).toEqual(disagg);
    // The pools' counters are not in the records: a count edited stays, and the rate follows it.
    const counted = disaggFromRecords({ ...disagg, roles: [{ ...p, promptTokens: 8000 }, d, r] }, records);
    expect(counted.roles[0]).toMatchObject({ promptTokens: 8000, promptTokensPerS: 4000, promptTokensPerSPerGpu: 2000 });
  });

  it('refuses a KV rate above the declared link as impossible, naming the figures', () => {
    const over = disaggLevel([prefill, decode], records, 4);
    expect(over.problem).toBe(
      'the KV transfer rate is impossible: 250000000 bytes reported by the decode pool (2.000 Gbit in 0.2500 s of summed transfer time is 8.000 Gbit/s), above the declared link bandwidth of 4.000 Gbit/s (--kv-link-gbps)',
    );
    const both = disaggLevel([prefill, decode], records, 0.5);
    expect(both.problem).toBe(
      'the KV transfer rate is impossible: 250000000 bytes reported by the decode pool (2.000 Gbit in the 2.000 s measured window is 1.000 Gbit/s; 2.000 Gbit in 0.2500 s of summed transfer time is 8.000 Gbit/s), above the declared link bandwidth of 0.5000 Gbit/s (--kv-link-gbps)',
    );
    // A file stating such a level is refused where it is read, whatever rates it states: they are worked out again.
    const forged = { ...both.disagg, kvTransfer: { ...(both.disagg.kvTransfer as object), levelGbps: 0.1, transferGbps: 0.1 } };
    const read = disaggLevelSchema.safeParse(forged);
    expect(read.success).toBe(false);
    expect(read.error?.issues[0]?.message).toBe(both.problem);
    expect(read.error?.issues[0]?.path).toEqual(['kvTransfer', 'levelGbps']);
  });

  it('refuses bytes moved in no transfer time at all, whatever the window allows', () => {
    // Before: 0 s of transfer time gave no rate to check, so 2 Gbit moved "in no time" passed a 100 Gbit/s link.
    const instant = pool(
      'decode',
      6,
      { 'vllm:generation_tokens_total': 0, ...nixl(0, 0, 0) },
      { 'vllm:generation_tokens_total': 6000, ...nixl(250_000_000, 2, 0) },
    );
    const out = disaggLevel([prefill, instant], records, 100);
    expect(out.problem).toBe(
      'the KV transfer rate is impossible: 250000000 bytes reported by the decode pool (2.000 Gbit in 0 s of summed transfer time), above the declared link bandwidth of 100.0 Gbit/s (--kv-link-gbps)',
    );
    expect(disaggLevelSchema.safeParse(out.disagg).error?.issues[0]?.message).toBe(out.problem);
    // Without a declared link there is nothing to check against.
    expect(disaggLevel([prefill, instant], records, null).problem).toBeNull();
  });

  it('takes no figure from a pool that states its counters as +Inf or NaN, and the level still reads back', () => {
    const hostile = parsePrometheusText(
      [
        `vllm:generation_tokens_total{${l}} +Inf`,
        `vllm:request_success_total{${l}} NaN`,
        `vllm:nixl_bytes_transferred_sum{${l}} +Inf`,
        `vllm:nixl_bytes_transferred_count{${l}} 2`,
        `vllm:nixl_xfer_time_seconds_sum{${l}} 0.25`,
        `vllm:nixl_xfer_time_seconds_count{${l}} 2`,
      ].join('\n'),
    );
    const before = text({ 'vllm:generation_tokens_total': 0, 'vllm:request_success_total': 0, ...nixl(0, 0, 0) });
    const decodePool: RoleScrapes = { ...decode, map: discoverMetrics(before, 'vllm'), scrapes: { before, after: hostile, readings: [] } };
    const out = disaggLevel([prefill, decodePool], records, 100);
    expect(out.problem).toBeNull();
    expect(out.disagg.kvTransfer).toBeNull();
    expect(out.disagg.roles[1]).toMatchObject({ role: 'decode', generatedTokens: null, generatedTokensPerS: null, requests: null });
    // Before: +Inf − 0 made the generated tokens Infinity, which no result file can hold.
    expect(disaggLevelSchema.safeParse(JSON.parse(JSON.stringify(out.disagg))).success).toBe(true);
    expect(disaggLevelSchema.safeParse(out.disagg).success).toBe(true);
  });

  it("reads SGLang's transfer-latency histogram (time only, no bytes: no rate to check)", () => {
    const sglang = pool(
      'decode',
      null,
      { 'sglang:kv_transfer_latency_ms_sum': 0, 'sglang:kv_transfer_latency_ms_count': 0 },
      { 'sglang:kv_transfer_latency_ms_sum': 30, 'sglang:kv_transfer_latency_ms_count': 3 },
    );
    const { disagg, problem } = disaggLevel([sglang], records, 1);
    expect(problem).toBeNull();
    expect(disagg.kvTransfer).toMatchObject({ source: 'sglang', bytes: null, transfers: 3, seconds: 0.03, meanTransferMs: 10, levelGbps: null });
    // No prefill pool: the split has the transfer alone, and no remainder.
    expect(disagg.ttftSplit).toEqual({ ttftMs: 120, queueMs: null, prefillMs: null, transferMs: 10, otherMs: null });
  });

  it('has no KV transfer or split where no pool reports one, and a counter gone backwards is no transfer', () => {
    const reset = pool('decode', null, nixl(500, 5, 1), nixl(100, 1, 0.5));
    const { disagg } = disaggLevel([reset], records, 1);
    expect(disagg.kvTransfer).toBeNull();
    expect(disagg.ttftSplit).toBeNull();
  });
});
