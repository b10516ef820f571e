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
import { type ClientBudgetRule, judgeRecordsClientBound } from './level-summary.js';

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
  /** A worker on another machine: its clock against the database's at the level's start (measured, stored with the run). */
  clockToDb?: { offsetMs: number; uncertaintyMs: number } | null;
}

/** Why a share never finished (its worker was lost), read from its records: the message of its first client-lost record. */
const lostOf = (records: readonly RequestRecord[]): string | null => {
  for (const r of records) if (r.outcome.kind === 'client-lost') return r.outcome.message;
  return null;
};

/** `r` with every instant moved by `offsetNs` (the record itself is not changed). */
export function shiftRecord(r: RequestRecord, by: number): RequestRecord {
  // A whole offset keeps whole instants whole (a clock offset is measured to fractions of a nanosecond of noise).
  const offsetNs = Math.round(by);
  if (offsetNs === 0) return r;
  const at = (ns: number | null) => (ns === null ? null : ns + offsetNs);
  return {
    ...r,
    targetSendNs: r.targetSendNs + offsetNs,
    sendNs: r.sendNs + offsetNs,
    ...(r.writtenNs === undefined ? {} : { writtenNs: r.writtenNs + offsetNs }),
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

/** One share's own judgement, as a level result keeps it. */
export type ShareJudgement = NonNullable<LevelResult['shares']>[number];

const worst = (xs: ReadonlyArray<Spread | null>): Spread | null =>
  xs.reduce<Spread | null>((w, x) => (x !== null && (w === null || x.p99 > w.p99) ? x : w), null);

/**
 * Each share judged client-bound on its own measured records, loop delay and busy
 * share. Lags are differences on one share's clock, so its offset does not matter.
 */
export function judgeShares(shares: readonly ShareRecords[], budgetMs: number, rule: ClientBudgetRule = 'scaled'): ShareJudgement[] {
  return shares.map((s) => {
    const measured = s.records.filter((r) => !r.warmup);
    const cb = judgeRecordsClientBound(measured, s.loopDelayMs, budgetMs, s.clientCpuPct, rule);
    return {
      label: s.label,
      requests: measured.length,
      bound: cb.bound,
      reason: cb.reason,
      clientCpuPct: s.clientCpuPct,
      loopDelayMs: s.loopDelayMs,
      sendLatenessMs: cb.sendLatenessMs ?? null,
      clockOffsetNs: Math.round(s.clockOffsetNs),
      clockToDb: s.clockToDb ?? null,
      lost: lostOf(measured),
    };
  });
}

/**
 * The shares of a stored level put back from its merged records (each record names
 * its client) and what the records cannot hold (each share's loop delay, busy share
 * and clock offset), so the level's judgement can be recomputed, never trusted.
 */
export function sharesFromRecords(stated: readonly ShareJudgement[], records: readonly RequestRecord[]): ShareRecords[] {
  return stated.map((s) => ({
    label: s.label,
    records: records.filter((r) => r.client === s.label),
    clockOffsetNs: s.clockOffsetNs,
    loopDelayMs: s.loopDelayMs,
    clientCpuPct: s.clientCpuPct,
    clockToDb: s.clockToDb,
  }));
}

/** The inputs the level's own judgement takes from its shares: the worst loop delay, the busiest share. */
export function sharesLoad(shares: readonly ShareRecords[]): { loopDelayMs: Spread | null; clientCpuPct: number | null } {
  const cpus = shares.flatMap((s) => (s.clientCpuPct === null ? [] : [s.clientCpuPct]));
  return { loopDelayMs: worst(shares.map((s) => s.loopDelayMs)), clientCpuPct: cpus.length > 0 ? Math.max(...cpus) : null };
}

/** `cb` made client-bound when any share is, the reason naming each bound share. */
export function bindToShares(cb: ClientBound, judged: readonly ShareJudgement[]): ClientBound {
  const bound = judged.filter((j) => j.bound);
  if (bound.length === 0 || judged.length < 2) return cb;
  const why = bound.map((j) => `${j.label}: ${j.reason ?? 'client-bound'}`).join('; ');
  return { ...cb, bound: true, reason: `${cb.bound ? `${cb.reason ?? ''}; ` : ''}${why}` };
}

/**
 * A level computed from its shares' merged raw records (mergeShareRecords; its loop
 * delay and busy share from sharesLoad), with each share's own judgement: the
 * level is client-bound when the merged records or any share are, the reason
 * naming the share.
 */
export function withShares(level: LevelResult, shares: readonly ShareRecords[], budgetMs: number, rule: ClientBudgetRule = 'scaled'): LevelResult {
  const judged = judgeShares(shares, budgetMs, rule);
  return { ...level, clientBound: bindToShares(level.clientBound, judged), shares: judged };
}
