/**
 * Sends a request again when the provider refused it for now (429, 529, 503)
 * and said when to come back (Retry-After), under a stated policy (core's
 * retryVerdict). The record returned is one request to the user: `sendNs` is
 * its first attempt's send, so TTFT and e2e count every wait; each earlier
 * attempt is kept in `attempts` (status, instants, the wait after it). A
 * retryable answer that is not retried says why in its failure message. The
 * loop is shared with the whole-answer requests (embeddings, rerank).
 */
import { type RequestRecord, type RetryAttempt, type RetryPolicy, retryVerdict } from '../core/index.js';
import { retryAfterOf, withAnswerOf } from './stream-handler.js';

/** Waits `ms`, or less when `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** A timer that an abort cuts short. */
export const sleepMs: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/** How the retry loop reads one kind of record (a streamed request's, or a whole answer's). */
export interface Retryable<R> {
  /** The HTTP status of a refused answer, null for any other outcome. */
  status(r: R): number | null;
  /** What the answer's Retry-After asked, ms; null: nothing. */
  retryAfterMs(r: R): number | null;
  /** When the attempt was sent and ended. */
  span(r: R): { sendNs: number; endNs: number };
  /** The record, its failure message saying why it was not retried. */
  withWhy(r: R, why: string): R;
}

/**
 * Runs `once` until an answer is not to be retried: the first attempt, the last, and every earlier one with the
 * wait after it. One loop for every kind of request, so each retries by the same policy and the same words.
 */
export async function retrying<R>(
  once: () => Promise<R>,
  how: Retryable<R>,
  policy: RetryPolicy,
  sleep: Sleep,
  signal?: AbortSignal,
): Promise<{ first: R; last: R; attempts: RetryAttempt[] }> {
  const first: R = await once();
  let record: R = first;
  const attempts: RetryAttempt[] = [];
  let waitedMs = 0;
  for (;;) {
    const status = how.status(record);
    const verdict = retryVerdict(status, how.retryAfterMs(record), { attempts: attempts.length, waitedMs }, policy);
    if (verdict.kind === 'stop') {
      if (verdict.why !== null && status !== null) record = how.withWhy(record, verdict.why);
      break;
    }
    await sleep(verdict.waitMs, signal);
    if (signal?.aborted) break;
    // Only a retryable status gets here: it is the one judged.
    const span = how.span(record);
    attempts.push({ status: status as number, sendNs: span.sendNs, endNs: span.endNs, waitMs: verdict.waitMs });
    waitedMs += verdict.waitMs;
    record = await once();
  }
  return { first, last: record, attempts };
}

const STREAMED: Retryable<RequestRecord> = {
  status: (r) => (r.outcome.kind === 'http-error' ? r.outcome.status : null),
  retryAfterMs: retryAfterOf,
  span: (r) => ({ sendNs: r.sendNs, endNs: r.endNs ?? r.sendNs }),
  withWhy: (r, why) => (r.outcome.kind === 'http-error' ? withAnswerOf(r, { ...r, outcome: { ...r.outcome, message: `${r.outcome.message} (${why})` } }) : r),
};

/** Runs `once` until an answer is not to be retried; the record of the whole request. */
export async function withProviderRetries(once: () => Promise<RequestRecord>, policy: RetryPolicy, sleep: Sleep, signal?: AbortSignal): Promise<RequestRecord> {
  const { first, last: record, attempts } = await retrying(once, STREAMED, policy, sleep, signal);
  if (attempts.length === 0) return record;
  // The user's request began at the first send: every instant of the last attempt is measured from there, and our
  // send lateness is the first write's (the waits are the provider's, never our lag).
  const { writtenNs: _last, ...rest } = record;
  return withAnswerOf(record, { ...rest, sendNs: first.sendNs, ...(first.writtenNs === undefined ? {} : { writtenNs: first.writtenNs }), attempts });
}
