/**
 * A level split over several clients (worker threads, or worker processes on
 * other machines) and put back together. Splitting is pure arithmetic; merging
 * puts every share's raw records on one clock and computes the level from them,
 * exactly as for one client: percentiles are never averaged across shares.
 * Each share's own client-bound judgement is kept, and one bound share makes
 * the whole level client-bound.
 */
import type { RequestRecord } from './record.js';
import type { ClientBound, LevelResult } from './result-schema.js';
import type { Spread } from './client-bound.js';
import { judgeRecordsClientBound, type LevelInput, summarizeLevel } from './level-summary.js';

/**
 * Splits `total` whole streams over `n` clients as evenly as possible, larger
 * shares first; the shares sum to `total` (a share is 0 when n > total).
 * @throws RangeError when `total` is not a whole number ≥ 0 or `n` not one ≥ 1.
 */
export function splitConcurrency(total: number, n: number): number[] {
  if (!Number.isInteger(total) || total < 0) throw new RangeError(`concurrency ${total} is not a whole number of streams`);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`${n} is not a whole number of clients (at least 1)`);
  const base = Math.floor(total / n);
  const extra = total % n;
  return Array.from({ length: n }, (_, i) => base + (i < extra ? 1 : 0));
}

/**
 * Splits an arrival rate (req/s) over `n` clients in equal shares that sum to `rate`.
 * @throws RangeError when `rate` is not a finite number > 0 or `n` not a whole number ≥ 1.
 */
export function splitRate(rate: number, n: number): number[] {
  if (!Number.isFinite(rate) || rate <= 0) throw new RangeError(`rate ${rate} is not a positive number of requests per second`);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`${n} is not a whole number of clients (at least 1)`);
  return Array.from({ length: n }, () => rate / n);
}

/**
 * Which of a level's `count` measured requests each share sends, for shares
 * weighted by `weights` (e.g. their streams): contiguous runs of request
 * indices, sized in proportion (largest remainder), so every request belongs
 * to exactly one share and a share of weight 0 sends nothing.
 */
export function splitRequests(count: number, weights: readonly number[]): Array<{ from: number; to: number }> {
  const total = weights.reduce((a, b) => a + b, 0);
  if (total <= 0) throw new RangeError('the shares have no weight');
  const exact = weights.map((w) => (count * w) / total);
  const sizes = exact.map(Math.floor);
  let left = count - sizes.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of byRemainder) {
    if (left-- <= 0) break;
    sizes[i] = (sizes[i] as number) + 1;
  }
  let from = 0;
  return sizes.map((size) => {
    const range = { from, to: from + size };
    from += size;
    return range;
  });
}

/** One client's part of a level: its raw records and how its clock relates to the level's. */
export interface ShareRecords {
  /** Names the share in a client-bound reason, e.g. "thread 2" or "worker gpu-box-1". */
  label: string;
  records: readonly RequestRecord[];
  /** Added to every instant of `records` to put it on the level's clock, ns (0 when already there). */
  clockOffsetNs: number;
  /** The share's own event-loop delay during the level, or null when not measured. */
  loopDelayMs: Spread | null;
  /** The share's own busy share of one core during the level, %, or null. */
  clientCpuPct: number | null;
}

/** `r` with every instant moved by `offsetNs` (the record itself is not changed). */
export function shiftRecord(r: RequestRecord, offsetNs: number): RequestRecord {
  if (offsetNs === 0) return r;
  const at = (ns: number | null) => (ns === null ? null : ns + offsetNs);
  return {
    ...r,
    targetSendNs: r.targetSendNs + offsetNs,
    sendNs: r.sendNs + offsetNs,
    headersNs: at(r.headersNs),
    firstTokenNs: at(r.firstTokenNs),
    firstAnswerNs: at(r.firstAnswerNs),
    chunkNs: r.chunkNs.map((ns) => ns + offsetNs),
    endNs: at(r.endNs),
  };
}

/** Every share's records on the level's clock, in sequence order (warm-ups included). */
export function mergeShareRecords(shares: readonly ShareRecords[]): RequestRecord[] {
  const out: RequestRecord[] = [];
  for (const s of shares) for (const r of s.records) out.push(shiftRecord(r, s.clockOffsetNs));
  return out.sort((a, b) => a.seq - b.seq || a.sendNs - b.sendNs);
}

/** A level's inputs when its records come from several shares. */
export interface SharesInput extends Omit<LevelInput, 'records' | 'loopDelayMs' | 'clientCpuPct'> {
  shares: readonly ShareRecords[];
}

/** What `summarizeShares` returns: the level, and each share's own judgement. */
export interface SharedLevel {
  level: LevelResult;
  records: RequestRecord[];
  shares: Array<{ label: string; requests: number; clientBound: ClientBound }>;
}

const worst = (xs: ReadonlyArray<Spread | null>): Spread | null =>
  xs.reduce<Spread | null>((w, x) => (x !== null && (w === null || x.p99 > w.p99) ? x : w), null);

/**
 * The level computed from the merged raw records of its shares. Each share is
 * judged client-bound on its own records, loop delay and CPU; the level's
 * figures are those of the busiest share, and it is client-bound when the
 * merged records or any share are (the reason names the share).
 */
export function summarizeShares(input: SharesInput): SharedLevel {
  const { shares, ...rest } = input;
  const records = mergeShareRecords(shares);
  const judged = shares.map((s) => {
    const measured = s.records.filter((r) => !r.warmup).map((r) => shiftRecord(r, s.clockOffsetNs));
    return { label: s.label, requests: measured.length, clientBound: judgeRecordsClientBound(measured, s.loopDelayMs, rest.clientBudgetMs, s.clientCpuPct) };
  });
  const cpus = shares.flatMap((s) => (s.clientCpuPct === null ? [] : [s.clientCpuPct]));
  const level = summarizeLevel({
    ...rest,
    records,
    loopDelayMs: worst(shares.map((s) => s.loopDelayMs)),
    clientCpuPct: cpus.length > 0 ? Math.max(...cpus) : null,
  });
  const boundShares = judged.filter((j) => j.clientBound.bound);
  if (boundShares.length > 0 && shares.length > 1) {
    const why = boundShares.map((j) => `${j.label}: ${j.clientBound.reason ?? 'client-bound'}`).join('; ');
    const own = level.clientBound.bound ? `${level.clientBound.reason ?? ''}; ` : '';
    level.clientBound = { ...level.clientBound, bound: true, reason: `${own}${why}` };
  }
  return { level, records, shares: judged };
}
