/**
 * A contract's `provider` section: how the run meets a hosted provider's rate
 * limit — the retries of a 429, 529 or 503 that says when to come back, the
 * most one request waits over them, and the pace of its sends
 * (docs/rate-limits.md). It is part of the experiment (pacing shapes the load,
 * retries what a user felt), so the contract hash covers it; a contract
 * without it hashes as before and runs with the command line's defaults,
 * unpaced. `goodput rerun` and `reproduce` run it again as recorded; a result
 * whose contract has none is redone under the policy its run recorded.
 */
import { z } from 'zod';
import { DEFAULT_RETRY, LIMITS, type RatePacing, type RetryPolicy, limitMessage, limitedCount, parseRatePacing, ratePacingSchema } from '../core/index.js';

/** `rpm=60,tpm=90000` / `from-headers` as the flag takes it (its parser's words when refused), or the parsed form a resolved contract carries. */
const rateLimitSchema = z.unknown().transform((v, ctx): RatePacing => {
  if (typeof v === 'string') {
    const parsed = parseRatePacing(v);
    if (parsed.ok) return parsed.pacing;
    ctx.addIssue({ code: 'custom', message: `rateLimit ${parsed.message}` });
    return z.NEVER;
  }
  const resolved = ratePacingSchema.safeParse(v);
  if (resolved.success) return resolved.data;
  ctx.addIssue({ code: 'custom', message: 'rateLimit must be "rpm=N", "tpm=M", both ("rpm=60,tpm=90000") or "from-headers"' });
  return z.NEVER;
});

export const providerPolicySchema = z
  .object({
    /** Retries of one request answered 429, 529 or 503 with Retry-After (0: none). */
    retries: limitedCount('retryAttempts', 'retries').optional(),
    /** The most one request waits over all its retries, s. */
    maxWaitS: z
      .number({ error: 'maxWaitS must be a number of seconds' })
      .nonnegative('maxWaitS must be 0 or more')
      .max(LIMITS.retryWaitS.max, { error: (i) => limitMessage('retryWaitS', Number(i.input), 'maxWaitS') })
      .optional(),
    /** Sends paced to this budget, or to the limits the provider's headers state. */
    rateLimit: rateLimitSchema.optional(),
  })
  .strict();

export type ProviderPolicy = z.output<typeof providerPolicySchema>;

/** The pacing and retries a sweep of the contract runs under. */
export interface RunPolicy {
  retry: RetryPolicy;
  rateLimit: RatePacing | null;
}

/** The contract's declared policy, its absent parts the command line's defaults (unpaced). */
export function declaredPolicy(p: ProviderPolicy | undefined): RunPolicy {
  return {
    retry: { retries: p?.retries ?? DEFAULT_RETRY.retries, maxWaitMs: p?.maxWaitS === undefined ? DEFAULT_RETRY.maxWaitMs : p.maxWaitS * 1000 },
    rateLimit: p?.rateLimit ?? null,
  };
}

/**
 * The policy a rerun of a result runs under: its contract's `provider` section when it declares one; else the
 * policy its run recorded (`run.retry`, `run.rateLimit`); a result of before retries were made recorded none,
 * and was measured with none.
 */
export function recordedPolicy(
  contract: { provider?: ProviderPolicy | undefined },
  run: { retry?: RetryPolicy | undefined; rateLimit?: RatePacing | undefined },
): RunPolicy {
  if (contract.provider !== undefined) return declaredPolicy(contract.provider);
  return { retry: run.retry ?? { retries: 0, maxWaitMs: 0 }, rateLimit: run.rateLimit ?? null };
}
