/**
 * `publishSite`: receipts and prices in, the static site out — after the
 * gate. The site view-model is built once; the gate checks the dataset built
 * from it, and the pages, dataset.json and share images are all rendered from
 * that same model. On any violation nothing is rendered or written. A signed
 * site is numbered in its key's sequence (site-versions.ts) and states its
 * version and publish time under the signature.
 */
import { createHash, type KeyObject } from 'node:crypto';
import { datasetOf } from './dataset.js';
import { gateDataset, gateSources, type Violation } from './gate.js';
import { type Prices, priceRefusals } from './prices.js';
import type { Receipt } from './receipt-schema.js';
import { indexPage } from './render-index-page.js';
import { receiptPage } from './render-receipt-page.js';
import { sharePng } from './share-image.js';
import { type SiteHistory, siteView } from './site-view.js';
import { existsSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { changelogRefusals, previousChangelog } from './changelog.js';
import { MANIFEST_FILE, MANIFEST_VERSION_FRESH, type SiteFreshness, keyIdOf, manifestOf, openManifest, signedManifest } from './site-signing.js';
import { type SiteVersions, readSiteVersions, withSeen, writeSiteVersions } from './site-versions.js';
import { readBounded } from './site-walk.js';
import { MEASURERS_FILE, type Measurers, measurersText } from './measurers.js';
import { LIMITS } from '../core/index.js';
import { SiteTargetError, siteTargetProblem, writeSite } from './write-site.js';

export interface PublishInput {
  receipts: readonly Receipt[];
  prices: Prices;
  outDir: string;
  generator: string;
  /** Files shipped as they are beside the rendered ones (the receipts and their evidence, the prices), by path. */
  shipped?: ReadonlyMap<string, string | Buffer>;
  /** The publisher's statements of what the site does not claim (site file); default goodput's own. */
  notClaimed?: readonly string[];
  /** The publishing day (YYYY-MM-DD) the changelog records; default today (UTC). */
  today?: string;
  /** The publisher's Ed25519 private key: the site's manifest is signed with it and its id shown on every page. */
  signer?: KeyObject;
  /** The site-versions file (site-versions.ts) a signed site's version is numbered from and recorded in; neither read nor written when absent. */
  versions?: string;
  /** The newest site version the key signed before, as the publisher states it (goodput publish --previous). */
  previous?: number;
  /** The instant the signed manifest states as the publish time (ISO); default now. */
  publishedAt?: string;
  /** The measurer keys the site lists (measurers.ts), shipped as measurers.json; none when absent. */
  measurers?: Measurers;
}

export type PublishOutcome = { ok: true; files: string[]; datasetSha256: string } | { ok: false; violations: Violation[]; problems: string[] };

/** Every file of the site, by name, without writing anything. */
export function renderSite(
  receipts: readonly Receipt[],
  prices: Prices,
  generator: string,
  history?: SiteHistory,
  notClaimed?: readonly string[],
  signer: string | null = null,
  measurers: readonly string[] = [],
): { violations: Violation[]; files: Map<string, string | Buffer>; datasetSha256: string } {
  const refused = (violations: Violation[]) => ({ violations, files: new Map<string, string | Buffer>(), datasetSha256: '' });
  const broken = gateSources(receipts, prices);
  if (broken.length > 0) return refused(broken);
  const site = siteView(receipts, prices, generator, history, notClaimed, signer, measurers);
  const dataset = datasetOf(site);
  const violations = gateDataset(dataset);
  if (violations.length > 0) return refused(violations);
  const text = JSON.stringify(dataset, null, 2) + '\n';
  const sha = createHash('sha256').update(text).digest('hex');
  const files = new Map<string, string | Buffer>([
    ['dataset.json', text],
    ['index.html', indexPage(site, sha)],
  ]);
  for (const v of site.receipts) {
    files.set(v.page, receiptPage(v, sha, generator, site.notClaimed, signer));
    files.set(`${v.receipt.id}.png`, sharePng(v));
  }
  return { violations, files, datasetSha256: sha };
}

export async function publishSite(input: PublishInput): Promise<PublishOutcome> {
  const target = await siteTargetProblem(input.outDir);
  const previous = target === null ? await previousChangelog(input.outDir) : { entries: [] };
  const problem = target ?? ('problem' in previous ? previous.problem : null);
  const history = { previous: 'entries' in previous ? previous.entries : [], today: input.today ?? new Date().toISOString().slice(0, 10) };
  const forged = changelogRefusals(history.previous, input.receipts, history.today, (id) => existsSync(join(input.outDir, 'receipts', `${id}.json`))).map(
    (r) => `--out: ${join(input.outDir, 'dataset.json')}: ${r.message}`,
  );
  const { violations, files, datasetSha256 } = renderSite(
    input.receipts,
    input.prices,
    input.generator,
    history,
    input.notClaimed,
    input.signer === undefined ? null : keyIdOf(input.signer),
    input.measurers?.keys.map((k) => k.keyid) ?? [],
  );
  const problems = [...(problem === null ? [] : [problem]), ...forged, ...priceRefusals(input.prices, history.today).map((r) => `--prices: ${r.message}`)];
  const numbered = input.signer === undefined || problems.length > 0 || violations.length > 0 ? null : await nextVersion(input, keyIdOf(input.signer));
  if (numbered !== null && !numbered.ok) problems.push(numbered.problem);
  if (problems.length > 0 || violations.length > 0) return { ok: false, violations, problems };
  for (const [name, body] of input.shipped ?? []) files.set(name, body);
  if (input.measurers !== undefined) files.set(MEASURERS_FILE, measurersText(input.measurers));
  // Every published receipt is kept in the site: the next publish checks its changelog against them.
  for (const r of input.receipts) if (!files.has(`receipts/${r.id}.json`)) files.set(`receipts/${r.id}.json`, JSON.stringify(r, null, 2) + '\n');
  try {
    // Signed last, over every other file: what a reader checks the site against.
    if (input.signer !== undefined && numbered?.ok) {
      const text = signedManifest(manifestOf(files, input.generator, input.signer, numbered.fresh), input.signer);
      files.set(MANIFEST_FILE, text);
      // Recorded before the site is written: a failed write then skips a number, never reuses one.
      const unrecorded = await recordPublished(input.versions, numbered, keyIdOf(input.signer), text);
      if (unrecorded !== null) return { ok: false, violations: [], problems: [unrecorded] };
    }
    await writeSite(input.outDir, files);
  } catch (err) {
    if (err instanceof SiteTargetError) return { ok: false, violations: [], problems: [err.message] };
    throw err;
  }
  return { ok: true, files: [...files.keys()], datasetSha256 };
}

type Numbered = { ok: true; fresh: SiteFreshness; state: SiteVersions | null } | { ok: false; problem: string };

/** The newest version `keyid` signed in the site already at `outDir`: 0 when there is none, it is another key's, or it predates versions. */
async function versionAtOut(outDir: string, keyid: string): Promise<{ ok: true; version: number } | { ok: false; problem: string }> {
  const file = join(outDir, MANIFEST_FILE);
  if ((await lstat(file).catch(() => null)) === null) return { ok: true, version: 0 };
  const read = await readBounded(file, LIMITS.inputFileBytes.max);
  const opened = read.ok ? openManifest(read.bytes.toString('utf8'), null) : null;
  if (opened === null || !opened.ok) {
    const why = read.ok ? (opened?.ok === false ? opened.problems.join('; ') : 'unreadable') : read.problem;
    return {
      ok: false,
      problem: `--out: ${file}: the site there has a signed manifest that does not open (${why}), so the next site's version cannot be numbered after it; pass --previous N [rule: freshness]`,
    };
  }
  const m = opened.manifest;
  return { ok: true, version: m.signer.keyid === keyid && m.version === MANIFEST_VERSION_FRESH ? m.siteVersion : 0 };
}

/**
 * A signed site's version: one more than the newest of the version of the
 * site already at --out (when the same key signed it), the newest version this
 * machine recorded for the key, and the publisher's --previous.
 */
async function nextVersion(input: PublishInput, keyid: string): Promise<Numbered> {
  const state = input.versions === undefined ? null : await readSiteVersions(input.versions);
  if (state !== null && !state.ok) return state;
  const out = await versionAtOut(input.outDir, keyid);
  if (!out.ok) return out;
  const recorded = state?.state.keys[keyid]?.siteVersion ?? 0;
  const siteVersion = Math.max(out.version, recorded, input.previous ?? 0) + 1;
  return { ok: true, fresh: { siteVersion, publishedAt: input.publishedAt ?? new Date().toISOString() }, state: state?.state ?? null };
}

/** The publisher's own machine remembers the version it signed, as a reader's would. */
async function recordPublished(file: string | undefined, n: Extract<Numbered, { ok: true }>, keyid: string, envelope: string): Promise<string | null> {
  if (file === undefined || n.state === null) return null;
  const opened = openManifest(envelope, null);
  if (!opened.ok) return opened.problems.join('; ');
  const next = withSeen(n.state, keyid, { ...n.fresh, manifestSha256: opened.payloadSha256, seenAt: new Date().toISOString() });
  if (!next.ok) return `${file}: ${next.problem}`;
  return writeSiteVersions(file, next.state).then(
    () => null,
    (err: NodeJS.ErrnoException) => `${file}: cannot record the site's version (${err.code ?? err.message}); nothing published [rule: freshness]`,
  );
}
