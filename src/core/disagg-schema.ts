/**
 * Result-schema part for a disaggregated server's level: the figures of each
 * pool whose metrics endpoint was given with a role (prefill, decode, router),
 * the KV cache moved between the pools with its rate, and the time to first
 * token split into the parts the engine reports. Optional on the level, so
 * results written before it existed still validate. A stated KV rate above the
 * stated link bandwidth is refused as impossible wherever a level is read.
 */
import { z } from 'zod';
import { LIMITS, limitMessage } from './limits.js';
import { gaugeStatsSchema } from './telemetry-schema.js';

/** The roles a metrics endpoint can be given (`--metrics-url ROLE=URL`). */
export const DISAGG_ROLES = ['prefill', 'decode', 'router'] as const;
export type DisaggRole = (typeof DISAGG_ROLES)[number];

const figure = z.number().nonnegative().nullable();

/** One pool's figures over the level, from the differences of its counters and histograms. */
export const disaggRoleSchema = z.object({
  role: z.enum(DISAGG_ROLES),
  metricsUrl: z.string(),
  family: z.string().nullable(),
  /** GPUs in the pool as declared (`--pool-gpus`); null when not declared: no per-GPU figure then. */
  gpus: z
    .number()
    .int()
    .positive()
    .max(LIMITS.poolGpus.max, { error: (i) => limitMessage('poolGpus', Number(i.input), 'disagg.roles[].gpus') })
    .nullable(),
  requests: figure,
  promptTokens: figure,
  generatedTokens: figure,
  /** Prompt tokens the pool processed per second of the level's measured window, and per GPU of the pool. */
  promptTokensPerS: figure,
  promptTokensPerSPerGpu: figure,
  /** Tokens the pool generated per second of the window, and per GPU. */
  generatedTokensPerS: figure,
  generatedTokensPerSPerGpu: figure,
  /** Mean time a request waited in the pool's queue, ms (vLLM `request_queue_time_seconds`). */
  queueMeanMs: figure,
  /** Mean time a request spent in prefill in the pool, ms (vLLM `request_prefill_time_seconds`). */
  prefillMeanMs: figure,
  ttftMeanMs: figure,
  /** Requests waiting in the pool's queue, sampled during the level. */
  waiting: gaugeStatsSchema.nullable(),
  /** Counter resets, histograms without observations. */
  notes: z.array(z.string()),
  /** Why the pool has no figures for the level (its scrape failed); null when it has them. */
  error: z.string().nullable(),
});

/** The KV cache moved between the pools over the level, from the engine's transfer counters. */
export const kvTransferSchema = z.object({
  /** vLLM's NIXL connector histograms (`vllm:nixl_*`), or SGLang's transfer-latency histogram (time only). */
  source: z.enum(['vllm-nixl', 'sglang']),
  /** The endpoint that reported it. */
  role: z.enum(DISAGG_ROLES),
  bytes: figure,
  transfers: figure,
  /** The transfers' durations summed, s. */
  seconds: figure,
  meanTransferMs: figure,
  failed: figure,
  /** Bits moved over the level's measured window, Gbit/s. */
  levelGbps: figure,
  /** Bits moved over the summed transfer time, Gbit/s: the rate while transferring. */
  transferGbps: figure,
  /** The link bandwidth declared (`--kv-link-gbps`), Gbit/s; null when none was: no physics check. */
  linkGbps: z
    .number()
    .positive()
    .max(LIMITS.kvLinkGbps.max, { error: (i) => limitMessage('kvLinkGbps', Number(i.input), 'disagg.kvTransfer.linkGbps') })
    .nullable(),
});

/** The mean time to first token split into the parts the pools report; a part they do not report is null. */
export const ttftSplitSchema = z.object({
  /** Our mean TTFT over the level's successful measured requests, ms. */
  ttftMs: figure,
  /** Waiting in the prefill pool's queue. */
  queueMs: figure,
  /** Computing the prompt in the prefill pool. */
  prefillMs: figure,
  /** Moving its KV cache to the decode pool (mean per transfer). */
  transferMs: figure,
  /** What is left of our TTFT (routing, the network, the first decode step); null unless every part is reported. */
  otherMs: z.number().nullable(),
});

/** Gbit/s of `bytes` moved in `seconds`; null without time. */
export const gbps = (bytes: number, seconds: number): number | null => (seconds > 0 ? (bytes * 8) / 1e9 / seconds : null);

/**
 * The physics of a KV transfer: bits moved in the level's window cannot exceed
 * what the declared link carries in it, and bits moved over the summed transfer
 * time cannot either (were the mean above the link, one transfer was). The rates
 * are worked out here from the bytes and times, not taken as stated. The
 * refusal names the figures; null when it holds or no link was declared.
 */
export function kvPhysicsProblem(kv: z.infer<typeof kvTransferSchema>, windowMs: number): string | null {
  if (kv.linkGbps === null || kv.bytes === null) return null;
  const link = kv.linkGbps;
  const gbit = (kv.bytes * 8) / 1e9;
  // A relative margin for the float arithmetic of a rate exactly at the link.
  const above = (rate: number | null): rate is number => rate !== null && rate > link * (1 + 1e-9);
  const inWindow = gbps(kv.bytes, windowMs / 1000);
  const inTransfers = kv.seconds === null ? null : gbps(kv.bytes, kv.seconds);
  const over: string[] = [];
  if (above(inWindow)) over.push(`${fmtBits(gbit)} in the ${fmtS(windowMs / 1000)} measured window is ${fmtGbps(inWindow)}`);
  if (above(inTransfers)) over.push(`${fmtBits(gbit)} in ${fmtS(kv.seconds as number)} of summed transfer time is ${fmtGbps(inTransfers)}`);
  // Bytes moved in no time at all: no link carries them (the rate has no finite value to compare).
  if (kv.seconds === 0 && kv.bytes > 0) over.push(`${fmtBits(gbit)} in 0 s of summed transfer time`);
  if (over.length === 0) return null;
  return `the KV transfer rate is impossible: ${kv.bytes} bytes reported by the ${kv.role} pool (${over.join('; ')}), above the declared link bandwidth of ${fmtGbps(link)} (--kv-link-gbps)`;
}

/** Four significant digits, never in exponent form: 0.2500, 10.00, 12,346. */
const sig = (x: number): string => (Math.abs(x) >= 1000 ? Math.round(x).toLocaleString('en-US') : x.toPrecision(4));
const fmtBits = (gbit: number): string => `${sig(gbit)} Gbit`;
const fmtS = (s: number): string => `${sig(s)} s`;
const fmtGbps = (g: number): string => `${sig(g)} Gbit/s`;

/** A disaggregated server's level. */
export const disaggLevelSchema = z
  .object({
    /** The level's measured window (first measured send to last measured end) the rates are over, ms. */
    windowMs: z.number().nonnegative(),
    roles: z.array(disaggRoleSchema).min(1).max(DISAGG_ROLES.length),
    kvTransfer: kvTransferSchema.nullable(),
    ttftSplit: ttftSplitSchema.nullable(),
  })
  .superRefine((d, ctx) => {
    const problem = d.kvTransfer === null ? null : kvPhysicsProblem(d.kvTransfer, d.windowMs);
    if (problem !== null) ctx.addIssue({ code: 'custom', path: ['kvTransfer', 'levelGbps'], message: problem });
  });

export type DisaggRoleLevel = z.infer<typeof disaggRoleSchema>;
export type KvTransfer = z.infer<typeof kvTransferSchema>;
export type TtftSplit = z.infer<typeof ttftSplitSchema>;
export type DisaggLevel = z.infer<typeof disaggLevelSchema>;

/** The pools a sweep scrapes (`--metrics-url ROLE=URL`, `--pool-gpus`, `--kv-link-gbps`): each role at most once. */
export const disaggSpecSchema = z
  .object({
    roles: z
      .array(
        z
          .object({
            role: z.enum(DISAGG_ROLES, { error: `a metrics endpoint's role must be one of ${DISAGG_ROLES.join(', ')}` }),
            url: z.url({ protocol: /^https?$/, error: "a role's metrics URL must be an http(s) URL" }),
            gpus: z
              .number()
              .int()
              .positive()
              .max(LIMITS.poolGpus.max, { error: (i) => limitMessage('poolGpus', Number(i.input), 'pool GPUs') })
              .nullable()
              .default(null),
          })
          .strict(),
      )
      .min(1)
      .max(DISAGG_ROLES.length)
      .refine((rs) => new Set(rs.map((r) => r.role)).size === rs.length, { error: 'each role has one metrics endpoint' }),
    kvLinkGbps: z
      .number()
      .positive()
      .max(LIMITS.kvLinkGbps.max, { error: (i) => limitMessage('kvLinkGbps', Number(i.input), 'kvLinkGbps') })
      .nullable()
      .default(null),
  })
  .strict();
export type DisaggSpec = z.output<typeof disaggSpecSchema>;
