/**
 * The provider price a run is sent at (`--provider-prices`, `--provider-price`)
 * and the spend guard: before a priced run leaves for a server that is not
 * this machine, its spend is estimated (requests × tokens × price) and
 * printed; above `--max-spend` it is refused unless `--yes`, before any
 * connection is made. A loopback server (the simulator playing a provider)
 * costs nothing and is never guarded.
 */
import { readFileSync, statSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import {
  BUILTIN_PROVIDER_PRICES,
  LIMITS,
  type ProviderPrice,
  optionDefault,
  priceLine,
  providerPriceFileSchema,
  selectProviderPrice,
  sanitizeForTerminal as clean,
  spendUsd,
} from '../core/index.js';
import { isLoopback } from '../client/index.js';
import { type SweepSpecInput, requestsFor, sweepSpecSchema } from '../runner/index.js';
import { CliError, EXIT } from './exit-codes.js';
import { badFlag } from './parse-flags.js';
import { flagNumber } from './option-flags.js';

/** A price table is a page of rows, not a data set. */
const PRICE_FILE_BYTES = LIMITS.providerPriceFileBytes.max;

/** `--provider-prices FILE` read and checked (every problem one line naming its field), or the built-in example table. */
export function providerPriceTable(file: string | undefined): readonly ProviderPrice[] {
  if (file === undefined) return BUILTIN_PROVIDER_PRICES;
  let text: string;
  try {
    if (statSync(file).size > PRICE_FILE_BYTES)
      throw badFlag('--provider-prices', `${file} is larger than ${PRICE_FILE_BYTES} bytes (${LIMITS.providerPriceFileBytes.what})`);
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw badFlag('--provider-prices', `${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  let data: unknown;
  try {
    data = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw badFlag('--provider-prices', `${file} is not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(err as Error).message.split('\n')[0]}`);
  }
  const parsed = providerPriceFileSchema.safeParse(data ?? {});
  if (!parsed.success) {
    const lines = parsed.error.issues.slice(0, 10).map((i) => `  ${file}: ${i.path.join('.') || '(top level)'}: ${i.message}`);
    throw new CliError(EXIT.usage, `--provider-prices: nothing sent:\n${lines.join('\n')}`);
  }
  return parsed.data.tokenPrices;
}

/** `--provider-price provider/model` → its row of the table, or null without the flag; `--provider-prices` alone is refused (a table prices nothing). */
export function providerPriceFromFlags(f: { providerPrice?: string | undefined; providerPrices?: string | undefined }): ProviderPrice | null {
  if (f.providerPrice === undefined) {
    if (f.providerPrices !== undefined) throw badFlag('--provider-prices', 'needs --provider-price provider/model: the row the run is sent at');
    return null;
  }
  const picked = selectProviderPrice(providerPriceTable(f.providerPrices), f.providerPrice);
  if (!picked.ok) throw badFlag('--provider-price', picked.message);
  return picked.price;
}

/** Cents, or three figures under a dollar, so a small estimate is not rounded away. */
const dollars = (x: number): string => `$${x >= 1 ? x.toFixed(2) : x.toPrecision(3)}`;

export interface SpendGuard {
  maxUsd: number;
  yes: boolean;
}

export const spendGuardFromFlags = (f: { maxSpend?: string | undefined; yes?: boolean | undefined }): SpendGuard => ({
  maxUsd: flagNumber('maxSpend', f.maxSpend ?? optionDefault('maxSpend')),
  yes: f.yes === true,
});

/** The estimate of a priced synthetic sweep: every level's measured and warm-up requests, each at its full prompt and output (no cache). */
export function estimateSpend(spec: SweepSpecInput): { requests: number; usd: number; price: ProviderPrice } | null {
  const parsed = sweepSpecSchema.safeParse(spec);
  // A spec that does not parse is refused by the sweep itself, before anything is sent.
  if (!parsed.success || parsed.data.providerPrice === null) return null;
  const s = parsed.data;
  if (s.prompts.kind !== 'synthetic') return { requests: Number.NaN, usd: Number.NaN, price: s.providerPrice as ProviderPrice };
  const requests = [...new Set(s.levels)].reduce((sum, level) => sum + requestsFor(s, level) + s.warmup, 0);
  const usd = spendUsd(s.providerPrice as ProviderPrice, { input: requests * s.promptTokens, cachedInput: 0, output: requests * s.outputTokens });
  return { requests, usd, price: s.providerPrice as ProviderPrice };
}

/**
 * Prints the estimate of a priced run to a non-loopback server and refuses it
 * above the guard's limit (or when it cannot be estimated) unless `--yes`:
 * called before anything connects.
 */
export function guardSpend(spec: SweepSpecInput, guard: SpendGuard, write: (line: string) => void = (l) => process.stderr.write(l)): void {
  let host: string;
  try {
    host = new URL(spec.url).hostname;
  } catch {
    return;
  }
  if (isLoopback(host)) return;
  const e = estimateSpend(spec);
  if (e === null) return;
  const limit = `--max-spend $${guard.maxUsd.toFixed(2)}`;
  if (Number.isNaN(e.usd)) {
    write(`estimated spend: unknown (its prompts are not synthetic, so their tokens are not known before sending) at ${clean(priceLine(e.price))}\n`);
    if (!guard.yes) throw badFlag('--max-spend', `refused, nothing sent: the spend of this run cannot be estimated before sending; pass --yes to send it`);
    return;
  }
  const s = sweepSpecSchema.parse(spec);
  write(
    `estimated spend: ${e.requests} requests × (${s.promptTokens} input + ${s.outputTokens} output tokens, no cache) at ${clean(priceLine(e.price))} = ${dollars(e.usd)} (${limit})\n`,
  );
  if (e.usd > guard.maxUsd && !guard.yes)
    throw badFlag('--max-spend', `refused, nothing sent: the estimated spend ${dollars(e.usd)} is above ${limit}; pass --yes to send it`);
}
