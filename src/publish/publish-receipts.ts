/**
 * `goodput publish --receipts FILES|DIR [--prices prices.yaml] --out DIR`: the
 * static public site. Every receipt is read through its schema and the whole
 * set goes through the provenance gate; any problem or violation is listed,
 * one per line, and nothing is written.
 */
import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { NO_PRICES, type Prices, type Receipt, publishSite, readPrices, readSiteFile, recomputeReceipt } from '../publish/index.js';
import { TOOL_VERSION } from '../runner/index.js';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { readInputText } from '../cli/json-input.js';
import { signingKey } from '../cli/keys-command.js';

/** The prices a site was published with, shipped so a reader can recompute it. */
export const PRICES_FILE = 'prices.json';
/** The publisher's site text, shipped for the same reason. */
export const SITE_FILE = 'site.json';

export interface PublishFlags { receipts: string[]; prices?: string; site?: string; out: string; key?: string; sign?: boolean }

/** Files as given; a directory contributes its *.json files, in name order. */
async function receiptFiles(paths: readonly string[]): Promise<{ files: string[]; problems: string[] }> {
  const files: string[] = [];
  const problems: string[] = [];
  for (const p of paths) {
    const s = await stat(p).catch(() => null);
    if (s === null) problems.push(`--receipts: ${p} does not exist`);
    else if (s.isDirectory()) {
      const json = (await readdir(p)).filter((n) => n.endsWith('.json')).sort();
      if (json.length === 0) problems.push(`--receipts: ${p} holds no .json receipt`);
      files.push(...json.map((n) => join(p, n)));
    } else files.push(p);
  }
  return { files, problems };
}

/**
 * Every receipt recomputed from the evidence beside it, with the files a site
 * ships so a reader can recompute it again (goodput verify): each receipt as
 * given, its evidence, and the prices.
 */
export async function recomputeAll(files: readonly string[], today: string, what = '--receipts', evidenceDir?: string): Promise<{ receipts: Receipt[]; shipped: Map<string, string | Buffer>; problems: string[] }> {
  const receipts: Receipt[] = [];
  const shipped = new Map<string, string | Buffer>();
  const problems: string[] = [];
  for (const file of files) {
    const text = await readInputText(what, file);
    if (!text.ok) {
      problems.push(...text.problems);
      continue;
    }
    const r = await recomputeReceipt(text.value, evidenceDir ?? dirname(file), today);
    if (!r.ok) {
      problems.push(...r.refusals.map((x) => `${what}: ${file}: ${x.message}`));
      continue;
    }
    if (receipts.some((x) => x.id === r.receipt.id)) problems.push(`${what}: ${file}: id ${r.receipt.id} is already published by another receipt file`);
    receipts.push(r.receipt);
    shipped.set(`receipts/${r.receipt.id}.json`, text.value);
    for (const [path, gz] of r.files) shipped.set(path, gz);
  }
  return { receipts, shipped, problems };
}

export async function publishFromFlags(f: PublishFlags, today = new Date().toISOString().slice(0, 10)): Promise<string[]> {
  const found = await receiptFiles(f.receipts);
  const { receipts, shipped, problems } = await recomputeAll(found.files, today);
  problems.unshift(...found.problems);
  let prices: Prices = NO_PRICES;
  if (f.prices !== undefined) {
    const p = await readPrices(f.prices);
    if (p.ok) prices = p.prices;
    else problems.push(...p.problems.map((x) => `--prices: ${x}`));
  }
  if (f.prices !== undefined) shipped.set(PRICES_FILE, JSON.stringify(prices, null, 2) + '\n');
  let notClaimed: readonly string[] | undefined;
  if (f.site !== undefined) {
    const s = await readSiteFile(f.site);
    if (s.ok) {
      notClaimed = s.site.notClaimed;
      shipped.set(SITE_FILE, JSON.stringify(s.site, null, 2) + '\n');
    } else problems.push(...s.problems.map((x) => `--site: ${x}`));
  }
  if (problems.length > 0) throw new CliError(EXIT.usage, `nothing published:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  const signer = f.key !== undefined || f.sign === true ? await signingKey(f.key === undefined ? '--sign' : '--key', f.key) : undefined;
  const out = await publishSite({ receipts, prices, outDir: f.out, generator: TOOL_VERSION, shipped, today, notClaimed, ...(signer === undefined ? {} : { signer }) });
  if (!out.ok) {
    const lines = [...out.problems, ...out.violations.map((v) => v.message)];
    const why = out.violations.length > 0 ? `nothing published: the provenance gate refused ${out.violations.length} number(s):` : 'nothing published:';
    throw new CliError(EXIT.usage, `${why}\n${lines.map((l) => `  ${l}`).join('\n')}`);
  }
  return out.files;
}

export function registerPublishCommand(program: Command): void {
  program.command('publish')
    .description('publish receipts as a static site (index, one page per receipt, dataset.json, share images) behind the provenance gate')
    .requiredOption('--receipts <paths...>', 'receipt files (goodput receipt create) or directories of them')
    .option('--prices <file>', 'rented list prices, YAML or JSON (see examples/prices.yaml)')
    .option('--site <file>', 'your statements of what the site does not claim, YAML or JSON (see examples/site.yaml); default goodput\'s own')
    .requiredOption('--out <dir>', 'the site directory (replaced whole, only when everything passes)')
    .option('--sign', 'sign the site\'s manifest with the data folder\'s publisher key (goodput keys create)')
    .option('--key <file>', 'sign with this Ed25519 private key file instead')
    .action(async (f: PublishFlags) => {
      const files = await publishFromFlags(f);
      process.stdout.write(`published ${files.length} files to ${f.out}: ${files.join(', ')}\n`);
    });
}
