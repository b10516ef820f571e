/**
 * `goodput verify SITE_DIR [--key FILE | --key-id ID] [--state-dir DIR]`: a
 * reader's check of a published site (publish's verifySite). With a key the
 * reader trusts, the site's signed manifest must be signed by it; without one,
 * a signed site is checked against the key it names and the output says that
 * nobody vouched for it. A signed site's version is checked against the newest
 * this machine has seen of its key, in the state folder, and recorded.
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import {
  type Freshness,
  KEY_FILE_BYTES,
  SITE_VERSIONS_FILE,
  SiteNotVerified,
  type Trust,
  type VerifiedSite,
  defaultStateDir,
  parseKey,
  readBounded,
  verifySite,
} from '../publish/index.js';
import { CliError, EXIT } from './exit-codes.js';

async function trustOf(f: { key?: string; keyId?: string }): Promise<Trust> {
  if (f.key !== undefined && f.keyId !== undefined) throw new CliError(EXIT.usage, '--key and --key-id: give one key to trust, not both');
  if (f.keyId !== undefined) {
    if (!/^ed25519:[0-9a-f]{32}$/.test(f.keyId))
      throw new CliError(
        EXIT.usage,
        `--key-id: ${JSON.stringify(f.keyId.slice(0, 80))} is not a key id (ed25519: and 32 hex digits, as goodput keys create prints)`,
      );
    return { keyId: f.keyId };
  }
  if (f.key === undefined) return null;
  const read = await readBounded(f.key, KEY_FILE_BYTES);
  if (!read.ok) throw new CliError(EXIT.usage, `--key: ${f.key} ${read.problem}`);
  const key = parseKey(read.bytes.toString('utf8'), 'public');
  if (!key.ok) throw new CliError(EXIT.usage, `--key: ${f.key} ${key.problem}`);
  return { key: key.key };
}

/** The site-versions file: in --state-dir, else GOODPUT_STATE_DIR, $XDG_STATE_HOME/goodput or ~/.local/state/goodput. */
export const siteVersionsFile = (stateDir?: string): string => join(stateDir ?? defaultStateDir(), SITE_VERSIONS_FILE);

/** The line a signed site's version gets: never a pass when rollback could not be checked. */
function freshnessLine(f: Freshness, signer: string): string {
  if (f === 'unversioned') return `unversioned: rollback cannot be checked (the site was signed before signed sites carried a version)`;
  const seen =
    f.seenBefore === null
      ? `the first site by ${signer} seen here`
      : f.seenBefore === f.siteVersion
        ? 'the version seen before, unchanged'
        : `newer than version ${f.seenBefore}, the newest seen before`;
  return `site version ${f.siteVersion}, published ${f.publishedAt}: ${seen}`;
}

/** The site checked; a site that does not verify is a usage error (exit 2) naming every difference. */
async function verified(dir: string, trust: Trust, versions: string): Promise<VerifiedSite> {
  try {
    return await verifySite(dir, { trust, versions });
  } catch (err) {
    if (err instanceof SiteNotVerified) throw new CliError(EXIT.usage, err.message);
    throw err;
  }
}

export function registerVerifyCommand(program: Command): void {
  program
    .command('verify')
    .description('check a published site: files as signed, every number recomputed from the shipped evidence; exit 0 only if all match')
    .argument('<site-dir>', 'a folder written by goodput publish')
    .option('--key <file>', "the publisher's public key (PEM) you trust: the site must be signed by it")
    .option('--key-id <id>', "the publisher's key id you pinned (ed25519:…): the site must be signed by it")
    .option('--state-dir <dir>', 'where the newest site version seen per key is kept (default: GOODPUT_STATE_DIR, or ~/.local/state/goodput)')
    .action(async (dir: string, f: { key?: string; keyId?: string; stateDir?: string }) => {
      const v = await verified(dir, await trustOf(f), siteVersionsFile(f.stateDir));
      const who =
        v.signer === null
          ? 'not signed'
          : v.trusted
            ? `signed by ${v.signer}, the key you trust`
            : `signed by ${v.signer} (pass --key or --key-id to check it is the key you trust)`;
      process.stdout.write(
        `verified ${dir}: ${v.receipts} receipt(s), ${v.files} files, every published number recomputed from the shipped evidence; ${who}\n` +
          (v.signer === null || v.freshness === null ? '' : `${freshnessLine(v.freshness, v.signer)}\n`),
      );
    });
}
