/**
 * The rented list-price file (`--prices prices.yaml`): per-token rows with
 * input and output rates kept apart (never blended), and whole-instance rows
 * whose per-GPU figure is computed for context only. Every row cites its
 * source and the date it was read. One zod schema validates YAML and JSON alike.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { TEXT_LIMITS, textRefusals } from './free-text.js';
import { allowListRefusals } from './allow-list.js';
import { dayRefusal, isCalendarDay } from './receipt-dates.js';
import type { Refusal } from './refusal.js';

const source = z.url({ protocol: /^https?$/, error: 'sourceUrl must be an http(s) URL of the page the price was read from' });
const asOf = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'asOf must be the date the price was read, like 2026-06-01')
  .refine(isCalendarDay, { error: (i) => `asOf ${JSON.stringify(i.input)} is not a calendar date` });
const usd = (what: string) => z.number({ error: `${what} must be a number` }).nonnegative(`${what} must not be negative`);

export const tokenPriceSchema = z
  .object({
    provider: z.string().min(1),
    model: z.string().min(1),
    inputUsdPer1M: usd('inputUsdPer1M'),
    outputUsdPer1M: usd('outputUsdPer1M'),
    sourceUrl: source,
    asOf,
  })
  .strict();

export const instancePriceSchema = z
  .object({
    provider: z.string().min(1),
    sku: z.string().min(1),
    gpus: z.number().int().positive('gpus must be a whole number ≥ 1'),
    usdPerHourWholeInstance: usd('usdPerHourWholeInstance'),
    sourceUrl: source,
    asOf,
  })
  .strict();

export const pricesSchema = z
  .object({
    tokenPrices: z.array(tokenPriceSchema).default([]),
    instancePrices: z.array(instancePriceSchema).default([]),
  })
  .strict();

export type TokenPrice = z.infer<typeof tokenPriceSchema>;
export type InstancePrice = z.infer<typeof instancePriceSchema>;
export type Prices = z.infer<typeof pricesSchema>;

export const NO_PRICES: Prices = { tokenPrices: [], instancePrices: [] };

/** The latest asOf of any row: the date the prices were captured. */
export function pricesCapturedAt(p: Prices): string | null {
  return (
    [...p.tokenPrices, ...p.instancePrices]
      .map((r) => r.asOf)
      .sort()
      .at(-1) ?? null
  );
}

/** Reads and validates a price file; every problem is one line naming its field. */
export async function readPrices(path: string): Promise<{ ok: true; prices: Prices } | { ok: false; problems: string[] }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    return { ok: false, problems: [`${path}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`] };
  }
  let data: unknown;
  try {
    data = path.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    return { ok: false, problems: [`${path}: not valid ${path.endsWith('.json') ? 'JSON' : 'YAML'}: ${(err as Error).message.split('\n')[0]}`] };
  }
  const parsed = pricesSchema.safeParse(data ?? {});
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => `${path}: ${i.path.join('.') || '(top level)'}: ${i.message}`) };
  return { ok: true, prices: parsed.data };
}

/**
 * What a price file may not say on a page published `today`: a price read
 * after that day, or names with control or look-alike characters. (Provider
 * names are domains and SKUs carry sizes, so only those two text rules apply.)
 */
export function priceRefusals(p: Prices, today: string): Refusal[] {
  const rows = [
    ...p.tokenPrices.map((r, i) => ({
      r,
      at: `tokenPrices.${i}`,
      names: [
        ['provider', r.provider],
        ['model', r.model],
      ] as const,
    })),
    ...p.instancePrices.map((r, i) => ({
      r,
      at: `instancePrices.${i}`,
      names: [
        ['provider', r.provider],
        ['sku', r.sku],
      ] as const,
    })),
  ];
  return rows.flatMap(({ r, at, names }) => [
    ...[dayRefusal(`${at}.asOf`, r.asOf, today)].filter((x): x is Refusal => x !== null),
    ...names.flatMap(([k, v]) =>
      textRefusals(`${at}.${k}`, v, TEXT_LIMITS.title).filter(
        (x) => x.rule === 'no-control-characters' || x.rule === 'no-confusables' || x.rule === 'text-length',
      ),
    ),
    // A provider is named in prose; a model or an instance type is a name token.
    ...names.flatMap(([k, v]) => allowListRefusals(`${at}.${k}`, v, k === 'provider' ? 'prose' : 'name')),
  ]);
}
