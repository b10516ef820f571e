/**
 * What this machine has seen of each signing key: the newest site version it
 * verified or published, and the SHA-256 of that site's signed manifest. An
 * older version signed by the key is a rollback (an older site served as the
 * current one), the same version with another manifest an equivocation (two
 * sites claiming one place); both are refused. The state file is untrusted
 * input like any other: bounded, schema-checked, and a broken one is refused
 * naming it, never reset, since forgetting is exactly what a rollback needs.
 * It is written whole to a temporary file and renamed over the old one.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { z } from 'zod';
import { readBounded } from './site-walk.js';
import { parseStrictJson } from './strict-json.js';

export const SITE_VERSIONS_FILE = 'site-versions.json';
const STATE_VERSION = 'goodput-site-versions/1';
/** Far above what 10,000 keys take (about 250 bytes each): a larger file is not ours. */
export const SITE_VERSIONS_BYTES = 4 * 1024 * 1024;
export const SITE_VERSIONS_KEYS = 10_000;

const entrySchema = z
  .object({
    siteVersion: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    manifestSha256: z.string().regex(/^[0-9a-f]{64}$/),
    publishedAt: z.iso.datetime({ offset: true }),
    seenAt: z.iso.datetime({ offset: true }),
  })
  .strict();
const stateSchema = z
  .object({
    version: z.literal(STATE_VERSION),
    keys: z.record(z.string().regex(/^ed25519:[0-9a-f]{32}$/), entrySchema),
  })
  .strict()
  .refine((s) => Object.keys(s.keys).length <= SITE_VERSIONS_KEYS, { error: `holds more than ${SITE_VERSIONS_KEYS} keys`, path: ['keys'] });

export type SiteVersions = z.infer<typeof stateSchema>;
export type SeenSite = z.infer<typeof entrySchema>;
export const NO_SITE_VERSIONS: SiteVersions = { version: STATE_VERSION, keys: {} };

/**
 * The state folder: GOODPUT_STATE_DIR, else $XDG_STATE_HOME/goodput (an
 * absolute path, as the XDG spec asks), else ~/.local/state/goodput.
 */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  if (env.GOODPUT_STATE_DIR) return env.GOODPUT_STATE_DIR;
  if (env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME)) return join(env.XDG_STATE_HOME, 'goodput');
  return join(home, '.local', 'state', 'goodput');
}

const broken = (file: string, why: string) =>
  `${file}: ${why}; the site versions this machine has seen cannot be read, and forgetting them would let an older site pass, so nothing is checked until you fix or remove the file deliberately (docs/limits-and-security.md) [rule: freshness]`;

/** The state in `file`: empty when there is none yet, or a problem naming the file. */
export async function readSiteVersions(file: string): Promise<{ ok: true; state: SiteVersions } | { ok: false; problem: string }> {
  const st = await lstat(file).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? null : err));
  if (st === null) return { ok: true, state: NO_SITE_VERSIONS };
  if (st instanceof Error) return { ok: false, problem: broken(file, `cannot be read (${st.code ?? st.message})`) };
  if (!st.isFile()) return { ok: false, problem: broken(file, 'is not a regular file') };
  const read = await readBounded(file, SITE_VERSIONS_BYTES);
  if (!read.ok) return { ok: false, problem: broken(file, read.problem) };
  const json = parseStrictJson(read.bytes.toString('utf8'));
  if (!json.ok) return { ok: false, problem: broken(file, `is not JSON (${json.problem})`) };
  const parsed = stateSchema.safeParse(json.value);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    return { ok: false, problem: broken(file, `${i?.path.join('.') || '(top level)'}: ${i?.message ?? 'does not match'}`) };
  }
  return { ok: true, state: parsed.data };
}

/** Why a site of `siteVersion` with manifest `manifestSha256`, signed by `keyid`, is older than or conflicts with what was seen; null when it is not. */
export function freshnessProblem(state: SiteVersions, keyid: string, site: { siteVersion: number; manifestSha256: string }): string | null {
  const seen = state.keys[keyid];
  if (seen === undefined || site.siteVersion > seen.siteVersion) return null;
  if (site.siteVersion < seen.siteVersion)
    return `rollback: this site is version ${site.siteVersion} signed by ${keyid}, but version ${seen.siteVersion} signed by that key (published ${seen.publishedAt}) was seen on ${seen.seenAt}: an older site is being served as the current one [rule: freshness]`;
  if (site.manifestSha256 !== seen.manifestSha256)
    return `equivocation: this site is version ${site.siteVersion} signed by ${keyid}, but another site of that version by that key (manifest SHA-256 ${seen.manifestSha256}, this one ${site.manifestSha256}) was seen on ${seen.seenAt}: one key signed two different sites as one version [rule: freshness]`;
  return null;
}

/** The state with `keyid`'s newest site set to `site` (never lowered), or a problem when the state is full. */
export function withSeen(state: SiteVersions, keyid: string, site: SeenSite): { ok: true; state: SiteVersions } | { ok: false; problem: string } {
  const seen = state.keys[keyid];
  if (seen !== undefined && seen.siteVersion >= site.siteVersion) return { ok: true, state };
  if (seen === undefined && Object.keys(state.keys).length >= SITE_VERSIONS_KEYS)
    return { ok: false, problem: `the site versions file already remembers ${SITE_VERSIONS_KEYS} keys; remove keys you no longer follow [rule: freshness]` };
  return { ok: true, state: { ...state, keys: { ...state.keys, [keyid]: site } } };
}

/** Writes the state atomically: a temporary file beside it, then one rename (a reader sees the old file or the new, never half of one). */
export async function writeSiteVersions(file: string, state: SiteVersions): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, JSON.stringify(state, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
