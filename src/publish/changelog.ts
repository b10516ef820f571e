/**
 * The site's changelog is a history, not a listing: each publish carries the
 * previous site's entries forward (read from its dataset.json), keeps the day a
 * receipt was first added and the price date it was added with, adds the new
 * receipts, and marks a receipt no longer published as withdrawn that day.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { carriedTitleRefusals } from './allow-list.js';
import { dayRefusal } from './receipt-dates.js';
import { type Refusal, refusal } from './refusal.js';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)');

export const changelogEntrySchema = z.object({
  receipt: z.string().min(1),
  title: z.string().min(1),
  page: z.string().min(1),
  addedOn: day,
  measuredAt: day,
  /** The as-of date of the list prices published with the receipt when it was added; null when none were. */
  pricesCapturedAt: day.nullable(),
  withdrawnOn: day.nullable(),
});

export type ChangelogEntry = z.infer<typeof changelogEntrySchema>;

export interface Addition {
  receipt: string;
  title: string;
  page: string;
  measuredAt: string;
}

/** Previous entries first kept as they were (withdrawn once absent), then the new receipts; newest addition first. */
export function mergeChangelog(
  previous: readonly ChangelogEntry[],
  current: readonly Addition[],
  pricesCapturedAt: string | null,
  today: string,
): ChangelogEntry[] {
  const now = new Set(current.map((c) => c.receipt));
  const kept = previous.map((e) =>
    now.has(e.receipt) || e.withdrawnOn !== null ? { ...e, withdrawnOn: now.has(e.receipt) ? null : e.withdrawnOn } : { ...e, withdrawnOn: today },
  );
  const known = new Set(previous.map((e) => e.receipt));
  // Keys in the schema's order, like entries read back: a site rendered again is byte for byte the same.
  const added = current
    .filter((c) => !known.has(c.receipt))
    .map((c) => ({ receipt: c.receipt, title: c.title, page: c.page, addedOn: today, measuredAt: c.measuredAt, pricesCapturedAt, withdrawnOn: null }));
  return [...added, ...kept].sort((a, b) => b.addedOn.localeCompare(a.addedOn) || a.receipt.localeCompare(b.receipt));
}

/**
 * The changelog of the site already at `dir`: none when there is no site yet.
 * @returns a problem (the history would be lost) when its dataset.json cannot be read.
 */
export async function previousChangelog(dir: string): Promise<{ entries: ChangelogEntry[] } | { problem: string }> {
  const file = join(dir, 'dataset.json');
  if (!existsSync(file)) return { entries: [] };
  const lost = (why: string) => ({
    problem: `--out: ${file} ${why}, so the site's changelog cannot be carried forward; move the old site away to start a new history`,
  });
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    return lost(`is not readable JSON (${(err as Error).message})`);
  }
  const parsed = z.object({ changelog: z.array(changelogEntrySchema) }).safeParse(doc);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    return lost(`has no valid changelog (changelog.${i?.path.slice(1).join('.')}: ${i?.message})`);
  }
  return { entries: parsed.data.changelog };
}

/**
 * The history read from an existing site is checked before it is carried
 * forward: real days in order (measured ≤ added ≤ withdrawn ≤ today), an entry
 * still published names a receipt the site shipped (receipts/<id>.json), and an
 * entry for a receipt published again states that receipt's title and date.
 */
export function changelogRefusals(
  previous: readonly ChangelogEntry[],
  current: ReadonlyArray<{ id: string; title: string; measuredAt: string }>,
  today: string,
  shipped: (receiptId: string) => boolean,
): Refusal[] {
  const out: Refusal[] = [];
  const now = new Map(current.map((r) => [r.id, r]));
  previous.forEach((e, i) => {
    const field = `changelog[${i}] (${e.receipt})`;
    const bad = (why: string) => out.push(refusal('changelog-history', field, why));
    for (const [k, d] of [
      ['measuredAt', e.measuredAt],
      ['addedOn', e.addedOn],
      ['withdrawnOn', e.withdrawnOn],
      ['pricesCapturedAt', e.pricesCapturedAt],
    ] as const) {
      if (d === null) continue;
      const r = dayRefusal(`${field}.${k}`, d, today);
      if (r !== null) out.push({ ...r, rule: 'changelog-history', message: r.message.replace('[rule: date]', '[rule: changelog-history]') });
    }
    if (e.addedOn < e.measuredAt) bad(`was added on ${e.addedOn}, before it was measured (${e.measuredAt})`);
    if (e.withdrawnOn !== null && e.withdrawnOn < e.addedOn) bad(`was withdrawn on ${e.withdrawnOn}, before it was added (${e.addedOn})`);
    if (e.withdrawnOn === null && !shipped(e.receipt))
      bad(`is listed as published, but the site holds no receipts/${e.receipt}.json; the history names a receipt that never existed there`);
    const r = now.get(e.receipt);
    // A title whose receipt is published again is that receipt's (checked with it); any other reaches the page as carried.
    if (r === undefined) out.push(...carriedTitleRefusals(`${field}.title`, e.title));
    if (r !== undefined && (r.title !== e.title || r.measuredAt !== e.measuredAt)) {
      bad(`states ${JSON.stringify(e.title)} measured ${e.measuredAt}, but the receipt recomputes to ${JSON.stringify(r.title)} measured ${r.measuredAt}`);
    }
  });
  return out;
}
