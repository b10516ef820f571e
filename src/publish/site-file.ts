/**
 * The publisher's own words for a site (`goodput publish --site site.yaml`):
 * what the site does not claim, rendered verbatim on every page and in
 * dataset.json. goodput's defaults (NOT_CLAIMED) apply without a file. The
 * text is checked like a receipt's: bounded, printable, no look-alikes, no
 * internal identifiers.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { textRefusals } from './free-text.js';
import { type Refusal } from './refusal.js';

/** One statement's length limit, in characters. */
export const STATEMENT_MAX = 400;

export const siteFileSchema = z
  .object({
    notClaimed: z
      .array(z.string())
      .min(1, 'notClaimed must state at least one thing the site does not claim')
      .max(20, 'notClaimed holds at most 20 statements'),
  })
  .strict();

export type SiteText = z.infer<typeof siteFileSchema>;

export function siteTextRefusals(s: SiteText): Refusal[] {
  // Statements may well cite figures ("list prices as of 2026-06-01"): every other text rule applies.
  return s.notClaimed.flatMap((t, i) => textRefusals(`notClaimed.${i}`, t, STATEMENT_MAX).filter((r) => r.rule !== 'no-numeric-claims'));
}

/** Reads and checks a site file (YAML or JSON); every problem is one line naming its field. */
export async function readSiteFile(path: string): Promise<{ ok: true; site: SiteText } | { ok: false; problems: string[] }> {
  let data: unknown;
  try {
    data = parseYaml(await readFile(path, 'utf8'));
  } catch (err) {
    return { ok: false, problems: [`${path}: ${(err as Error).message.split('\n')[0]}`] };
  }
  const parsed = siteFileSchema.safeParse(data ?? {});
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => `${path}: ${i.path.join('.') || '(top level)'}: ${i.message}`) };
  const refused = siteTextRefusals(parsed.data);
  return refused.length > 0 ? { ok: false, problems: refused.map((r) => `${path}: ${r.message}`) } : { ok: true, site: parsed.data };
}
