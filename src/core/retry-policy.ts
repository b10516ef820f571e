/**
 * When a request the provider refused for now (429, 529, 503) is sent again: only
 * when the answer says when (`Retry-After`), at most `retries` times, and never
 * past `maxWaitMs` of waiting in all. A retried request is one request to the
 * user: its latency counts from its first attempt and every attempt is kept on
 * its record, so nothing a retry costs is hidden. Pure.
 */
import { LIMITS } from './limits.js';
import { RETRYABLE_STATUSES } from './rate-limit.js';

/** How retries are made; `retries: 0` turns them off. */
export interface RetryPolicy {
  /** Retries of one request after the first attempt. */
  retries: number;
  /** Most waiting one request does over all its retries, ms (each Retry-After is bounded by it too). */
  maxWaitMs: number;
}

/** Up to 3 retries, waiting at most 60 s in all. */
export const DEFAULT_RETRY: Readonly<RetryPolicy> = { retries: 3, maxWaitMs: 60_000 };

/** The policy bounded by the limits table. */
export function boundedRetry(p: RetryPolicy): RetryPolicy {
  return {
    retries: Math.min(Math.max(0, Math.floor(p.retries)), LIMITS.retryAttempts.max),
    maxWaitMs: Math.min(Math.max(0, p.maxWaitMs), LIMITS.retryWaitS.max * 1000),
  };
}

/** Send again after `waitMs`, or stop; `why` says why a retryable answer was not retried (null: nothing to retry). */
export type RetryVerdict = { kind: 'retry'; waitMs: number } | { kind: 'stop'; why: string | null };

/** The verdict on an answer with HTTP `status` and `retryAfterMs` (null: none), after `attempts` retries that waited `waitedMs`. */
export function retryVerdict(
  status: number | null,
  retryAfterMs: number | null,
  done: { attempts: number; waitedMs: number },
  policy: RetryPolicy,
): RetryVerdict {
  if (status === null || !RETRYABLE_STATUSES.includes(status)) return { kind: 'stop', why: null };
  if (policy.retries === 0) return { kind: 'stop', why: 'not retried (--retry off)' };
  if (retryAfterMs === null) return { kind: 'stop', why: 'not retried: the answer has no Retry-After' };
  if (done.attempts >= policy.retries) return { kind: 'stop', why: `not retried again: ${done.attempts} retries already (--retry ${policy.retries})` };
  const left = policy.maxWaitMs - done.waitedMs;
  if (retryAfterMs > left)
    return {
      kind: 'stop',
      why: `not retried: Retry-After ${fmtS(retryAfterMs)} s is past the ${fmtS(left)} s of waiting left (--retry-max-wait-s ${fmtS(policy.maxWaitMs)})`,
    };
  return { kind: 'retry', waitMs: retryAfterMs };
}

const fmtS = (ms: number) => String(Math.round(ms) / 1000);
