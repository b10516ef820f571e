/**
 * The physics of a record: what a measured request must look like for it to
 * have been measured at all, checked for every record of every run (never
 * through percentiles, where one impossible record hides among good ones).
 * The contract whose hash recomputes states the workload; a record that
 * breaks it, or breaks the order of time, is refused naming the record, the
 * level and the rule.
 */
import type { Contract, StoredRecord } from '../contract/index.js';
import { LIMITS, peakOverlap } from '../core/index.js';
import { arrivalOps } from '../workload/index.js';
import { type MediaClaim, mediaClaim, mediaProblem } from './media-claims.js';
import { type Refusal, type Rule, refusal } from './refusal.js';

/** Refusals past this many per run are counted, not listed: one forged run must not flood the terminal. */
export const LISTED_PER_RUN = 12;

/** Measured requests a closed-loop level of the contract runs (the fixed count, or 'auto'). */
export function requestsAtLevel(contract: Contract, level: number): number {
  const n = contract.workload.requestsPerLevel;
  return n === 'auto' ? arrivalOps({ kind: 'concurrency' }).autoRequests(level) : n;
}

/** The output cap every request of the contract was sent with, or null when each prompt carries its own (corpora). */
export function contractCap(contract: Contract): number | null {
  const o = contract.workload.outputTokens;
  // A list is a matrix (refused before this); one entry is the one cap.
  return Array.isArray(o) && o.length === 1 ? (o[0] as number) : null;
}

export type Problem = [Rule, string];

/** send ≤ headers ≤ first token ≤ every chunk (in order) ≤ end; first answer after first token. */
function orderProblem(r: StoredRecord): string | null {
  const named: Array<[string, number | null]> = [
    ['targetSendNs', r.targetSendNs],
    ['sendNs', r.sendNs],
    ['headersNs', r.headersNs],
    ['firstTokenNs', r.firstTokenNs],
    ['endNs', r.endNs],
  ];
  for (const [name, v] of named) if (v !== null && (!Number.isFinite(v) || v < 0)) return `${name} is ${v}, not an instant of the run`;
  if (r.chunkNs.length !== r.chunkTokens.length) return `has ${r.chunkNs.length} chunk instants and ${r.chunkTokens.length} chunk token counts`;
  const chain: Array<[string, number | null]> = [
    ['sendNs', r.sendNs],
    ['headersNs', r.headersNs],
    ['firstTokenNs', r.firstTokenNs],
    ['firstAnswerNs', r.firstAnswerNs],
  ];
  let last: [string, number] = ['sendNs', r.sendNs];
  for (const [name, v] of chain) {
    if (v === null) continue;
    if (v < last[1]) return `${name} ${v} is before ${last[0]} ${last[1]}`;
    if (name !== 'firstAnswerNs') last = [name, v];
  }
  for (const [i, t] of r.chunkNs.entries()) {
    if (!Number.isFinite(t) || t < last[1]) return `chunk ${i} at ${t} is before ${last[0]} ${last[1]}`;
    last = [`chunk ${i}`, t];
  }
  if (r.endNs !== null && r.endNs < last[1]) return `endNs ${r.endNs} is before ${last[0]} ${last[1]}`;
  if (r.outcome.kind === 'ok' && (r.endNs === null || r.firstTokenNs === null) && r.outputTokens > 0)
    return 'succeeded with output but has no first-token or end instant';
  return null;
}

/** Output within the cap, exactly the cap where lengths are forced and the engine stopped for length. */
function lengthProblem(r: StoredRecord, cap: number | null, forced: boolean): string | null {
  if (!Number.isInteger(r.outputTokens) || r.outputTokens < 0) return `states ${r.outputTokens} output tokens`;
  if (cap === null)
    return r.outputTokens > LIMITS.outputTokens.max ? `states ${r.outputTokens} output tokens, above the limit of ${LIMITS.outputTokens.max}` : null;
  if (r.outputTokens > cap) return `states ${r.outputTokens} output tokens; the contract caps each request at ${cap}`;
  if (forced && r.outcome.kind === 'ok' && r.finishReason === 'length' && r.outputTokens !== cap) {
    return `stopped for length after ${r.outputTokens} tokens; the contract forces every output to ${cap}`;
  }
  return null;
}

/** Tokens per chunk within the bound; a stream's tokens cannot arrive faster than a stream decodes. */
function chunkProblem(r: StoredRecord, stallNs: number): string | null {
  for (const [i, n] of r.chunkTokens.entries()) {
    if (!Number.isInteger(n) || n < 0) return `chunk ${i} carries ${n} tokens`;
    if (!r.chunkTokensExact && n !== 1) return `chunk ${i} carries ${n} tokens, but chunk counts not reported by the server are 1 each`;
    if (n > LIMITS.chunkTokens.max) return `chunk ${i} carries ${n} tokens, above the limit of ${LIMITS.chunkTokens.max} ${LIMITS.chunkTokens.what}`;
  }
  const first = r.chunkNs[0];
  const lastChunk = r.chunkNs[r.chunkNs.length - 1];
  if (r.outcome.kind !== 'ok' || first === undefined || lastChunk === undefined || r.chunkNs.length < 2) return null;
  // Tokens after the first chunk need this long at the fastest rate a stream decodes, less the client's longest recorded stall (which can merge reads).
  const after = Math.max(0, r.outputTokens - (r.chunkTokens[0] ?? 0));
  const needNs = (after / LIMITS.streamTokS.max) * 1e9 - stallNs;
  const spanNs = lastChunk - first;
  if (spanNs < needNs) {
    const rate = spanNs <= 0 ? 'at one instant' : `at ${Math.round(after / (spanNs / 1e9)).toLocaleString('en-US')} tok/s`;
    return `streams ${after} tokens after its first chunk ${rate}; no stream decodes faster than ${LIMITS.streamTokS.max.toLocaleString('en-US')} tok/s`;
  }
  return null;
}

/** One closed-loop level's records of any kind, as the checks every kind shares read them. */
export interface LevelRecords<R> {
  contract: Contract;
  concurrency: number;
  records: readonly R[];
  /** The instants a record was sent and answered in full (ns). */
  span(r: R): readonly [number, number];
}

/**
 * The checks every kind's level gets, each problem naming its record ('records'
 * for the whole level): every sequence number once (beside `each` record's own
 * problems, in record order), the contract's warm-ups and measured requests,
 * and no more requests in flight than the level's concurrency.
 */
export function sharedLevelProblems<R extends { seq: number; warmup: boolean }>(
  l: LevelRecords<R>,
  each: (r: R) => Problem[] = () => [],
): Array<[string, Problem]> {
  const out: Array<[string, Problem]> = [];
  const seqs = new Set<number>();
  for (const r of l.records) {
    const at = `record seq ${r.seq}`;
    if (seqs.has(r.seq)) out.push([at, ['unique-records', 'appears twice in its level; every request has its own sequence number']]);
    seqs.add(r.seq);
    for (const p of each(r)) out.push([at, p]);
  }
  const warmups = l.records.filter((r) => r.warmup).length;
  const measured = l.records.length - warmups;
  const expected = requestsAtLevel(l.contract, l.concurrency);
  if (warmups !== l.contract.workload.warmup)
    out.push(['records', ['level-count', `hold ${warmups} warm-ups; the contract runs ${l.contract.workload.warmup} per level`]]);
  if (measured !== expected)
    out.push([
      'records',
      ['level-count', `hold ${measured} measured requests; the contract runs ${expected} per level (failures are kept as records, never dropped)`],
    ]);
  // An answer ending as another is sent counts once.
  const peak = peakOverlap(l.records.filter((r) => !r.warmup).map(l.span));
  if (peak > l.concurrency)
    out.push(['records', ['in-flight', `have ${peak} requests in flight at once; a closed loop at concurrency ${l.concurrency} never has more`]]);
  return out;
}

/** A level's problem as a refusal: `where` names the run ("evidence.optimized: run 2"), the level and record follow. */
export const levelRefusal = (where: string, level: number, [rec, [rule, why]]: [string, Problem]): Refusal =>
  refusal(rule, `${where} records[c=${level}]${rec === 'records' ? '' : ` ${rec}`}`, why);

/** The first LISTED_PER_RUN refusals of a run, the rest counted in one more: `tail` words the count. */
export function listed(where: string, problems: Refusal[], tail: (rest: number) => string): Refusal[] {
  if (problems.length <= LISTED_PER_RUN) return problems;
  const rest = problems.length - LISTED_PER_RUN;
  return [...problems.slice(0, LISTED_PER_RUN), refusal((problems[LISTED_PER_RUN] as Refusal).rule, `${where} records`, tail(rest))];
}

export interface LevelPhysics {
  contract: Contract;
  concurrency: number;
  records: readonly StoredRecord[];
  /** The client's longest recorded event-loop stall at this level (ms), or null when none was recorded. */
  loopDelayMaxMs: number | null;
  /** The images or audio the contract claims for every request, or null for text alone. */
  media?: MediaClaim | null;
}

/** Problems of one level's records, each naming the record. */
function levelProblems(l: LevelPhysics): Array<[string, Problem]> {
  const cap = contractCap(l.contract);
  const forced = l.contract.decoding.ignoreEos;
  const stallNs = (l.loopDelayMaxMs ?? 0) * 1e6;
  // A record never answered in full ends at its last instant.
  const span = (r: StoredRecord) => [r.sendNs, r.endNs ?? Math.max(r.sendNs, r.headersNs ?? 0, r.firstTokenNs ?? 0, ...r.chunkNs)] as const;
  return sharedLevelProblems({ ...l, span }, (r) => {
    const out: Problem[] = [];
    const order = orderProblem(r);
    if (order !== null) out.push(['record-order', order]);
    const length = lengthProblem(r, cap, forced);
    if (length !== null) out.push(['output-cap', length]);
    const chunk = order === null ? chunkProblem(r, stallNs) : null;
    if (chunk !== null) out.push(['stream-rate', chunk]);
    const media = l.media ? mediaProblem(r, l.media) : null;
    if (media !== null) out.push(['media-inputs', media]);
    return out;
  });
}

/**
 * Physics refusals for one run's records, level by level; `where` names the run
 * ("evidence.optimized: run 2"), `loopDelayMaxMs` gives each level's recorded stall, `promptsExact`
 * whether the run counted its prompts' lengths exactly.
 */
export function physicsRefusals(
  where: string,
  contract: Contract,
  records: readonly StoredRecord[],
  loopDelayMaxMs: (level: number) => number | null,
  promptsExact = true,
): Refusal[] {
  const byLevel = new Map<number, StoredRecord[]>();
  for (const r of records) byLevel.set(r.concurrency, [...(byLevel.get(r.concurrency) ?? []), r]);
  const problems: Refusal[] = [];
  const ids = new Map<string, number>();
  for (const r of records) {
    if (r.requestId === undefined) continue;
    const seen = ids.get(r.requestId);
    if (seen !== undefined)
      problems.push(
        refusal(
          'unique-records',
          `${where} records[c=${r.concurrency}] record seq ${r.seq}`,
          `carries request id ${JSON.stringify(r.requestId.slice(0, 40))}, already used at concurrency ${seen}; a record cannot be duplicated under a new sequence number`,
        ),
      );
    else ids.set(r.requestId, r.concurrency);
  }
  const media = mediaClaim(contract, promptsExact);
  for (const level of [...new Set(contract.load.levels)]) {
    const recs = byLevel.get(level) ?? [];
    for (const p of levelProblems({ contract, concurrency: level, records: recs, loopDelayMaxMs: loopDelayMaxMs(level), media }))
      problems.push(levelRefusal(where, level, p));
  }
  return listed(where, problems, impossibleRecords);
}

/** How the refusals past the listed ones are counted. */
export const impossibleRecords = (rest: number): string => `and ${rest} more impossible ${rest === 1 ? 'record' : 'records'} like these`;
