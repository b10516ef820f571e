/**
 * Speculative decoding over one level. The engine's own figures come from two
 * scrapes around the level's measured requests: vLLM's counters
 * (`vllm/v1/spec_decode/metrics.py`, whose log line defines mean acceptance
 * length as 1 + accepted / drafts, the bonus token included, and per-position
 * acceptance as accepted at that position / drafts) are cumulative, so only their
 * differences belong to the level; SGLang's `spec_accept_length` is a gauge of
 * its last decode-log interval, read after the level. Our own estimate is the
 * mean tokens per streamed chunk after each request's first: a speculative
 * engine streams each verification step's accepted tokens plus the bonus token
 * as one chunk, so that mean is the acceptance length seen from the client.
 * TensorRT-LLM (`tensorrt_llm/metrics/collector.py`) counts draft and accepted
 * tokens, so its rate is the level's; it exports no count of verification
 * steps, so its acceptance length is its gauge of the last iteration, read
 * after the level.
 */
import { seriesList, seriesValue } from './prometheus-series.js';
import type { PromScrape } from './prometheus-text.js';
import { type RequestRecord, isOk } from './record.js';
import { tokensPerChunk } from './request-metrics.js';
import { LIMITS } from './limits.js';
import type { SpecDecode } from './telemetry-schema.js';

/** vLLM's speculative-decoding counters, as exposed (prometheus_client adds `_total`). */
export const VLLM_SPEC_DECODE = {
  drafts: 'vllm:spec_decode_num_drafts_total',
  draftTokens: 'vllm:spec_decode_num_draft_tokens_total',
  acceptedTokens: 'vllm:spec_decode_num_accepted_tokens_total',
  /** One series per draft position, labelled `position` from 0. */
  acceptedPerPos: 'vllm:spec_decode_num_accepted_tokens_per_pos_total',
} as const;

/** SGLang's gauge: mean tokens per verification step over its last decode-log interval (0 without speculative decoding). */
export const SGLANG_SPEC_ACCEPT_LENGTH = 'sglang:spec_accept_length';

/** TensorRT-LLM's (trtllm-serve, iteration stats on): draft and accepted draft tokens counted, acceptance length a gauge of the last iteration. */
export const TRTLLM_SPEC_DECODE = {
  draftTokens: 'trtllm_spec_decode_num_draft_tokens_total',
  acceptedTokens: 'trtllm_spec_decode_num_accepted_tokens_total',
  acceptanceLength: 'trtllm_spec_decode_acceptance_length',
} as const;

/** How far our tokens-per-chunk estimate may lie from the server's acceptance length, as a share of it. */
export const SPEC_DECODE_TOLERANCE = {
  /** Each request's last step is cut at its length and a chunk may be split (a tool call, a held-back stop string): a few percent. */
  relative: 0.05,
} as const;

/** The level's speculative-decoding figures and, when our estimate disagrees with the server's, the warning text. */
export interface SpecDecodeLevel {
  specDecode: SpecDecode;
  disagreement: string | null;
}

/** A counter's growth over the level; null when it is absent, not finite, or went backwards (a restart). */
const counterDelta = (before: PromScrape, after: PromScrape, name: string): number | null => {
  const a = seriesValue(before, name, { combine: 'sum' }) ?? 0;
  const b = seriesValue(after, name, { combine: 'sum' });
  return b === null || !Number.isFinite(a) || !Number.isFinite(b) || b < a ? null : b - a;
};

/** Accepted tokens per draft position over the level (position label from 0), summed over the other labels. */
function perPositionDelta(before: PromScrape, after: PromScrape): number[] {
  const byPos = (scrape: PromScrape): Map<number, number> => {
    const out = new Map<number, number>();
    for (const s of seriesList(scrape, VLLM_SPEC_DECODE.acceptedPerPos)) {
      const pos = Number(s.labels['position']);
      if (!Number.isInteger(pos) || pos < 0 || pos >= LIMITS.specDecodePositions.max || !Number.isFinite(s.value)) continue;
      out.set(pos, (out.get(pos) ?? 0) + s.value);
    }
    return out;
  };
  const a = byPos(before);
  const b = byPos(after);
  const positions = b.size === 0 ? 0 : Math.max(...b.keys()) + 1;
  return Array.from({ length: positions }, (_, i) => Math.max(0, (b.get(i) ?? 0) - (a.get(i) ?? 0)));
}

type ServerSpec = Omit<SpecDecode, 'client' | 'agrees'>;

/** The arithmetic of vLLM's counters over a level: 1 + accepted / drafts (the bonus token included) and accepted / draft tokens. */
export function countersFigures(c: NonNullable<SpecDecode['counters']>): Pick<SpecDecode, 'acceptanceLength' | 'acceptanceRate'> {
  return {
    acceptanceLength: 1 + c.acceptedTokens / c.drafts,
    acceptanceRate: c.draftTokens > 0 ? Math.min(1, c.acceptedTokens / c.draftTokens) : null,
  };
}

/** A gauge read after the level, when the engine reports one above 0 (0 means off); else null. */
function positiveGauge(after: PromScrape, name: string): number | null {
  const v = seriesValue(after, name, { combine: 'mean' });
  return v === null || !Number.isFinite(v) || !(v > 0) ? null : v;
}

/** TensorRT-LLM's figures: the rate from its counters over the level, the length from its last iteration's gauge; null without both. */
function trtllmSpec(before: PromScrape, after: PromScrape): ServerSpec | null {
  const draftTokens = counterDelta(before, after, TRTLLM_SPEC_DECODE.draftTokens);
  const length = positiveGauge(after, TRTLLM_SPEC_DECODE.acceptanceLength);
  if (draftTokens === null || !(draftTokens > 0) || length === null) return null;
  const accepted = counterDelta(before, after, TRTLLM_SPEC_DECODE.acceptedTokens) ?? 0;
  return { source: 'trtllm', acceptanceLength: length, acceptanceRate: Math.min(1, accepted / draftTokens), perPosition: [], counters: null };
}

/** The engine's figures for the level, or null when it reports no speculative decoding during it. */
function serverSpec(before: PromScrape, after: PromScrape): ServerSpec | null {
  const drafts = counterDelta(before, after, VLLM_SPEC_DECODE.drafts);
  if (drafts !== null && drafts > 0) {
    const counters = {
      drafts,
      draftTokens: counterDelta(before, after, VLLM_SPEC_DECODE.draftTokens) ?? 0,
      acceptedTokens: counterDelta(before, after, VLLM_SPEC_DECODE.acceptedTokens) ?? 0,
    };
    return {
      source: 'vllm-counters',
      ...countersFigures(counters),
      perPosition: perPositionDelta(before, after).map((n) => Math.min(1, n / drafts)),
      counters,
    };
  }
  const trtllm = trtllmSpec(before, after);
  if (trtllm !== null) return trtllm;
  const gauge = positiveGauge(after, SGLANG_SPEC_ACCEPT_LENGTH);
  if (gauge === null) return null;
  return { source: 'sglang-gauge', acceptanceLength: gauge, acceptanceRate: null, perPosition: [], counters: null };
}

/** Our estimate: tokens per content chunk after each measured, successful request's first chunk (the prefill's). */
export function clientTokensPerStep(records: readonly RequestRecord[]): SpecDecode['client'] {
  let tokens = 0;
  let chunks = 0;
  let exact = true;
  for (const r of records) {
    if (r.warmup || !isOk(r) || r.chunkNs.length < 2) continue;
    const perChunk = tokensPerChunk(r);
    for (let i = 1; i < perChunk.length; i++) tokens += perChunk[i] as number;
    chunks += perChunk.length - 1;
    exact &&= r.chunkTokensExact;
  }
  return chunks === 0 || !(tokens > 0) ? null : { tokensPerChunk: tokens / chunks, chunks, exact };
}

const fmt = (x: number): string => x.toFixed(2);

/** Where the server's acceptance length comes from, in words. */
const originOf = (s: ServerSpec): string =>
  s.counters !== null
    ? `1 + ${s.counters.acceptedTokens} accepted / ${s.counters.drafts} drafts`
    : s.source === 'trtllm'
      ? TRTLLM_SPEC_DECODE.acceptanceLength
      : SGLANG_SPEC_ACCEPT_LENGTH;

/** The server's figures beside our estimate from the records, and the disagreement past the tolerance in words. */
function withClient(server: ServerSpec, records: readonly RequestRecord[]): SpecDecodeLevel {
  const client = clientTokensPerStep(records);
  const allowed = SPEC_DECODE_TOLERANCE.relative * server.acceptanceLength;
  const agrees = client === null ? null : Math.abs(client.tokensPerChunk - server.acceptanceLength) <= allowed;
  const disagreement =
    client === null || agrees === true
      ? null
      : `acceptance length: server ${fmt(server.acceptanceLength)} (${originOf(server)}), ours ${fmt(client.tokensPerChunk)} tokens per chunk over ${client.chunks} chunks${client.exact ? '' : ' (chunk counts not reported by the server: spread evenly)'}; allowed ±${SPEC_DECODE_TOLERANCE.relative * 100}% (±${fmt(allowed)})`;
  return { specDecode: { ...server, client, agrees }, disagreement };
}

/**
 * The level's speculative decoding from the scrapes around it and its records; null when the
 * server reports none. A client estimate further than the tolerance from the server's
 * acceptance length is a disagreement, named with both figures.
 */
export function specDecodeLevel(before: PromScrape, after: PromScrape, records: readonly RequestRecord[]): SpecDecodeLevel | null {
  const server = serverSpec(before, after);
  return server === null ? null : withClient(server, records);
}

/**
 * A stated level's speculative decoding as its records give it: our estimate and its
 * agreement recomputed from the records, the length and rate from the stated counters
 * where there are any. The scrapes are not in the records, so the counters (and the
 * gauges, and the per-position shares) are the result's word.
 */
export function specDecodeFromRecords(stated: SpecDecode, records: readonly RequestRecord[]): SpecDecode {
  const { client: _client, agrees: _agrees, ...server } = stated;
  return withClient(server.counters === null ? server : { ...server, ...countersFigures(server.counters) }, records).specDecode;
}

/** "acceptance length 2.77 (rate 0.44; per position 0.70 0.49 0.34 0.24), ours 2.76 per chunk" for the notes. */
export function describeSpecDecode(s: SpecDecode): string {
  const detail: string[] = [];
  if (s.acceptanceRate !== null) detail.push(`rate ${fmt(s.acceptanceRate)}`);
  if (s.perPosition.length > 0) detail.push(`per position ${s.perPosition.map(fmt).join(' ')}`);
  if (s.source === 'sglang-gauge') detail.push(`SGLang's ${SGLANG_SPEC_ACCEPT_LENGTH}`);
  if (s.source === 'trtllm') detail.push(`TensorRT-LLM's ${TRTLLM_SPEC_DECODE.acceptanceLength}`);
  const server = `acceptance length ${fmt(s.acceptanceLength)}${detail.length > 0 ? ` (${detail.join('; ')})` : ''}`;
  if (s.client === null) return server;
  return `${server}, ours ${fmt(s.client.tokensPerChunk)} tokens per chunk${s.agrees === false ? ' (disagrees)' : ''}`;
}
