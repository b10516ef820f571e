/**
 * A level's retries and rate limits from its records: how many requests were
 * sent again and how long they waited (never hidden: the latency a user felt
 * already counts from each request's first attempt), what the provider's
 * headers said (the limits, the least and the last remaining, the last reset),
 * and whether the level's pace was set by the provider's rate limit (paced to a
 * budget, or answered 429): then it states that limit instead of a capacity.
 */
import type { RequestRecord } from './record.js';
import type { RateLimitSeen } from './rate-limit.js';
import type { RatePacing } from './rate-pacing.js';

/** A level's retries: requests sent again, retries made, the time they waited, and the statuses that caused them. */
export interface LevelRetries {
  requests: number;
  attempts: number;
  waitMs: number;
  statuses: Record<string, number>;
}

export interface RateLimitHeadersSummary {
  limitRequests: number | null;
  remainingRequestsMin: number | null;
  remainingRequestsLast: number | null;
  resetRequestsMs: number | null;
  limitTokens: number | null;
  remainingTokensMin: number | null;
  remainingTokensLast: number | null;
  resetTokensMs: number | null;
}

export interface LevelRateLimit {
  /** What the answers' headers said; null when none stated a limit. */
  headers: RateLimitHeadersSummary | null;
  /** The budget the sends were paced to (requests and tokens per minute); null when not paced. */
  pace: { rpm: number | null; tpm: number | null; source: 'flag' | 'headers' } | null;
  /** Answers 429 (attempts and final answers of measured requests). */
  answered429: number;
  /** The level's pace was set by the provider's rate limit: it reports that limit, not a capacity. */
  limited: boolean;
  /** "limited by the provider's rate limit (60 requests/min)", or null. */
  reason: string | null;
}

/** The level's retries, or null when no measured request was retried. */
export function summarizeRetries(records: readonly RequestRecord[]): LevelRetries | null {
  const out: LevelRetries = { requests: 0, attempts: 0, waitMs: 0, statuses: {} };
  for (const r of records) {
    if (r.warmup || r.attempts === undefined) continue;
    out.requests++;
    for (const a of r.attempts) {
      out.attempts++;
      out.waitMs += a.waitMs;
      out.statuses[a.status] = (out.statuses[a.status] ?? 0) + 1;
    }
  }
  return out.requests === 0 ? null : out;
}

/** The headers of the measured answers: each limit as last stated, the least and the last remaining, the last reset. */
function headersOf(measured: readonly RequestRecord[]): RateLimitHeadersSummary | null {
  const seen = measured.filter((r) => r.rateLimit !== undefined).sort((a, b) => (a.endNs ?? a.sendNs) - (b.endNs ?? b.sendNs));
  if (seen.length === 0) return null;
  const last = (k: keyof RateLimitSeen): number | null => {
    for (let i = seen.length - 1; i >= 0; i--) {
      const v = seen[i]?.rateLimit?.[k];
      if (v !== undefined) return v;
    }
    return null;
  };
  const min = (k: keyof RateLimitSeen): number | null => {
    const vs = seen.flatMap((r) => (r.rateLimit?.[k] === undefined ? [] : [r.rateLimit[k]]));
    return vs.length === 0 ? null : Math.min(...vs);
  };
  return {
    limitRequests: last('limitRequests'),
    remainingRequestsMin: min('remainingRequests'),
    remainingRequestsLast: last('remainingRequests'),
    resetRequestsMs: last('resetRequestsMs'),
    limitTokens: last('limitTokens'),
    remainingTokensMin: min('remainingTokens'),
    remainingTokensLast: last('remainingTokens'),
    resetTokensMs: last('resetTokensMs'),
  };
}

/** The words a limited level says instead of a capacity. */
export function limitedReason(pace: LevelRateLimit['pace'], headers: RateLimitHeadersSummary | null, answered429: number): string {
  const rpm = pace?.rpm ?? headers?.limitRequests ?? null;
  const tpm = pace?.tpm ?? headers?.limitTokens ?? null;
  const what = rpm !== null ? `${rpm} requests/min` : tpm !== null ? `${tpm} tokens/min` : `${answered429} answers 429`;
  return `limited by the provider's rate limit (${what})`;
}

/** The level's rate-limit summary, or null when its answers stated no limit, it was not paced and nothing was answered 429. */
export function summarizeRateLimit(records: readonly RequestRecord[], pacing: RatePacing | null): LevelRateLimit | null {
  const measured = records.filter((r) => !r.warmup);
  const headers = headersOf(measured);
  let answered429 = 0;
  for (const r of measured) {
    for (const a of r.attempts ?? []) if (a.status === 429) answered429++;
    if (r.httpStatus === 429) answered429++;
  }
  const pace =
    pacing === null
      ? null
      : pacing.kind === 'budget'
        ? { rpm: pacing.rpm, tpm: pacing.tpm, source: 'flag' as const }
        : { rpm: headers?.limitRequests ?? null, tpm: headers?.limitTokens ?? null, source: 'headers' as const };
  if (headers === null && pace === null && answered429 === 0) return null;
  const limited = pace !== null || answered429 > 0;
  return { headers, pace, answered429, limited, reason: limited ? limitedReason(pace, headers, answered429) : null };
}
