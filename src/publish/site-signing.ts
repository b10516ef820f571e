/**
 * Who stands behind a site: the publisher's Ed25519 key signs the site's
 * manifest (every file's path, size and SHA-256) as a DSSE envelope, the
 * in-toto envelope format: the signature is over the pre-authentication
 * encoding "DSSEv1 <len> <type> <len> <payload>", so neither the type nor the
 * payload can be swapped. The manifest carries the signer's public key; a
 * reader trusts it only when it is the key they pass or the id they pin.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import { z } from 'zod';
import { parseStrictJson } from './strict-json.js';

export const MANIFEST_FILE = 'manifest.dsse.json';
export const MANIFEST_PAYLOAD_TYPE = 'application/vnd.goodput.site-manifest+json';
export const MANIFEST_VERSION = 'goodput-site-manifest/1';
/** A manifest that also states the site's version and publish time, so an older signed site cannot pass as the current one. */
export const MANIFEST_VERSION_FRESH = 'goodput-site-manifest/2';
/** A PEM key file is well under this; anything larger is not one. */
export const KEY_FILE_BYTES = 16 * 1024;

/** "DSSEv1 SP LEN(type) SP type SP LEN(body) SP body", lengths in bytes as ASCII decimals. */
export function pae(type: string, body: Buffer): Buffer {
  const t = Buffer.from(type, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${t.length} `), t, Buffer.from(` ${body.length} `), body]);
}

/** The key id readers pin: "ed25519:" and the first 32 hex digits of the SHA-256 of the public key's DER (SPKI). */
export function keyIdOf(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  return `ed25519:${createHash('sha256')
    .update(pub.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 32)}`;
}

export interface KeyPairPem {
  privatePem: string;
  publicPem: string;
  keyId: string;
}

export function newKeyPair(): KeyPairPem {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    keyId: keyIdOf(publicKey),
  };
}

/** A PEM key of the given kind, Ed25519 only; a problem sentence otherwise. */
export function parseKey(pem: string, kind: 'private' | 'public'): { ok: true; key: KeyObject } | { ok: false; problem: string } {
  try {
    const key = kind === 'private' ? createPrivateKey(pem) : createPublicKey(pem);
    if (key.asymmetricKeyType !== 'ed25519')
      return { ok: false, problem: `is a ${key.asymmetricKeyType ?? 'unknown'} key; goodput signs with Ed25519 (goodput keys create)` };
    return { ok: true, key };
  } catch {
    return { ok: false, problem: `is not a PEM ${kind} key (goodput keys create writes one)` };
  }
}

const sha = z.string().regex(/^[0-9a-f]{64}$/);
const manifestEntry = z.object({ path: z.string().min(1).max(300), size: z.number().int().nonnegative(), sha256: sha }).strict();
const manifestFields = {
  generator: z.string().regex(/^goodput [0-9A-Za-z.+-]{1,40}$/),
  signer: z.object({ keyid: z.string().regex(/^ed25519:[0-9a-f]{32}$/), publicKey: z.string().max(KEY_FILE_BYTES) }).strict(),
  files: z.array(manifestEntry).max(100_000),
};
/**
 * Version 2 adds `siteVersion` (1 for a key's first site, then one more than
 * the newest site that key signed before) and `publishedAt` (an ISO instant);
 * version 1 manifests, signed before, carry neither and still open.
 */
export const manifestSchema = z.discriminatedUnion('version', [
  z.object({ version: z.literal(MANIFEST_VERSION), ...manifestFields }).strict(),
  z
    .object({
      version: z.literal(MANIFEST_VERSION_FRESH),
      siteVersion: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
      publishedAt: z.iso.datetime({ offset: true }),
      ...manifestFields,
    })
    .strict(),
]);
export type SiteManifest = z.infer<typeof manifestSchema>;

const envelopeSchema = z
  .object({
    payloadType: z.string(),
    payload: z.string().max(64 * 1024 * 1024),
    signatures: z
      .array(z.object({ keyid: z.string().max(200), sig: z.string().max(1024) }).strict())
      .min(1)
      .max(8),
  })
  .strict();

/** A site's place in its key's sequence: what a version 2 manifest states. */
export interface SiteFreshness {
  siteVersion: number;
  publishedAt: string;
}

/** The manifest of `files` (path → bytes), every path with its size and SHA-256, in path order; version 2 when `fresh` is given. */
export function manifestOf(files: ReadonlyMap<string, string | Buffer>, generator: string, signer: KeyObject, fresh?: SiteFreshness): SiteManifest {
  const pub = signer.type === 'private' ? createPublicKey(signer) : signer;
  const entries = [...files]
    .filter(([path]) => path !== MANIFEST_FILE)
    .map(([path, body]) => {
      const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
      return { path, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
    })
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  const common = {
    generator: `goodput ${generator}`,
    signer: { keyid: keyIdOf(pub), publicKey: pub.export({ type: 'spki', format: 'pem' }).toString() },
    files: entries,
  };
  return fresh === undefined
    ? { version: MANIFEST_VERSION, ...common }
    : { version: MANIFEST_VERSION_FRESH, siteVersion: fresh.siteVersion, publishedAt: fresh.publishedAt, ...common };
}

/** A DSSE envelope file's text: `statement` as the payload of `payloadType`, one Ed25519 signature over its PAE by its signer's key. */
function envelope(payloadType: string, statement: { signer: { keyid: string } }, privateKey: KeyObject): string {
  const body = Buffer.from(JSON.stringify(statement), 'utf8');
  const sig = sign(null, pae(payloadType, body), privateKey);
  return (
    JSON.stringify({ payloadType, payload: body.toString('base64'), signatures: [{ keyid: statement.signer.keyid, sig: sig.toString('base64') }] }, null, 2) +
    '\n'
  );
}

/** The DSSE envelope file's text: the manifest as payload, one Ed25519 signature over its PAE. */
export function signedManifest(manifest: SiteManifest, privateKey: KeyObject): string {
  return envelope(MANIFEST_PAYLOAD_TYPE, manifest, privateKey);
}

/** What a reader trusts: a public key they hold, or the id of one they pinned. */
export type Trust = { key: KeyObject } | { keyId: string } | null;

/** `payloadSha256` is the SHA-256 of the signed manifest's bytes: two sites of one version must share it. */
export type OpenedManifest = { ok: true; manifest: SiteManifest; trusted: boolean; payloadSha256: string } | { ok: false; problems: string[] };

/**
 * Opens the envelope: its signature must verify over the PAE with the key the
 * manifest names, and that key must be the trusted one when one is given.
 */
export function openManifest(text: string, trust: Trust): OpenedManifest {
  const fail = (why: string): OpenedManifest => ({ ok: false, problems: [`${MANIFEST_FILE}: ${why} [rule: signature]`] });
  const parsed = parseStrictJson(text);
  if (!parsed.ok) return fail(parsed.problem);
  const env = envelopeSchema.safeParse(parsed.value);
  if (!env.success) return fail(`is not a DSSE envelope (${env.error.issues[0]?.path.join('.') ?? ''}: ${env.error.issues[0]?.message ?? ''})`);
  if (env.data.payloadType !== MANIFEST_PAYLOAD_TYPE)
    return fail(`has payload type ${JSON.stringify(env.data.payloadType.slice(0, 80))}, not ${MANIFEST_PAYLOAD_TYPE}`);
  const body = Buffer.from(env.data.payload, 'base64');
  const inner = parseStrictJson(body.toString('utf8'));
  const m = inner.ok ? manifestSchema.safeParse(inner.value) : null;
  if (m === null || !m.success) return fail('holds no goodput site manifest');
  const manifest = m.data;
  const key = parseKey(manifest.signer.publicKey, 'public');
  if (!key.ok) return fail(`signer.publicKey ${key.problem}`);
  if (keyIdOf(key.key) !== manifest.signer.keyid) return fail(`names key ${manifest.signer.keyid}, but its public key is ${keyIdOf(key.key)}`);
  const sig = env.data.signatures.find((s) => s.keyid === manifest.signer.keyid);
  if (sig === undefined) return fail(`holds no signature by ${manifest.signer.keyid}`);
  if (!verify(null, pae(env.data.payloadType, body), key.key, Buffer.from(sig.sig, 'base64')))
    return fail(`the signature by ${manifest.signer.keyid} does not verify: the manifest or the signature was changed`);
  if (trust !== null) {
    const want = 'key' in trust ? keyIdOf(trust.key) : trust.keyId;
    if (want !== manifest.signer.keyid) return fail(`is signed by ${manifest.signer.keyid}, not by the key you trust (${want})`);
  }
  return { ok: true, manifest, trusted: trust !== null, payloadSha256: createHash('sha256').update(body).digest('hex') };
}

export const RESULT_PAYLOAD_TYPE = 'application/vnd.goodput.result-signature+json';
const resultStatementSchema = z
  .object({
    version: z.literal('goodput-result-signature/1'),
    size: z.number().int().nonnegative(),
    sha256: sha,
    /** SHA-256 of the result's published copy (the evidence file a receipt names): absent in envelopes written before it was signed too. */
    evidenceSha256: sha.optional(),
    signer: z.object({ keyid: z.string().regex(/^ed25519:[0-9a-f]{32}$/), publicKey: z.string().max(KEY_FILE_BYTES) }).strict(),
  })
  .strict();

/**
 * A DSSE envelope that signs a result file's exact bytes (size and SHA-256),
 * and the SHA-256 of its published copy, so a receipt's evidence can carry the
 * signature: `goodput run --sign` writes it beside the result.
 */
export function signedResult(bytes: Buffer, privateKey: KeyObject, evidenceSha256?: string): string {
  const pub = createPublicKey(privateKey);
  const statement = {
    version: 'goodput-result-signature/1',
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    ...(evidenceSha256 === undefined ? {} : { evidenceSha256 }),
    signer: { keyid: keyIdOf(pub), publicKey: pub.export({ type: 'spki', format: 'pem' }).toString() },
  };
  return envelope(RESULT_PAYLOAD_TYPE, statement, privateKey);
}

type ResultStatement = z.infer<typeof resultStatementSchema>;

/** The statement of a result signature whose signature verifies with the key it names, or why not. */
function openResultEnvelope(envelopeText: string): { ok: true; statement: ResultStatement } | { ok: false; problem: string } {
  const parsed = parseStrictJson(envelopeText);
  const env = parsed.ok ? envelopeSchema.safeParse(parsed.value) : null;
  if (env === null || !env.success || env.data.payloadType !== RESULT_PAYLOAD_TYPE)
    return { ok: false, problem: 'is not a goodput result signature (a DSSE envelope)' };
  const body = Buffer.from(env.data.payload, 'base64');
  const inner = parseStrictJson(body.toString('utf8'));
  const s = inner.ok ? resultStatementSchema.safeParse(inner.value) : null;
  if (s === null || !s.success) return { ok: false, problem: 'holds no result statement' };
  const key = parseKey(s.data.signer.publicKey, 'public');
  if (!key.ok || keyIdOf(key.key) !== s.data.signer.keyid) return { ok: false, problem: 'names a key that is not its own' };
  const sig = env.data.signatures.find((x) => x.keyid === s.data.signer.keyid);
  if (sig === undefined || !verify(null, pae(RESULT_PAYLOAD_TYPE, body), key.key, Buffer.from(sig.sig, 'base64')))
    return { ok: false, problem: `the signature by ${s.data.signer.keyid} does not verify` };
  return { ok: true, statement: s.data };
}

/**
 * A run's signature shipped with a receipt's evidence: it must verify with the
 * key it names and sign exactly the evidence file `evidenceSha256`.
 */
export function checkSignedEvidence(envelopeText: string, evidenceSha256: string): { ok: true; keyId: string } | { ok: false; problem: string } {
  const opened = openResultEnvelope(envelopeText);
  if (!opened.ok) return opened;
  const s = opened.statement;
  if (s.evidenceSha256 !== evidenceSha256) {
    return {
      ok: false,
      problem: `signs ${s.evidenceSha256 === undefined ? 'no published copy' : `the published copy ${s.evidenceSha256}`}, not this evidence (${evidenceSha256}): the run's signature does not cover what the receipt ships`,
    };
  }
  return { ok: true, keyId: s.signer.keyid };
}

/** Checks a result's bytes against its envelope and the trusted key: the signer's key id, or why not. */
export function checkSignedResult(bytes: Buffer, envelopeText: string, trust: Trust): { ok: true; keyId: string } | { ok: false; problem: string } {
  const opened = openResultEnvelope(envelopeText);
  if (!opened.ok) return opened;
  const s = { data: opened.statement };
  const sha = createHash('sha256').update(bytes).digest('hex');
  if (bytes.length !== s.data.size || sha !== s.data.sha256)
    return {
      ok: false,
      problem: `signs a file of ${s.data.size} bytes with SHA-256 ${s.data.sha256}; this one is ${bytes.length} bytes with ${sha}: the result was changed after signing`,
    };
  if (trust !== null) {
    const want = 'key' in trust ? keyIdOf(trust.key) : trust.keyId;
    if (want !== s.data.signer.keyid) return { ok: false, problem: `is signed by ${s.data.signer.keyid}, not by the key you trust (${want})` };
  }
  return { ok: true, keyId: s.data.signer.keyid };
}
