/**
 * `publishSite`: receipts and prices in, the static site out — after the
 * gate. The site view-model is built once; the gate checks the dataset built
 * from it, and the pages, dataset.json and share images are all rendered from
 * that same model. On any violation nothing is rendered or written.
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
import { join } from 'node:path';
import { changelogRefusals, previousChangelog } from './changelog.js';
import { MANIFEST_FILE, keyIdOf, manifestOf, signedManifest } from './site-signing.js';
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
): { violations: Violation[]; files: Map<string, string | Buffer>; datasetSha256: string } {
  const refused = (violations: Violation[]) => ({ violations, files: new Map<string, string | Buffer>(), datasetSha256: '' });
  const broken = gateSources(receipts, prices);
  if (broken.length > 0) return refused(broken);
  const site = siteView(receipts, prices, generator, history, notClaimed, signer);
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
  );
  const problems = [...(problem === null ? [] : [problem]), ...forged, ...priceRefusals(input.prices, history.today).map((r) => `--prices: ${r.message}`)];
  if (problems.length > 0 || violations.length > 0) return { ok: false, violations, problems };
  for (const [name, body] of input.shipped ?? []) files.set(name, body);
  // Every published receipt is kept in the site: the next publish checks its changelog against them.
  for (const r of input.receipts) if (!files.has(`receipts/${r.id}.json`)) files.set(`receipts/${r.id}.json`, JSON.stringify(r, null, 2) + '\n');
  // Signed last, over every other file: what a reader checks the site against.
  if (input.signer !== undefined) files.set(MANIFEST_FILE, signedManifest(manifestOf(files, input.generator, input.signer), input.signer));
  try {
    await writeSite(input.outDir, files);
  } catch (err) {
    if (err instanceof SiteTargetError) return { ok: false, violations: [], problems: [err.message] };
    throw err;
  }
  return { ok: true, files: [...files.keys()], datasetSha256 };
}
