/**
 * Per-request metrics as functions of a raw record (DESIGN.md "Metric definitions").
 * Each returns null when the record lacks the instants the metric needs.
 */
import type { RequestRecord } from './record.js';

const NS_PER_MS = 1e6;

/** Send → first chunk carrying generated text (reasoning or answer), ms. */
export function ttftMs(r: RequestRecord): number | null {
  return r.firstTokenNs === null ? null : (r.firstTokenNs - r.sendNs) / NS_PER_MS;
}

/** Send → first chunk carrying answer text (not reasoning), ms. Equals TTFT for a model that does not reason. */
export function ttfaMs(r: RequestRecord): number | null {
  return r.firstAnswerNs === null ? null : (r.firstAnswerNs - r.sendNs) / NS_PER_MS;
}

/** Send → first chunk carrying tool-call data (a function name or argument text), ms; null without a tool call. */
export function toolTtftMs(r: RequestRecord): number | null {
  const t = r.toolCalls?.firstNs ?? null;
  return t === null ? null : (t - r.sendNs) / NS_PER_MS;
}

/** First tool-call chunk → last chunk with argument text (the arguments complete), ms; null without arguments. */
export function toolArgumentsMs(r: RequestRecord): number | null {
  const c = r.toolCalls;
  return c === undefined || c.firstNs === null || c.argumentsDoneNs === null ? null : (c.argumentsDoneNs - c.firstNs) / NS_PER_MS;
}

/** Send → end of stream, ms. */
export function e2eMs(r: RequestRecord): number | null {
  return r.endNs === null ? null : (r.endNs - r.sendNs) / NS_PER_MS;
}

/**
 * Intended send → first generated text, ms: the TTFT a user whose request was
 * due at its scheduled time waits, our own send lag included. Open loops only
 * (a closed loop's intended send is the moment a slot freed).
 */
export function ttftFromScheduleMs(r: RequestRecord): number | null {
  return r.firstTokenNs === null ? null : (r.firstTokenNs - r.targetSendNs) / NS_PER_MS;
}

/** Intended send → end of stream, ms (open loops only, as ttftFromScheduleMs). */
export function e2eFromScheduleMs(r: RequestRecord): number | null {
  return r.endNs === null ? null : (r.endNs - r.targetSendNs) / NS_PER_MS;
}

/** How late we sent the request against its intended send time, ms (our own lag, not the server's). */
export function sendLagMs(r: RequestRecord): number {
  return (r.sendNs - r.targetSendNs) / NS_PER_MS;
}

/**
 * Tokens carried by each chunk. Exact when the server reported them; otherwise
 * the reported total is spread evenly over the chunks (a speculative decoder
 * that packs 4 tokens per chunk without saying so still yields per-token gaps).
 */
export function tokensPerChunk(r: RequestRecord): number[] {
  const n = r.chunkNs.length;
  if (r.chunkTokensExact || n === 0) return r.chunkTokens;
  const each = r.outputTokens / n;
  return new Array<number>(n).fill(each);
}

/**
 * Time per output token after the first chunk, ms:
 * (last token chunk − first token chunk) / (output tokens − tokens of the first chunk).
 * With one token in the first chunk this is the usual (n − 1) form; with a
 * multi-token first chunk it does not count tokens that arrived with the TTFT.
 * Needs at least two chunks and one token after the first chunk.
 */
export function tpotMs(r: RequestRecord): number | null {
  const n = r.chunkNs.length;
  if (n < 2) return null;
  const first = tokensPerChunk(r)[0] as number;
  const after = r.outputTokens - first;
  if (after <= 0) return null;
  return ((r.chunkNs[n - 1] as number) - (r.chunkNs[0] as number)) / NS_PER_MS / after;
}

/** Output tokens / e2e, tokens per second; null without an end or tokens. */
export function perRequestTokS(r: RequestRecord): number | null {
  const e2e = e2eMs(r);
  if (e2e === null || e2e <= 0 || r.outputTokens <= 0) return null;
  return r.outputTokens / (e2e / 1000);
}

/** Raw gaps between consecutive token-carrying chunks, ms (ICL: one entry per chunk gap). */
export function chunkGapsMs(r: RequestRecord, into: number[] = []): number[] {
  for (let i = 1; i < r.chunkNs.length; i++) into.push(((r.chunkNs[i] as number) - (r.chunkNs[i - 1] as number)) / NS_PER_MS);
  return into;
}

/**
 * Per-token inter-token latencies, ms: each chunk gap split evenly over the tokens
 * the later chunk carries, one entry per token (so a 4-token chunk after 40 ms
 * gives four entries of 10 ms). Fractional token estimates are rounded to whole entries.
 */
export function itlPerTokenMs(r: RequestRecord, into: number[] = []): number[] {
  const tokens = tokensPerChunk(r);
  for (let i = 1; i < r.chunkNs.length; i++) {
    const k = tokens[i] as number;
    if (k <= 0) continue;
    const share = ((r.chunkNs[i] as number) - (r.chunkNs[i - 1] as number)) / NS_PER_MS / k;
    const entries = Math.max(1, Math.round(k));
    for (let j = 0; j < entries; j++) into.push(share);
  }
  return into;
}
