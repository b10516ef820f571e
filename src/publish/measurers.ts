/**
 * The measurer keys a site lists (`goodput publish --measurer-key FILE.pub`):
 * the Ed25519 public keys whose run signatures the publisher vouches are a
 * measurer's, not the publisher's own say-so. A run signed by one of them
 * lifts its facts and labels to "signed"; any other key's signature is shown
 * and named as not a listed measurer. The site ships the list as
 * measurers.json, so `goodput verify` recomputes every standing from the same
 * keys; each entry's key id is recomputed from its public key.
 */
import { z } from 'zod';
import { KEY_FILE_BYTES, keyIdOf, parseKey } from './site-signing.js';
import { readBounded } from './site-walk.js';
import { parseStrictJson } from './strict-json.js';

export const MEASURERS_FILE = 'measurers.json';
export const MEASURERS_VERSION = 'goodput-measurers/1';
/** More measurers than this is not a list a reader can check. */
const MAX_MEASURERS = 64;

const measurersSchema = z
  .object({
    version: z.literal(MEASURERS_VERSION),
    keys: z
      .array(z.object({ keyid: z.string().regex(/^ed25519:[0-9a-f]{32}$/), publicKey: z.string().max(KEY_FILE_BYTES) }).strict())
      .min(1)
      .max(MAX_MEASURERS),
  })
  .strict();

export type Measurers = z.infer<typeof measurersSchema>;

/** The list from public key PEMs, each checked to be an Ed25519 public key; `names` says where each came from in a problem. */
export function measurersOf(pems: ReadonlyArray<{ name: string; pem: string }>): { ok: true; measurers: Measurers } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const keys = new Map<string, string>();
  for (const { name, pem } of pems) {
    const key = parseKey(pem, 'public');
    if (!key.ok) problems.push(`${name}: ${key.problem} [rule: signature]`);
    else keys.set(keyIdOf(key.key), key.key.export({ type: 'spki', format: 'pem' }).toString());
  }
  if (keys.size > MAX_MEASURERS) problems.push(`--measurer-key: ${keys.size} keys, more than the ${MAX_MEASURERS} a site lists [rule: signature]`);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, measurers: { version: MEASURERS_VERSION, keys: [...keys].sort().map(([keyid, publicKey]) => ({ keyid, publicKey })) } };
}

export const measurersText = (m: Measurers): string => JSON.stringify(m, null, 2) + '\n';

/** A site's measurers.json read back: bounded, strict JSON, its schema, and each key id its public key's. */
export async function readMeasurers(path: string): Promise<{ ok: true; measurers: Measurers } | { ok: false; problems: string[] }> {
  const fail = (why: string) => ({ ok: false as const, problems: [`${MEASURERS_FILE}: ${why} [rule: signature]`] });
  const read = await readBounded(path, MAX_MEASURERS * (KEY_FILE_BYTES + 256));
  if (!read.ok) return fail(read.problem);
  const parsed = parseStrictJson(read.bytes.toString('utf8'));
  if (!parsed.ok) return fail(parsed.problem);
  const m = measurersSchema.safeParse(parsed.value);
  if (!m.success) return fail(`${m.error.issues[0]?.path.join('.') || '(top level)'}: ${m.error.issues[0]?.message ?? 'not a measurer list'}`);
  for (const [i, k] of m.data.keys.entries()) {
    const key = parseKey(k.publicKey, 'public');
    if (!key.ok) return fail(`keys[${i}].publicKey ${key.problem}`);
    if (keyIdOf(key.key) !== k.keyid) return fail(`keys[${i}].keyid: names ${k.keyid}, but its public key is ${keyIdOf(key.key)}`);
  }
  return { ok: true, measurers: m.data };
}
