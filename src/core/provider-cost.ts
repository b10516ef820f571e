/**
 * A provider run's measured cost per successful million output tokens: what
 * the workload actually sent was billed at the run's price row — input and
 * cached input as the server counted them (as sent when it reported no
 * count), output as streamed — over the output tokens of the requests that
 * met every SLO, at the run's valid level of highest goodput.
 */
import { z } from 'zod';
import { type ProviderPrice, spendUsd } from './provider-price.js';

/** What costing reads of a level (the result schema's level has it; declared here so the schema can hold the cost). */
export interface CostedLevel {
  concurrency: number;
  invalid: boolean;
  requests: number;
  succeeded: number;
  failed: number;
  durationMs: number;
  throughputTokS: number;
  outputTokensTotal: number;
  promptTokens: { mean: number | null; sent?: number | null | undefined };
  cachedPromptTokens?: { mean: number | null } | undefined;
  goodput?: { tokensPerS: number; share: number | null } | null | undefined;
}

export const PROVIDER_COST_BASIS =
  'Spend of the successful requests of the level (input and cached input as the server counted them, output as streamed, at the recorded price row) ' +
  'over the output tokens of the requests that met every SLO; failed requests and warm-ups are taken as not billed.';

export const providerCostSchema = z
  .object({
    level: z.number().positive(),
    spendUsd: z.number().nonnegative(),
    tokens: z.object({ input: z.number().nonnegative(), cachedInput: z.number().nonnegative(), output: z.number().nonnegative() }).strict(),
    /** Where the input count came from: the server's usage, or what was sent when the server reported none. */
    inputFrom: z.enum(['server', 'sent']),
    successfulOutputTokens: z.number().int().nonnegative(),
    costPer1MSuccessfulUsd: z.number().nonnegative().nullable(),
    basis: z.string().max(500),
  })
  .strict();
export type ProviderCost = z.infer<typeof providerCostSchema>;

/** Output tok/s of the requests meeting every SLO (of the successful ones when the run had no SLO). */
export const goodputTokS = (l: CostedLevel): number => l.goodput?.tokensPerS ?? (l.failed === 0 ? l.throughputTokS : 0);

/** The valid level of highest goodput, the one a decision compares at; null when none delivered any. */
export function decisionLevel<L extends CostedLevel>(levels: readonly L[]): L | null {
  return levels
    .filter((l) => !l.invalid && goodputTokS(l) > 0)
    .reduce<L | null>((best, l) => (best === null || goodputTokS(l) > goodputTokS(best) ? l : best), null);
}

/** The provider cost of a run's levels at its price; null when no level delivered goodput. */
export function providerCost(levels: readonly CostedLevel[], promptTokensSent: number, price: ProviderPrice): ProviderCost | null {
  const l = decisionLevel(levels);
  if (l === null) return null;
  const counted = l.promptTokens.mean;
  const perRequest = counted ?? l.promptTokens.sent ?? promptTokensSent;
  const cached = Math.min(l.cachedPromptTokens?.mean ?? 0, perRequest);
  const tokens = { input: perRequest * l.succeeded, cachedInput: cached * l.succeeded, output: l.outputTokensTotal };
  const spend = spendUsd(price, tokens);
  const successful = l.goodput ? Math.round((l.goodput.tokensPerS * l.durationMs) / 1000) : l.outputTokensTotal;
  return {
    level: l.concurrency,
    spendUsd: spend,
    tokens,
    inputFrom: counted !== null ? 'server' : 'sent',
    successfulOutputTokens: successful,
    costPer1MSuccessfulUsd: successful > 0 ? (spend / successful) * 1e6 : null,
    basis: PROVIDER_COST_BASIS,
  };
}
