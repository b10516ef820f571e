/**
 * A disaggregated server's level from the scrapes of each pool's metrics
 * endpoint around the level's measured requests (the same two scrapes the
 * single endpoint takes, one pair per role). Counters and histograms are
 * cumulative, so only their differences belong to the level; rates are over
 * the level's measured window (first measured send to last measured end).
 * KV transfer comes from vLLM's NIXL connector (`vllm/distributed/kv_transfer/
 * kv_connector/v1/nixl/stats.py`: bytes and duration histograms per transfer,
 * observed where the KV is read, the decode pool) or SGLang's transfer-latency
 * histogram; the time to first token is split into the prefill pool's queue and
 * prefill times and the mean transfer, where those are reported.
 */
import { type DisaggLevel, type DisaggRole, type DisaggRoleLevel, type KvTransfer, type TtftSplit, gbps, kvPhysicsProblem } from './disagg-schema.js';
import type { MetricMap } from './metric-discovery.js';
import { seriesValue } from './prometheus-series.js';
import type { PromScrape } from './prometheus-text.js';
import { type RequestRecord, inServerWindow, isOk } from './record.js';
import { ttftMs } from './request-metrics.js';
import { type GaugeReading, serverFigures } from './server-truth.js';

/** vLLM's NIXL connector metrics as exposed: two histograms per transfer and a counter of failures. */
export const VLLM_NIXL = {
  /** Bytes per transfer: `_sum` is the bytes moved, `_count` the transfers. */
  bytes: 'vllm:nixl_bytes_transferred',
  /** Duration per transfer, s. */
  xferTime: 'vllm:nixl_xfer_time_seconds',
  failed: 'vllm:nixl_num_failed_transfers_total',
} as const;
/** vLLM's time a request spent in prefill (`vllm/v1/metrics/loggers.py`), s. */
export const VLLM_PREFILL_TIME = 'vllm:request_prefill_time_seconds';
/** SGLang's KV transfer latency per request (a histogram in recent releases, a gauge before: only the histogram is read), ms. */
export const SGLANG_KV_LATENCY = 'sglang:kv_transfer_latency_ms';
export const SGLANG_KV_FAILED = 'sglang:num_transfer_failed_reqs_total';

/** One role's endpoint and what was scraped from it around the level, or why not. */
export interface RoleScrapes {
  role: DisaggRole;
  url: string;
  gpus: number | null;
  /** The names found at the endpoint; null when it could not be opened. */
  map: MetricMap | null;
  scrapes: { before: PromScrape; after: PromScrape; readings: readonly GaugeReading[] } | { error: string };
}

/** The level's figures per role, and the physics refusal when its KV rate exceeds the declared link. */
export interface DisaggOutcome {
  disagg: DisaggLevel;
  problem: string | null;
}

/** A counter's growth over the level; null when absent or gone backwards (a restart). */
function grew(before: PromScrape, after: PromScrape, name: string): number | null {
  const a = seriesValue(before, name, { combine: 'sum' }) ?? 0;
  const b = seriesValue(after, name, { combine: 'sum' });
  return b === null || !Number.isFinite(a) || !Number.isFinite(b) || b < a ? null : b - a;
}

/** A histogram's growth over the level: its sum and count; null when absent or reset. */
function histogram(before: PromScrape, after: PromScrape, name: string): { sum: number; count: number } | null {
  const sum = grew(before, after, `${name}_sum`);
  const count = grew(before, after, `${name}_count`);
  return sum === null || count === null ? null : { sum, count };
}

const meanMs = (h: { sum: number; count: number } | null, toMs: number): number | null => (h === null || h.count === 0 ? null : (h.sum / h.count) * toMs);

/** The level's measured window on the client's clock, ms: first measured send to last measured end; null without measured requests. */
export function measuredSpanMs(
  records: readonly RequestRecord[],
  keep: (r: RequestRecord) => boolean = (r) => !r.warmup,
): { startMs: number; endMs: number } | null {
  const measured = records.filter(keep);
  if (measured.length === 0) return null;
  const startNs = Math.min(...measured.map((r) => r.sendNs));
  const endNs = Math.max(...measured.map((r) => r.endNs ?? r.headersNs ?? r.sendNs));
  return { startMs: startNs / 1e6, endMs: endNs / 1e6 };
}

/** The length of the level's measured window, ms (0 without measured requests). */
export function measuredWindowMs(records: readonly RequestRecord[], keep?: (r: RequestRecord) => boolean): number {
  const span = measuredSpanMs(records, keep);
  return span === null ? 0 : Math.max(0, span.endMs - span.startMs);
}

function roleLevel(r: RoleScrapes, windowS: number): DisaggRoleLevel {
  const base = { role: r.role, metricsUrl: r.url, family: r.map?.family ?? null, gpus: r.gpus };
  const none = { requests: null, promptTokens: null, generatedTokens: null, queueMeanMs: null, prefillMeanMs: null, ttftMeanMs: null };
  const rates = { promptTokensPerS: null, promptTokensPerSPerGpu: null, generatedTokensPerS: null, generatedTokensPerSPerGpu: null };
  if ('error' in r.scrapes || r.map === null)
    return { ...base, ...none, ...rates, waiting: null, notes: [], error: 'error' in r.scrapes ? r.scrapes.error : 'not opened' };
  const { before, after, readings } = r.scrapes;
  const f = serverFigures(before, after, r.map, readings);
  const perS = (n: number | null): number | null => (n === null || windowS <= 0 ? null : n / windowS);
  const perGpu = (x: number | null): number | null => (x === null || r.gpus === null ? null : x / r.gpus);
  const promptTokensPerS = perS(f.promptTokens);
  const generatedTokensPerS = perS(f.generatedTokens);
  return {
    ...base,
    requests: f.requests,
    promptTokens: f.promptTokens,
    generatedTokens: f.generatedTokens,
    promptTokensPerS,
    promptTokensPerSPerGpu: perGpu(promptTokensPerS),
    generatedTokensPerS,
    generatedTokensPerSPerGpu: perGpu(generatedTokensPerS),
    queueMeanMs: f.queueMeanMs,
    prefillMeanMs: meanMs(histogram(before, after, VLLM_PREFILL_TIME), 1000),
    ttftMeanMs: f.ttftMeanMs,
    waiting: f.waiting,
    notes: f.notes,
    error: null,
  };
}

/** Where the KV transfer is read first: vLLM observes it where the KV is read (the decode pool). */
const KV_ORDER: readonly DisaggRole[] = ['decode', 'prefill', 'router'];

/** The KV moved over the level, from the first role (decode first) whose endpoint reports transfers during it. */
function kvTransfer(roles: readonly RoleScrapes[], windowS: number, linkGbps: number | null): KvTransfer | null {
  for (const role of KV_ORDER) {
    const r = roles.find((x) => x.role === role);
    if (r === undefined || 'error' in r.scrapes) continue;
    const { before, after } = r.scrapes;
    const bytes = histogram(before, after, VLLM_NIXL.bytes);
    if (bytes !== null && bytes.count > 0) {
      const time = histogram(before, after, VLLM_NIXL.xferTime);
      return {
        source: 'vllm-nixl',
        role,
        bytes: bytes.sum,
        transfers: bytes.count,
        seconds: time?.sum ?? null,
        meanTransferMs: meanMs(time, 1000),
        failed: grew(before, after, VLLM_NIXL.failed),
        levelGbps: gbps(bytes.sum, windowS),
        transferGbps: time === null ? null : gbps(bytes.sum, time.sum),
        linkGbps,
      };
    }
    const latency = histogram(before, after, SGLANG_KV_LATENCY);
    if (latency !== null && latency.count > 0) {
      return {
        source: 'sglang',
        role,
        bytes: null,
        transfers: latency.count,
        seconds: latency.sum / 1000,
        meanTransferMs: latency.sum / latency.count,
        failed: grew(before, after, SGLANG_KV_FAILED),
        levelGbps: null,
        transferGbps: null,
        linkGbps,
      };
    }
  }
  return null;
}

/** Our mean TTFT beside the prefill pool's queue and prefill times and the mean transfer; null when none of the parts is reported. */
function ttftSplit(rows: readonly DisaggRoleLevel[], kv: KvTransfer | null, records: readonly RequestRecord[]): TtftSplit | null {
  const prefill = rows.find((r) => r.role === 'prefill' && r.error === null);
  const parts = { queueMs: prefill?.queueMeanMs ?? null, prefillMs: prefill?.prefillMeanMs ?? null, transferMs: kv?.meanTransferMs ?? null };
  if (parts.queueMs === null && parts.prefillMs === null && parts.transferMs === null) return null;
  const ours = records.filter((r) => inServerWindow(r) && isOk(r)).map(ttftMs);
  const known = ours.filter((t): t is number => t !== null);
  const ttft = known.length === 0 ? null : known.reduce((a, t) => a + t, 0) / known.length;
  const whole = parts.queueMs !== null && parts.prefillMs !== null && parts.transferMs !== null;
  const otherMs = ttft === null || !whole ? null : ttft - (parts.queueMs as number) - (parts.prefillMs as number) - (parts.transferMs as number);
  return { ttftMs: ttft, ...parts, otherMs };
}

/** The level's per-role figures, KV transfer and TTFT split, with the refusal when the KV rate is impossible for the declared link. */
export function disaggLevel(roles: readonly RoleScrapes[], records: readonly RequestRecord[], linkGbps: number | null): DisaggOutcome {
  // The pools' counters saw a timed level's ramp requests too: their rates are over the window that holds them.
  const windowMs = measuredWindowMs(records, inServerWindow);
  const windowS = windowMs / 1000;
  const rows = roles.map((r) => roleLevel(r, windowS));
  const kv = kvTransfer(roles, windowS, linkGbps);
  const disagg: DisaggLevel = { windowMs, roles: rows, kvTransfer: kv, ttftSplit: ttftSplit(rows, kv, records) };
  return { disagg, problem: kv === null ? null : kvPhysicsProblem(kv, windowMs) };
}

/**
 * A stated disaggregated level rebuilt from its records: the measured window, each pool's rates (its counters
 * ÷ the window, ÷ its GPUs), the KV rates (the bytes ÷ the window and ÷ the summed transfer time) and our TTFT
 * with what is left of it. The pools' counters, means and transfer histograms are not in the records: they are
 * carried as stated, and only the arithmetic on them is redone, as the run did it.
 */
export function disaggFromRecords(stated: DisaggLevel, records: readonly RequestRecord[]): DisaggLevel {
  const windowMs = measuredWindowMs(records);
  const windowS = windowMs / 1000;
  const perS = (n: number | null): number | null => (n === null || windowS <= 0 ? null : n / windowS);
  const roles = stated.roles.map((r) => {
    if (r.error !== null) return r;
    const perGpu = (x: number | null): number | null => (x === null || r.gpus === null ? null : x / r.gpus);
    const promptTokensPerS = perS(r.promptTokens);
    const generatedTokensPerS = perS(r.generatedTokens);
    return {
      ...r,
      promptTokensPerS,
      promptTokensPerSPerGpu: perGpu(promptTokensPerS),
      generatedTokensPerS,
      generatedTokensPerSPerGpu: perGpu(generatedTokensPerS),
    };
  });
  const k = stated.kvTransfer;
  const kv =
    k === null || k.bytes === null ? k : { ...k, levelGbps: gbps(k.bytes, windowS), transferGbps: k.seconds === null ? null : gbps(k.bytes, k.seconds) };
  return { windowMs, roles, kvTransfer: kv, ttftSplit: ttftSplit(roles, kv, records) };
}

const n0 = (x: number | null, unit = ''): string => (x === null ? 'n/a' : `${Math.round(x).toLocaleString('en-US')}${unit}`);
const ms = (x: number | null): string => (x === null ? 'n/a' : `${x.toFixed(1)} ms`);

/** One role's line for the notes: "prefill (2 GPUs): 1,234 prompt tok/s (617 per GPU), queue 3.0 ms, prefill 12.0 ms". */
export function describeRole(r: DisaggRoleLevel): string {
  const head = `${r.role}${r.gpus === null ? '' : ` (${r.gpus} GPU${r.gpus === 1 ? '' : 's'})`}`;
  if (r.error !== null) return `${head}: no figures: ${r.error}`;
  const parts: string[] = [];
  const rate = (x: number | null, perGpu: number | null, what: string): void => {
    if (x !== null) parts.push(`${n0(x)} ${what} tok/s${perGpu === null ? '' : ` (${n0(perGpu)} per GPU)`}`);
  };
  if (r.role !== 'decode') rate(r.promptTokensPerS, r.promptTokensPerSPerGpu, 'prompt');
  if (r.role !== 'prefill') rate(r.generatedTokensPerS, r.generatedTokensPerSPerGpu, 'generated');
  if (r.requests !== null) parts.push(`${n0(r.requests)} requests`);
  if (r.queueMeanMs !== null) parts.push(`queue ${ms(r.queueMeanMs)}`);
  if (r.prefillMeanMs !== null) parts.push(`prefill ${ms(r.prefillMeanMs)}`);
  if (r.ttftMeanMs !== null) parts.push(`TTFT ${ms(r.ttftMeanMs)}`);
  return `${head}: ${parts.length === 0 ? 'no figures reported' : parts.join(', ')}`;
}

/** "KV 12.3 MB in 48 transfers (mean 2.1 ms), 0.52 Gbit/s over the level, 9.4 Gbit/s while transferring; link 100 Gbit/s". */
export function describeKvTransfer(kv: KvTransfer): string {
  const parts: string[] = [];
  if (kv.bytes !== null) parts.push(`${(kv.bytes / 1e6).toFixed(2)} MB`);
  if (kv.transfers !== null) parts.push(`in ${n0(kv.transfers)} transfers`);
  if (kv.meanTransferMs !== null) parts.push(`(mean ${ms(kv.meanTransferMs)})`);
  const rates: string[] = [];
  // Three significant digits, never in exponent form.
  const gb = (x: number): string => (x >= 100 ? n0(x) : x.toPrecision(3));
  if (kv.levelGbps !== null) rates.push(`${gb(kv.levelGbps)} Gbit/s over the level`);
  if (kv.transferGbps !== null) rates.push(`${gb(kv.transferGbps)} Gbit/s while transferring`);
  const failed = kv.failed !== null && kv.failed > 0 ? `; ${n0(kv.failed)} failed` : '';
  const link = kv.linkGbps === null ? '' : `; link ${kv.linkGbps} Gbit/s`;
  return `KV ${parts.join(' ')}${rates.length === 0 ? '' : `, ${rates.join(', ')}`}${failed}${link} (${kv.source}, ${kv.role} pool)`;
}

/** "TTFT 120.0 ms = queue 3.0 ms + prefill 40.0 ms + transfer 2.0 ms + other 75.0 ms". */
export function describeTtftSplit(s: TtftSplit): string {
  const parts = [`queue ${ms(s.queueMs)}`, `prefill ${ms(s.prefillMs)}`, `transfer ${ms(s.transferMs)}`];
  if (s.otherMs !== null) parts.push(`other ${ms(s.otherMs)}`);
  return `TTFT ${ms(s.ttftMs)} = ${parts.join(' + ')}`;
}
