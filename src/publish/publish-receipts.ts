/**
 * Publishing receipt files as a site, as a library call: every receipt file
 * (or folder of them) recomputed from the evidence beside it, the prices and
 * the publisher's site text read, then the whole set through the provenance
 * gate and written. It returns the files written or throws PublishRefused
 * naming every problem; `goodput publish` only parses flags and prints, and
 * `goodput verify` recomputes a site's receipts with the same code.
 */
import type { KeyObject } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { LIMITS } from '../core/index.js';
import { FileRefusal, readRegularText } from '../files/index.js';
import { TOOL_VERSION } from '../runner/index.js';
import { NO_PRICES, type Prices, readPrices } from './prices.js';
import { publishSite } from './publish-site.js';
import { type EvidenceRefs, recomputeReceipt } from './receipt-file.js';
import { measurersOf } from './measurers.js';
import { requireSignedRefusals } from './standing.js';
import type { Receipt } from './receipt-schema.js';
import { readSiteFile } from './site-file.js';

/** The prices a site was published with, shipped so a reader can recompute it. */
export const PRICES_FILE = 'prices.json';
/** The publisher's site text, shipped for the same reason. */
export const SITE_FILE = 'site.json';

/** Nothing was published: the heading says why, `problems` lists every problem, one line each. */
export class PublishRefused extends Error {
  constructor(
    readonly problems: readonly string[],
    heading = 'nothing published:',
  ) {
    super(`${heading}\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'PublishRefused';
  }
}

export interface PublishReceiptsInput {
  /** Receipt files (goodput receipt create) or folders of them. */
  receipts: readonly string[];
  /** Rented list prices, YAML or JSON. */
  prices?: string;
  /** The publisher's statements of what the site does not claim, YAML or JSON. */
  site?: string;
  /** The site folder, replaced whole only when everything passes. */
  out: string;
  /** The key the manifest is signed with, asked for only once everything else has passed. */
  signer?: () => Promise<KeyObject>;
  /** The publishing day (YYYY-MM-DD); default today (UTC). */
  today?: string;
  /** goodput's version, recorded as the generator; default this one. */
  generator?: string;
  /** The site-versions file a signed site is numbered from and recorded in (site-versions.ts); none when absent. */
  versions?: string;
  /** The newest version the key signed before, as the publisher states it. */
  previous?: number;
  /** The measurer keys the site lists (public key PEMs, each named by where it came from in a problem). */
  measurerKeys?: ReadonlyArray<{ name: string; pem: string }>;
  /** Refuse any run or quality score not signed by a listed measurer key (publish --require-signed). */
  requireSigned?: boolean;
}

/** A receipt file's text, bounded like every input file; a problem line naming `what` when it cannot be read. */
async function receiptText(what: string, path: string): Promise<{ ok: true; value: string } | { ok: false; problem: string }> {
  try {
    return { ok: true, value: await readRegularText(path, { bytes: LIMITS.inputFileBytes.max, what: LIMITS.inputFileBytes.what }) };
  } catch (err) {
    if (err instanceof FileRefusal) return { ok: false, problem: `${what}: ${err.message}` };
    return { ok: false, problem: `${what}: ${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})` };
  }
}

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
export async function recomputeAll(
  files: readonly string[],
  today: string,
  what = '--receipts',
  evidenceDir?: string,
  measurers?: ReadonlySet<string>,
): Promise<{ receipts: Receipt[]; shipped: Map<string, string | Buffer>; problems: string[] }> {
  const receipts: Receipt[] = [];
  const shipped = new Map<string, string | Buffer>();
  const problems: string[] = [];
  for (const file of files) {
    const text = await receiptText(what, file);
    if (!text.ok) {
      problems.push(text.problem);
      continue;
    }
    const r = await recomputeReceipt(text.value, evidenceDir ?? dirname(file), today);
    if (!r.ok) {
      problems.push(...r.refusals.map((x) => `${what}: ${file}: ${x.message}`));
      continue;
    }
    if (measurers !== undefined) {
      const refs = (JSON.parse(text.value) as { evidence: EvidenceRefs }).evidence;
      problems.push(...requireSignedRefusals(r.signatures, refs, measurers).map((x) => `${what}: ${file}: ${x.message}`));
    }
    if (receipts.some((x) => x.id === r.receipt.id)) problems.push(`${what}: ${file}: id ${r.receipt.id} is already published by another receipt file`);
    receipts.push(r.receipt);
    shipped.set(`receipts/${r.receipt.id}.json`, text.value);
    for (const [path, gz] of r.files) shipped.set(path, gz);
  }
  return { receipts, shipped, problems };
}

/** Publishes the receipts as a site in `input.out`; returns the files written, or throws PublishRefused with every problem. */
export async function publishReceipts(input: PublishReceiptsInput): Promise<string[]> {
  const today = input.today ?? new Date().toISOString().slice(0, 10);
  const found = await receiptFiles(input.receipts);
  const listed = input.measurerKeys === undefined || input.measurerKeys.length === 0 ? null : measurersOf(input.measurerKeys);
  const required = input.requireSigned === true ? new Set(listed?.ok ? listed.measurers.keys.map((k) => k.keyid) : []) : undefined;
  const { receipts, shipped, problems } = await recomputeAll(found.files, today, '--receipts', undefined, required);
  problems.unshift(...found.problems, ...(listed !== null && !listed.ok ? listed.problems : []));
  let prices: Prices = NO_PRICES;
  if (input.prices !== undefined) {
    const p = await readPrices(input.prices);
    if (p.ok) prices = p.prices;
    else problems.push(...p.problems.map((x) => `--prices: ${x}`));
  }
  if (input.prices !== undefined) shipped.set(PRICES_FILE, JSON.stringify(prices, null, 2) + '\n');
  let notClaimed: readonly string[] | undefined;
  if (input.site !== undefined) {
    const s = await readSiteFile(input.site);
    if (s.ok) {
      notClaimed = s.site.notClaimed;
      shipped.set(SITE_FILE, JSON.stringify(s.site, null, 2) + '\n');
    } else problems.push(...s.problems.map((x) => `--site: ${x}`));
  }
  if (problems.length > 0) throw new PublishRefused(problems);
  const signer = input.signer === undefined ? undefined : await input.signer();
  const out = await publishSite({
    receipts,
    prices,
    outDir: input.out,
    generator: input.generator ?? TOOL_VERSION,
    shipped,
    today,
    notClaimed,
    ...(signer === undefined ? {} : { signer }),
    ...(input.versions === undefined ? {} : { versions: input.versions }),
    ...(input.previous === undefined ? {} : { previous: input.previous }),
    ...(listed?.ok ? { measurers: listed.measurers } : {}),
  });
  if (!out.ok) {
    const why = out.violations.length > 0 ? `nothing published: the provenance gate refused ${out.violations.length} number(s):` : 'nothing published:';
    throw new PublishRefused([...out.problems, ...out.violations.map((v) => v.message)], why);
  }
  return out.files;
}
