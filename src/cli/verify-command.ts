/**
 * `goodput verify SITE_DIR`: a reader's check of a published site. Every
 * receipt the site ships (receipts/<id>.json) is recomputed from the evidence
 * it ships (evidence/<sha256>.json.gz) with the prices it ships (prices.json),
 * the site is rendered again in memory, and every published file must be the
 * one rendered: dataset.json number by number, the pages and images byte by
 * byte. Exit 0 only when all match; otherwise each difference is named.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { EVIDENCE_DIR, NO_PRICES, type Prices, changelogEntrySchema, differenceText, differences, parseStrictJson, readPrices, readSiteFile, renderSite } from '../publish/index.js';
import { CliError, EXIT } from './exit-codes.js';
import { readInputText } from './json-input.js';
import { PRICES_FILE, SITE_FILE, recomputeAll } from './publish-command.js';

const publishedSchema = z.object({ generator: z.string().regex(/^goodput [0-9A-Za-z.+-]{1,40}$/), changelog: z.array(changelogEntrySchema) });

/** Every file under `dir`, by path relative to it ('/'-separated), one folder deep. */
async function siteFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.isFile()) out.push(e.name);
    else if (e.isDirectory()) for (const f of await readdir(join(dir, e.name))) out.push(`${e.name}/${f}`);
  }
  return out.sort();
}

export async function verifySite(dir: string, today = new Date().toISOString().slice(0, 10)): Promise<{ receipts: number; files: number }> {
  const fail = (lines: string[]) => new CliError(EXIT.usage, `${dir} does not verify:\n${lines.map((l) => `  ${l}`).join('\n')}`);
  const datasetText = await readInputText('SITE_DIR', join(dir, 'dataset.json'));
  if (!datasetText.ok) throw fail(datasetText.problems);
  const strict = parseStrictJson(datasetText.value);
  const published = strict.ok ? publishedSchema.safeParse(strict.value) : null;
  if (published === null || !published.success) throw fail([`dataset.json: ${strict.ok ? 'has no generator or changelog a goodput site carries' : strict.problem}`]);
  const receiptDir = join(dir, 'receipts');
  const names = existsSync(receiptDir) ? (await readdir(receiptDir)).filter((n) => n.endsWith('.json')).sort() : [];
  if (names.length === 0) throw fail(['receipts/: the site ships no receipt, so nothing it shows can be recomputed']);
  const { receipts, shipped, problems } = await recomputeAll(names.map((n) => join(receiptDir, n)), today, 'receipts', dir);
  let prices: Prices = NO_PRICES;
  if (existsSync(join(dir, PRICES_FILE))) {
    const p = await readPrices(join(dir, PRICES_FILE));
    if (p.ok) prices = p.prices;
    else problems.push(...p.problems);
    shipped.set(PRICES_FILE, JSON.stringify(prices, null, 2) + '\n');
  }
  let notClaimed: readonly string[] | undefined;
  if (existsSync(join(dir, SITE_FILE))) {
    const s = await readSiteFile(join(dir, SITE_FILE));
    if (s.ok) notClaimed = s.site.notClaimed;
    else problems.push(...s.problems);
    shipped.set(SITE_FILE, JSON.stringify(s.ok ? s.site : {}, null, 2) + '\n');
  }
  if (problems.length > 0) throw fail(problems);
  const generator = published.data.generator.slice('goodput '.length);
  const site = renderSite(receipts, prices, generator, { previous: published.data.changelog, today }, notClaimed);
  if (site.violations.length > 0) throw fail(site.violations.map((v) => v.message));
  const lines: string[] = [];
  const expected = new Map([...site.files, ...shipped]);
  for (const [name, body] of expected) {
    const path = join(dir, name);
    if (!existsSync(path)) {
      lines.push(`${name}: the evidence renders it, but the site does not have it [rule: published-equals-recomputed]`);
      continue;
    }
    const have = await readFile(path);
    if (have.equals(Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'))) continue;
    if (name === 'dataset.json') {
      const diffs = differences(JSON.parse(datasetText.value), JSON.parse(String(body)), '', false);
      for (const d of diffs.slice(0, 20)) lines.push(`dataset.json: ${d.path}: ${differenceText(d, 'the evidence gives')} [rule: published-equals-recomputed]`);
      if (diffs.length === 0) lines.push('dataset.json: its bytes differ from the rendering (layout or key order) [rule: published-equals-recomputed]');
    } else lines.push(`${name}: differs from what the evidence renders [rule: published-equals-recomputed]`);
  }
  for (const name of await siteFiles(dir)) {
    if (!expected.has(name)) lines.push(`${name}: the site holds it, but the evidence does not produce it${name.startsWith(`${EVIDENCE_DIR}/`) ? ' (evidence no receipt names)' : ''} [rule: published-equals-recomputed]`);
  }
  if (lines.length > 0) throw fail(lines);
  return { receipts: receipts.length, files: expected.size };
}

export function registerVerifyCommand(program: Command): void {
  program.command('verify')
    .description('recompute every number of a published site from the evidence it ships; exit 0 only if all match')
    .argument('<site-dir>', 'a folder written by goodput publish')
    .action(async (dir: string) => {
      const v = await verifySite(dir);
      process.stdout.write(`verified ${dir}: ${v.receipts} receipt(s), ${v.files} files, every published number recomputed from the shipped evidence\n`);
    });
}
