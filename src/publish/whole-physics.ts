/**
 * The physics of a whole-answer record (embeddings, rerank), beside the
 * checks every record gets (order of time, counts, in flight): what the server
 * counted against what was sent, how fast a request can be encoded, and how
 * long the records can last inside the run that made them.
 */
import { LIMITS } from '../core/index.js';
import { listed } from './record-physics.js';
import { type Refusal, refusal } from './refusal.js';

/** What a whole-answer record (embeddings, rerank) shows of its physics: its instants, outcome, items and the server's input count. */
export interface WholeRecordView {
  seq: number;
  concurrency: number;
  warmup: boolean;
  sentNs: number;
  endNs: number;
  outcome: { kind: string };
  items: number;
  inputTokens: number | null;
}

/** How a whole-answer run counted what it sent: tokens per item and per query, and whether by the server's own tokenizer. */
export interface WholeRunView {
  itemTokens: number;
  queryTokens: number | null;
  tokenizerExact: boolean;
  startedAt: string;
  endedAt: string;
  levels: number;
}

/** Tokens a server may add to each item beyond what was sent (special tokens, a pair's separators, a scoring template). */
export const ITEM_SPECIAL_TOKENS_MAX = 32;
/** A server's count may also exceed the sent one by this share (a tokenizer revision); it may not fall below half of it. */
const COUNT_SHARE_MAX = 0.25;
/** Wall time a run may spend outside its records: finding the model and engine, probing the route, counting lengths (s), plus per level (client threads, draining). */
export const SETUP_S_MAX = 5;
export const LEVEL_GAP_S_MAX = 1;

/** The server's input count against what was sent, counted by its own tokenizer; null when it agrees. */
function inputTokensProblem(r: WholeRecordView, run: WholeRunView): string | null {
  if (!run.tokenizerExact || r.inputTokens === null || r.outcome.kind !== 'ok') return null;
  const sent = r.items * (run.itemTokens + (run.queryTokens ?? 0));
  const most = Math.floor(sent * (1 + COUNT_SHARE_MAX)) + r.items * ITEM_SPECIAL_TOKENS_MAX;
  const fewest = Math.ceil(sent / 2);
  if (r.inputTokens <= most && r.inputTokens >= fewest) return null;
  return `states ${r.inputTokens} input tokens; its ${r.items} items were ${sent} tokens by the server's own tokenizer, so the server counts ${fewest} to ${most}`;
}

/** Tokens encoded faster than any request is encoded cannot have been measured. */
function encodeRateProblem(r: WholeRecordView): string | null {
  if (r.inputTokens === null || r.inputTokens === 0 || r.outcome.kind !== 'ok') return null;
  const spanNs = r.endNs - r.sentNs;
  const max = LIMITS.encodeTokS.max;
  if (spanNs > 0 && r.inputTokens / (spanNs / 1e9) <= max) return null;
  const rate = spanNs <= 0 ? 'at one instant' : `at ${Math.round(r.inputTokens / (spanNs / 1e9)).toLocaleString('en-US')} tok/s`;
  return `encodes ${r.inputTokens} input tokens ${rate}; no request is encoded faster than ${max.toLocaleString('en-US')} tok/s`;
}

/**
 * The run's records against its wall clock: they cannot last longer than the
 * run did, and the run cannot outlast them by more than its setup and level
 * gaps (a timeline compressed after the run leaves its wall time unexplained).
 */
function wallClockProblem(records: readonly WholeRecordView[], run: WholeRunView): string | null {
  const wallS = (Date.parse(run.endedAt) - Date.parse(run.startedAt)) / 1000;
  if (records.length === 0 || !Number.isFinite(wallS)) return null;
  const spanS = (Math.max(...records.map((r) => r.endNs)) - Math.min(...records.map((r) => r.sentNs))) / 1e9;
  // Wall instants are whole milliseconds; a monotonic span can read a little over them.
  if (spanS > wallS + 1) return `last ${spanS.toFixed(3)} s, but the run went from ${run.startedAt} to ${run.endedAt} (${wallS.toFixed(3)} s)`;
  const allowed = SETUP_S_MAX + LEVEL_GAP_S_MAX * run.levels;
  if (wallS - spanS > allowed)
    return `last ${spanS.toFixed(3)} s of a run that went from ${run.startedAt} to ${run.endedAt} (${wallS.toFixed(3)} s); setup and ${run.levels} level gaps account for at most ${allowed} s`;
  return null;
}

/**
 * Physics refusals for one whole-answer run (embeddings, rerank), beside the
 * checks its kind shares with text records: the server's input counts against
 * the tokens sent where the server's own tokenizer counted them, the encode rate
 * of each request, and the records' span against the run's wall clock.
 */
export function wholePhysicsRefusals(where: string, run: WholeRunView, records: readonly WholeRecordView[]): Refusal[] {
  const problems: Refusal[] = [];
  for (const r of records) {
    const at = `${where} records[c=${r.concurrency}] record seq ${r.seq}`;
    const tokens = inputTokensProblem(r, run);
    if (tokens !== null) problems.push(refusal('input-tokens', `${at}.inputTokens`, tokens));
    const rate = encodeRateProblem(r);
    if (rate !== null) problems.push(refusal('encode-rate', at, rate));
  }
  const wall = wallClockProblem(records, run);
  if (wall !== null) problems.push(refusal('wall-clock', `${where} records`, wall));
  return listed(where, problems, (rest) => `and ${rest} more like these`);
}
