/**
 * Sends a request again when the provider refused it for now (429, 529, 503)
 * and said when to come back (Retry-After), under a stated policy (core's
 * retryVerdict). The record returned is one request to the user: `sendNs` is
 * its first attempt's send, so TTFT and e2e count every wait; each earlier
 * attempt is kept in `attempts` (status, instants, the wait after it). A
 * retryable answer that is not retried says why in its failure message.
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

/** Runs `once` until an answer is not to be retried; the record of the whole request. */
export async function withProviderRetries(once: () => Promise<RequestRecord>, policy: RetryPolicy, sleep: Sleep, signal?: AbortSignal): Promise<RequestRecord> {
  const first = await once();
  let record = first;
  const attempts: RetryAttempt[] = [];
  let waitedMs = 0;
  for (;;) {
    const status = record.outcome.kind === 'http-error' ? record.outcome.status : null;
    const verdict = retryVerdict(status, retryAfterOf(record), { attempts: attempts.length, waitedMs }, policy);
    if (verdict.kind === 'stop') {
      if (verdict.why !== null && record.outcome.kind === 'http-error')
        record = withAnswerOf(record, { ...record, outcome: { ...record.outcome, message: `${record.outcome.message} (${verdict.why})` } });
      break;
    }
    await sleep(verdict.waitMs, signal);
    if (signal?.aborted) break;
    // Only a retryable http-error gets here: its status is the one judged.
    attempts.push({ status: status as number, sendNs: record.sendNs, endNs: record.endNs ?? record.sendNs, waitMs: verdict.waitMs });
    waitedMs += verdict.waitMs;
    record = await once();
  }
  if (attempts.length === 0) return record;
  // The user's request began at the first send: every instant of the last attempt is measured from there, and our
  // send lateness is the first write's (the waits are the provider's, never our lag).
  const { writtenNs: _last, ...rest } = record;
  return withAnswerOf(record, { ...rest, sendNs: first.sendNs, ...(first.writtenNs === undefined ? {} : { writtenNs: first.writtenNs }), attempts });
}
