/**
 * A reader's check of a published site, in the order that keeps a hostile
 * folder harmless: every entry lstat'ed first (symlinks, FIFOs and devices
 * refused before anything is opened), then the signed manifest (every file's
 * size and SHA-256, signed by the key the reader trusts), then publish's own
 * checks again (generator, changelog, price dates), then every receipt
 * recomputed from the evidence the site ships and the site rendered again in
 * memory: dataset.json number by number, pages and images byte by byte.
 * Last, a signed site's version against the newest its key was seen at.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { changelogEntrySchema, changelogRefusals } from './changelog.js';
import { EVIDENCE_DIR } from './evidence-files.js';
import { NO_PRICES, type Prices, priceRefusals, readPrices } from './prices.js';
import { renderSite } from './publish-site.js';
import { PRICES_FILE, SITE_FILE, recomputeAll } from './publish-receipts.js';
import { differenceText, differences } from './same-numbers.js';
import { readSiteFile } from './site-file.js';
import { MANIFEST_FILE, MANIFEST_VERSION_FRESH, type SiteManifest, type Trust, openManifest } from './site-signing.js';
import { type SiteVersions, freshnessProblem, readSiteVersions, withSeen, writeSiteVersions } from './site-versions.js';
import { type SiteTree, listSome, readBounded, walkSite } from './site-walk.js';
import { parseStrictJson } from './strict-json.js';
import { MEASURERS_FILE, measurersText, readMeasurers } from './measurers.js';
import { LIMITS } from '../core/index.js';
import { TOOL_VERSION } from '../runner/index.js';

const publishedSchema = z.object({ generator: z.string().regex(/^goodput [0-9A-Za-z.+-]{1,40}$/), changelog: z.array(changelogEntrySchema) });

export interface VerifyOptions {
  today?: string;
  trust?: Trust;
  version?: string;
  /** The site-versions file (site-versions.ts): a signed site older than the newest its key was seen at is refused, and a newer one recorded; none when absent. */
  versions?: string;
  /** The present instant (ms) a publish time may not be after; default now. */
  now?: number;
}

/**
 * A signed site's place in its key's sequence: its version and publish time,
 * and the newest version seen before (null: none); or "unversioned", a site
 * signed before sites carried a version, whose rollback cannot be checked.
 */
export type Freshness = { siteVersion: number; publishedAt: string; seenBefore: number | null } | 'unversioned';

/** What a site that verifies is: its receipts and files, who signed it, and whether that is the key the reader trusts. */
export interface VerifiedSite {
  receipts: number;
  files: number;
  signer: string | null;
  trusted: boolean;
  /** Null for an unsigned site. */
  freshness: Freshness | null;
}

/** The site does not verify: `lines` names every file or number that differs, one line each. */
export class SiteNotVerified extends Error {
  constructor(
    readonly dir: string,
    readonly lines: readonly string[],
  ) {
    super(`${dir} does not verify:\n${lines.map((l) => `  ${l}`).join('\n')}`);
    this.name = 'SiteNotVerified';
  }
}

/** Files and folders on disk that the manifest does not list, and listed files missing or different. */
async function manifestProblems(dir: string, tree: SiteTree, m: SiteManifest): Promise<string[]> {
  const lines: string[] = [];
  const listed = new Map(m.files.map((f) => [f.path, f]));
  const extra = [...tree.files.keys()].filter((p) => p !== MANIFEST_FILE && !listed.has(p));
  if (extra.length > 0)
    lines.push(`${listSome(extra)}: not in the signed manifest (${extra.length} unexpected ${extra.length === 1 ? 'file' : 'files'}) [rule: signature]`);
  const folders = tree.dirs.filter((d) => !m.files.some((f) => f.path.startsWith(`${d}/`)));
  if (folders.length > 0)
    lines.push(`${listSome(folders.map((d) => `${d}/`))}: folders the signed manifest holds no file in (${folders.length}) [rule: signature]`);
  for (const f of m.files) {
    const size = tree.files.get(f.path);
    if (size === undefined) lines.push(`${f.path}: is in the signed manifest, but not in the site [rule: signature]`);
    else if (size !== f.size) lines.push(`${f.path}: is ${size} bytes; the signed manifest says ${f.size} [rule: signature]`);
    else {
      const read = await readBounded(join(dir, f.path), f.size);
      const sha = read.ok ? createHash('sha256').update(read.bytes).digest('hex') : null;
      if (!read.ok) lines.push(`${f.path}: ${read.problem} [rule: signature]`);
      else if (sha !== f.sha256)
        lines.push(`${f.path}: its SHA-256 is ${sha}; the signed manifest says ${f.sha256}: the file was changed after signing [rule: signature]`);
    }
  }
  return lines;
}

/** Paths on disk the rendering does not produce, files and folders (empty ones included). */
function unexpectedPaths(tree: SiteTree, expected: ReadonlyMap<string, unknown>): string[] {
  const lines: string[] = [];
  const extra = [...tree.files.keys()].filter((p) => !expected.has(p) && p !== MANIFEST_FILE);
  const evidence = extra.filter((p) => p.startsWith(`${EVIDENCE_DIR}/`));
  if (extra.length > 0)
    lines.push(
      `${listSome(extra)}: the site holds ${extra.length === 1 ? 'it' : `these ${extra.length} files`}, but the evidence does not produce ${extra.length === 1 ? 'it' : 'them'}${evidence.length > 0 ? ' (evidence no receipt names)' : ''} [rule: published-equals-recomputed]`,
    );
  const folders = tree.dirs.filter((d) => ![...expected.keys()].some((p) => p.startsWith(`${d}/`)));
  if (folders.length > 0)
    lines.push(`${listSome(folders.map((d) => `${d}/`))}: folders the evidence puts nothing in (${folders.length}) [rule: published-equals-recomputed]`);
  return lines;
}

/**
 * The signed manifest, when the site has one: it must open with the key the
 * reader trusts (or the key it names, when none is given) and list every file
 * as it is. A reader who trusts a key gets no unsigned site.
 */
async function signedManifestOf(
  dir: string,
  tree: SiteTree,
  trust: Trust,
): Promise<{ manifest: SiteManifest | null; trusted: boolean; payloadSha256: string }> {
  if (!tree.files.has(MANIFEST_FILE)) {
    if (trust !== null)
      throw new SiteNotVerified(dir, [`${MANIFEST_FILE}: the site is not signed, so nothing shows that the key you trust stands behind it [rule: signature]`]);
    return { manifest: null, trusted: false, payloadSha256: '' };
  }
  const read = await readBounded(join(dir, MANIFEST_FILE), LIMITS.inputFileBytes.max);
  if (!read.ok) throw new SiteNotVerified(dir, [`${MANIFEST_FILE}: ${read.problem} [rule: signature]`]);
  const opened = openManifest(read.bytes.toString('utf8'), trust);
  if (!opened.ok) throw new SiteNotVerified(dir, opened.problems);
  const lines = await manifestProblems(dir, tree, opened.manifest);
  if (lines.length > 0) throw new SiteNotVerified(dir, lines);
  return { manifest: opened.manifest, trusted: opened.trusted, payloadSha256: opened.payloadSha256 };
}

/** Every file the evidence renders that the site lacks or holds otherwise (dataset.json number by number), and every path it does not render. */
async function renderedDifferences(dir: string, tree: SiteTree, expected: ReadonlyMap<string, string | Buffer>, datasetText: string): Promise<string[]> {
  const lines: string[] = [];
  for (const [name, body] of expected) {
    const size = tree.files.get(name);
    const want = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
    if (size === undefined) {
      lines.push(`${name}: the evidence renders it, but the site does not have it [rule: published-equals-recomputed]`);
      continue;
    }
    const have = size === want.length ? await readBounded(join(dir, name), want.length) : null;
    if (have !== null && have.ok && have.bytes.equals(want)) continue;
    if (name === 'dataset.json') {
      const diffs = differences(JSON.parse(datasetText), JSON.parse(String(body)), '', false);
      for (const d of diffs.slice(0, 20)) lines.push(`dataset.json: ${d.path}: ${differenceText(d, 'the evidence gives')} [rule: published-equals-recomputed]`);
      if (diffs.length === 0) lines.push('dataset.json: its bytes differ from the rendering (layout or key order) [rule: published-equals-recomputed]');
    } else lines.push(`${name}: differs from what the evidence renders [rule: published-equals-recomputed]`);
  }
  lines.push(...unexpectedPaths(tree, expected));
  return lines;
}

/** Verifies the site in `dir` and says what it found; throws SiteNotVerified naming every difference. */
export async function verifySite(dir: string, o: VerifyOptions = {}): Promise<VerifiedSite> {
  const today = o.today ?? new Date().toISOString().slice(0, 10);
  const version = o.version ?? TOOL_VERSION;
  const fail = (lines: string[]) => new SiteNotVerified(dir, lines);
  let tree: SiteTree;
  try {
    tree = await walkSite(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw fail([
      `SITE_DIR: ${dir} ${code === 'ENOENT' ? 'does not exist' : code === 'ENOTDIR' ? 'is not a folder' : `cannot be read (${code ?? String(err)})`}`,
    ]);
  }
  if (tree.problems.length > 0) throw fail(tree.problems);
  // Read first, so a broken state file is named before any work; checked and written only once the site verifies.
  const state = o.versions === undefined ? null : await readSiteVersions(o.versions);
  if (state !== null && !state.ok) throw fail([state.problem]);
  const { manifest, trusted, payloadSha256 } = await signedManifestOf(dir, tree, o.trust ?? null);
  if (manifest?.version === MANIFEST_VERSION_FRESH && Date.parse(manifest.publishedAt) > (o.now ?? Date.now()) + CLOCK_SLACK_MS)
    throw fail([`${MANIFEST_FILE}: publishedAt: ${manifest.publishedAt} is in the future: a publish time after now is an edit [rule: date]`]);
  const datasetRead = tree.files.has('dataset.json')
    ? await readBounded(join(dir, 'dataset.json'), LIMITS.inputFileBytes.max)
    : { ok: false as const, problem: 'does not exist' };
  if (!datasetRead.ok) throw fail([`SITE_DIR: ${join(dir, 'dataset.json')} ${datasetRead.problem}`]);
  const datasetText = datasetRead.bytes.toString('utf8');
  const strict = parseStrictJson(datasetText);
  const published = strict.ok ? publishedSchema.safeParse(strict.value) : null;
  if (published === null || !published.success)
    throw fail([`dataset.json: ${strict.ok ? 'has no generator or changelog a goodput site carries' : strict.problem}`]);
  const generator = published.data.generator.slice('goodput '.length);
  if (generator !== version)
    throw fail([
      `dataset.json: generator: the site was rendered by goodput ${generator}, and this is goodput ${version}; verify it with goodput ${generator} (another version renders pages differently) [rule: generator]`,
    ]);
  if (manifest !== null && manifest.generator !== published.data.generator)
    throw fail([`${MANIFEST_FILE}: was signed for ${manifest.generator}, but dataset.json names ${published.data.generator} [rule: generator]`]);
  const names = [...tree.files.keys()].filter((p) => /^receipts\/[^/]+\.json$/.test(p)).sort();
  if (names.length === 0) throw fail(['receipts/: the site ships no receipt, so nothing it shows can be recomputed']);
  const { receipts, shipped, problems } = await recomputeAll(
    names.map((n) => join(dir, n)),
    today,
    'receipts',
    dir,
  );
  let prices: Prices = NO_PRICES;
  if (tree.files.has(PRICES_FILE)) {
    const p = await readPrices(join(dir, PRICES_FILE));
    if (p.ok) prices = p.prices;
    else problems.push(...p.problems);
    shipped.set(PRICES_FILE, JSON.stringify(prices, null, 2) + '\n');
  }
  let measurers: readonly string[] = [];
  if (tree.files.has(MEASURERS_FILE)) {
    const m = await readMeasurers(join(dir, MEASURERS_FILE));
    if (m.ok) {
      measurers = m.measurers.keys.map((k) => k.keyid);
      shipped.set(MEASURERS_FILE, measurersText(m.measurers));
    } else problems.push(...m.problems);
  }
  let notClaimed: readonly string[] | undefined;
  if (tree.files.has(SITE_FILE)) {
    const s = await readSiteFile(join(dir, SITE_FILE));
    if (s.ok) notClaimed = s.site.notClaimed;
    else problems.push(...s.problems);
    shipped.set(SITE_FILE, JSON.stringify(s.ok ? s.site : {}, null, 2) + '\n');
  }
  // Publish's own checks, again: the history the site states and the dates of its prices.
  problems.push(
    ...changelogRefusals(published.data.changelog, receipts, today, (id) => tree.files.has(`receipts/${id}.json`)).map((r) => `dataset.json: ${r.message}`),
  );
  problems.push(...priceRefusals(prices, today).map((r) => `${PRICES_FILE}: ${r.message}`));
  if (problems.length > 0) throw fail(problems);
  const signer = manifest?.signer.keyid ?? null;
  const site = renderSite(receipts, prices, generator, { previous: published.data.changelog, today }, notClaimed, signer, measurers);
  if (site.violations.length > 0) throw fail(site.violations.map((v) => v.message));
  const expected = new Map([...site.files, ...shipped]);
  const lines = await renderedDifferences(dir, tree, expected, datasetText);
  if (lines.length > 0) throw fail(lines);
  const freshness = manifest === null ? null : await checkedFreshness(dir, manifest, payloadSha256, state?.state ?? null, o.versions);
  return { receipts: receipts.length, files: expected.size, signer, trusted, freshness };
}

/** Clocks differ: a publish time up to this far ahead of the reader's clock is not refused. */
const CLOCK_SLACK_MS = 10 * 60_000;

/** The site's version against the newest its key was seen at, recorded when it is newer; throws naming a rollback or an equivocation. */
async function checkedFreshness(
  dir: string,
  m: SiteManifest,
  manifestSha256: string,
  state: SiteVersions | null,
  file: string | undefined,
): Promise<Freshness> {
  if (m.version !== MANIFEST_VERSION_FRESH) return 'unversioned';
  const keyid = m.signer.keyid;
  const site = { siteVersion: m.siteVersion, publishedAt: m.publishedAt, manifestSha256 };
  const seenBefore = state?.keys[keyid]?.siteVersion ?? null;
  if (state === null || file === undefined) return { siteVersion: m.siteVersion, publishedAt: m.publishedAt, seenBefore };
  const problem = freshnessProblem(state, keyid, site);
  if (problem !== null) throw new SiteNotVerified(dir, [`${MANIFEST_FILE}: ${problem}`]);
  const next = withSeen(state, keyid, { ...site, seenAt: new Date().toISOString() });
  if (!next.ok) throw new SiteNotVerified(dir, [`${file}: ${next.problem}`]);
  if (next.state !== state)
    await writeSiteVersions(file, next.state).catch((err: NodeJS.ErrnoException) => {
      throw new SiteNotVerified(dir, [`${file}: cannot record the site's version (${err.code ?? err.message}) [rule: freshness]`]);
    });
  return { siteVersion: m.siteVersion, publishedAt: m.publishedAt, seenBefore };
}
