/**
 * What a hosted provider charges: per-token list prices, input, cached input
 * and output kept apart, each row citing the public page it was read from and
 * the day it was read — the token rows of the receipts' price file
 * (`--prices`), with the cached-input rate besides. A run against a provider
 * records the row it was priced with; `goodput decide` costs it.
 */
import { z } from 'zod';
import { LIMITS } from './limits.js';

/** Hosts that name a machine rather than a public page: loopback, IP literals, internal names. */
export const INTERNAL_HOSTS: ReadonlyArray<[RegExp, string]> = [
  [/\blocalhost\b/i, 'a hostname'],
  [/\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b/, 'an IP address'],
  [/\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:internal|local|lan|corp|intranet|home\.arpa)\b/i, 'an internal hostname'],
];

/** Why a price's source is no public page a reader can open (a loopback, IP-literal or internal host), or null. */
export function internalSourceHost(sourceUrl: string): { host: string; why: string } | null {
  let host: string;
  try {
    host = new URL(sourceUrl).hostname;
  } catch {
    return null;
  }
  const why = host.startsWith('[') ? 'an IP address' : (INTERNAL_HOSTS.find(([re]) => re.test(host))?.[1] ?? null);
  return why === null ? null : { host, why };
}

/** True for a real YYYY-MM-DD day (no 2026-02-30). */
export function isCalendarDay(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

const usd = (what: string) =>
  z
    .number({ error: `${what} must be a number` })
    .nonnegative(`${what} must not be negative`)
    .max(10_000, `${what} above 10,000 USD per 1M tokens is no list price`);
const name = (what: string) =>
  z
    .string()
    .min(1, `${what} must not be empty`)
    .max(120, `${what} is longer than 120 characters`)
    .regex(/^[^\p{Cc}\p{Cf}]*$/u, `${what} must not hold control or format characters`);

export const providerPriceSchema = z
  .object({
    provider: name('provider'),
    model: name('model'),
    inputUsdPer1M: usd('inputUsdPer1M'),
    /** Prompt tokens the provider served from its cache; absent: billed as input. */
    cachedInputUsdPer1M: usd('cachedInputUsdPer1M').optional(),
    outputUsdPer1M: usd('outputUsdPer1M'),
    sourceUrl: z
      .url({ protocol: /^https?$/, error: 'sourceUrl must be an http(s) URL of the page the price was read from' })
      .max(500, 'sourceUrl is longer than 500 characters')
      .refine((u) => internalSourceHost(u) === null, {
        error: (i) => {
          const bad = internalSourceHost(String(i.input));
          return `sourceUrl cites a page at ${bad?.why} (${JSON.stringify(bad?.host)}); a price's source is a public page a reader can open`;
        },
      }),
    asOf: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'asOf must be the date the price was read, like 2026-06-01')
      .refine((s) => !/^\d{4}-\d{2}-\d{2}$/.test(s) || isCalendarDay(s), { error: (i) => `asOf ${JSON.stringify(i.input)} is not a calendar date` }),
  })
  .strict();
export type ProviderPrice = z.infer<typeof providerPriceSchema>;

/** A provider price file: the `tokenPrices` rows of a receipts' price file (its instance rows are read past). */
export const providerPriceFileSchema = z.object({
  tokenPrices: z
    .array(providerPriceSchema)
    .min(1, 'tokenPrices must list at least one price')
    .max(LIMITS.providerPrices.max, `tokenPrices lists more than ${LIMITS.providerPrices.max} prices (${LIMITS.providerPrices.what})`),
  instancePrices: z.array(z.unknown()).optional(),
});

/**
 * The built-in table, an example to start from: list prices as read from each
 * provider's public pricing page on the date shown. Prices change; a run
 * records the row it used, and a file (`--provider-prices`) replaces these.
 */
export const BUILTIN_PROVIDER_PRICES: readonly ProviderPrice[] = [
  {
    provider: 'openai',
    model: 'gpt-4o-mini',
    inputUsdPer1M: 0.15,
    cachedInputUsdPer1M: 0.075,
    outputUsdPer1M: 0.6,
    sourceUrl: 'https://openai.com/api/pricing/',
    asOf: '2025-01-15',
  },
  {
    provider: 'openai',
    model: 'gpt-4o',
    inputUsdPer1M: 2.5,
    cachedInputUsdPer1M: 1.25,
    outputUsdPer1M: 10,
    sourceUrl: 'https://openai.com/api/pricing/',
    asOf: '2025-01-15',
  },
  {
    provider: 'anthropic',
    model: 'claude-3-5-haiku',
    inputUsdPer1M: 0.8,
    cachedInputUsdPer1M: 0.08,
    outputUsdPer1M: 4,
    sourceUrl: 'https://www.anthropic.com/pricing',
    asOf: '2025-01-15',
  },
];

/** `provider/model` → its row in `table`, or why not (naming the rows there are). */
export function selectProviderPrice(table: readonly ProviderPrice[], key: string): { ok: true; price: ProviderPrice } | { ok: false; message: string } {
  const slash = key.indexOf('/');
  if (slash <= 0 || slash === key.length - 1) return { ok: false, message: `'${key}' is not provider/model (e.g. openai/gpt-4o-mini)` };
  const [provider, model] = [key.slice(0, slash), key.slice(slash + 1)];
  const rows = table.filter((r) => r.provider === provider && r.model === model);
  if (rows.length === 1) return { ok: true, price: rows[0] as ProviderPrice };
  if (rows.length > 1) return { ok: false, message: `'${key}' has ${rows.length} rows in the table; keep one per provider/model` };
  const known = table.map((r) => `${r.provider}/${r.model}`).slice(0, 12);
  return { ok: false, message: `'${key}' is not in the table (it has ${known.join(', ')})` };
}

/** USD for a request mix at a price: uncached input, cached input (at the input rate when the row has no cached rate) and output. */
export function spendUsd(p: ProviderPrice, tokens: { input: number; cachedInput: number; output: number }): number {
  const cachedRate = p.cachedInputUsdPer1M ?? p.inputUsdPer1M;
  return ((tokens.input - tokens.cachedInput) * p.inputUsdPer1M + tokens.cachedInput * cachedRate + tokens.output * p.outputUsdPer1M) / 1e6;
}

/** The price row in words, with its date and source: printed beside every figure it gives. */
export const priceLine = (p: ProviderPrice): string =>
  `${p.provider}/${p.model}: $${p.inputUsdPer1M} input, ` +
  `${p.cachedInputUsdPer1M === undefined ? 'cached input at the input rate' : `$${p.cachedInputUsdPer1M} cached input`}, ` +
  `$${p.outputUsdPer1M} output per 1M tokens, as of ${p.asOf} (${p.sourceUrl})`;
