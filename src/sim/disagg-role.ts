/**
 * A simulator's part in a disaggregated server (profile field `disagg`): a
 * prefill pool computes prompts and reports its prefill time; a decode pool
 * receives each prompt's KV cache over one link of `linkGbps` (transfers take it
 * in turn, so the link is never beaten) instead of computing it, and counts the transfers in vLLM's NIXL connector histograms
 * (`vllm:nixl_bytes_transferred`, `vllm:nixl_xfer_time_seconds`, observed where
 * the KV is read, as vLLM does); a router sends each request to the prefill pool
 * for one token, then to the decode pool, and streams the decode pool's answer
 * back (disagg-router.ts). Absent: a simulator as it was before there were roles.
 */
import { z } from 'zod';
import { Histogram, REQUEST_BUCKETS_S, promNumber } from './histogram.js';

export const SIM_ROLES = ['prefill', 'decode', 'router'] as const;
export type SimRole = (typeof SIM_ROLES)[number];

const url = z.url({ protocol: /^https?$/, error: 'an http(s) URL' });

/** The profile's `disagg` field. */
export const disaggProfileSchema = z
  .object({
    role: z.enum(SIM_ROLES),
    /** KV cache bytes per prompt token moved to the decode pool. Default 131,072 (Llama-3-8B in 16 bits: 2 × 32 layers × 8 KV heads × 128 × 2 bytes). */
    kvBytesPerToken: z.number().int().positive().max(1_000_000_000).default(131_072),
    /** The link the decode pool reads KV over, Gbit/s: a transfer takes bytes × 8 / this. Default 100. */
    linkGbps: z.number().positive().max(100_000).default(100),
    /** The router's pools: their base URLs (`http://host:port`). */
    prefillUrl: url.optional(),
    decodeUrl: url.optional(),
  })
  .strict()
  .refine((d) => (d.role === 'router') === (d.prefillUrl !== undefined && d.decodeUrl !== undefined), {
    path: ['role'],
    error: 'a router needs prefillUrl and decodeUrl (--prefill-url, --decode-url), and only a router takes them',
  });
export type DisaggProfile = z.infer<typeof disaggProfileSchema>;

/** vLLM's NIXL buckets: transfer durations (s), and bytes per transfer, 2 KiB to 8 GiB (`nixl/stats.py`). */
const XFER_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 5.0];
const BYTES_BUCKETS = Array.from({ length: 12 }, (_, i) => 2 ** (11 + 2 * i));

/** The metrics a role adds to `/metrics`, and the KV transfer of a decode pool. */
export class RoleMetrics {
  readonly prefillTime = new Histogram('vllm:request_prefill_time_seconds', 'Histogram of time spent in PREFILL phase for request.', REQUEST_BUCKETS_S);
  readonly xferTime = new Histogram('vllm:nixl_xfer_time_seconds', 'Histogram of transfer duration for NIXL KV Cache transfers.', XFER_BUCKETS_S);
  readonly bytes = new Histogram('vllm:nixl_bytes_transferred', 'Histogram of bytes transferred per NIXL KV Cache transfers.', BYTES_BUCKETS);

  /** When the link is free again, on the simulator's clock (ms). */
  private linkFreeAtMs = 0;

  constructor(readonly profile: DisaggProfile) {}

  get role(): SimRole {
    return this.profile.role;
  }

  /**
   * A decode pool's transfer of a prompt's KV asked at `nowMs`: it takes the link once the transfers before it are done,
   * for bytes × 8 ÷ linkGbps. Counted with its duration from the ask to its end (NIXL's from post to completion), which
   * is returned (ms) to be waited before the first token.
   */
  transfer(promptTokens: number, nowMs: number): number {
    const bytes = promptTokens * this.profile.kvBytesPerToken;
    const onLinkMs = ((bytes * 8) / (this.profile.linkGbps * 1e9)) * 1000;
    this.linkFreeAtMs = Math.max(nowMs, this.linkFreeAtMs) + onLinkMs;
    const ms = this.linkFreeAtMs - nowMs;
    this.bytes.observe(bytes);
    this.xferTime.observe(ms / 1000);
    return ms;
  }

  /** The role's series: prefill time where prompts are computed or received, and the NIXL histograms on a decode pool. */
  render(labels: string): string[] {
    if (this.role === 'router') return [];
    const out = [this.prefillTime.render(labels)];
    if (this.role === 'decode') {
      const failed = 'vllm:nixl_num_failed_transfers';
      out.push(this.xferTime.render(labels), this.bytes.render(labels));
      out.push(`# HELP ${failed}_total Number of failed NIXL KV Cache transfers.\n# TYPE ${failed} counter\n${failed}_total{${labels}} ${promNumber(0)}`);
    }
    return out;
  }
}
