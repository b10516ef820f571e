/**
 * A repeat set that cannot be cherry-picked: `goodput run --repeats N` with a
 * signing key signs the set's manifest (N, the contract hash, a random nonce,
 * the start time) before its first run, and signs each run as it ends: its
 * index, the manifest's hash and the hash of the run as its receipt ships it.
 * Both are DSSE envelopes over the same pre-authentication encoding as a
 * site's manifest, so neither the type nor the statement can be swapped.
 */
import { createHash, createPublicKey, type KeyObject, randomBytes, sign, verify } from 'node:crypto';
import { z } from 'zod';
import {
  LIMITS,
  type PoolingResult,
  type RepeatRun,
  type RunSet,
  type SweepResult,
  canonicalJson,
  poolingResultSchema,
  sweepResultSchema,
} from '../core/index.js';
import { publicPoolingResult, publicTextResult } from './evidence-files.js';
import { keyIdOf, pae, parseKey } from './site-signing.js';
import { parseStrictJson } from './strict-json.js';

export const SET_PAYLOAD_TYPE = 'application/vnd.goodput.run-set+json';
export const SET_RUN_PAYLOAD_TYPE = 'application/vnd.goodput.run-in-set+json';

const sha = z.string().regex(/^[0-9a-f]{64}$/);
const keyid = z.string().regex(/^ed25519:[0-9a-f]{32}$/);

const manifestSchema = z
  .object({
    version: z.literal('goodput-run-set/1'),
    n: z.number().int().min(1).max(LIMITS.repeats.max),
    contractHash: sha,
    nonce: z.string().regex(/^[0-9a-f]{32}$/),
    startedAt: z.string().datetime(),
    signer: z.object({ keyid, publicKey: z.string().max(1024) }).strict(),
  })
  .strict();
export type SetManifest = z.infer<typeof manifestSchema>;

const runStatementSchema = z
  .object({
    version: z.literal('goodput-run-in-set/1'),
    set: sha,
    index: z.number().int().min(1).max(LIMITS.repeats.max),
    runSha256: sha,
    keyid,
  })
  .strict();
export type RunStatement = z.infer<typeof runStatementSchema>;
type Envelope = RunSet['manifest'];

/** One run of a set as its signature sees it: a text run with its cards, or an embeddings or rerank run with its peak and capacity. */
export type SignedRun =
  | Pick<RepeatRun, 'run' | 'warnings' | 'levels' | 'cards' | 'recordsSha256'>
  | Pick<PoolingResult, 'run' | 'warnings' | 'levels' | 'peak' | 'capacity' | 'recordsSha256'>;

/** What of one run its signature covers: its run facts (a text run's place in the set among them), warnings, levels, what its kind derives from them (cards; peak and capacity) and records' hash. */
export function runSha256(r: SignedRun): string {
  const derived = 'cards' in r ? { cards: r.cards } : { peak: r.peak, capacity: r.capacity };
  const covered = { run: r.run, warnings: r.warnings, levels: r.levels, ...derived, recordsSha256: r.recordsSha256 ?? null };
  return createHash('sha256').update(canonicalJson(covered)).digest('hex');
}

function envelope(type: string, statement: object, key: KeyObject, id: string): Envelope {
  const body = Buffer.from(JSON.stringify(statement), 'utf8');
  return { payloadType: type, payload: body.toString('base64'), signatures: [{ keyid: id, sig: sign(null, pae(type, body), key).toString('base64') }] };
}

/** The manifest hash runs sign and the set id is cut from: SHA-256 of the manifest statement's bytes. */
export const manifestSha256 = (m: Envelope): string => createHash('sha256').update(Buffer.from(m.payload, 'base64')).digest('hex');

/** A set's manifest, signed before its first run: its hash, and the set id the runs carry (its first 16 hex digits). */
export function signSetManifest(n: number, contractHash: string, key: KeyObject, now = new Date()): { envelope: Envelope; sha256: string; set: string } {
  const pub = createPublicKey(key);
  const statement: SetManifest = {
    version: 'goodput-run-set/1',
    n,
    contractHash,
    nonce: randomBytes(16).toString('hex'),
    startedAt: now.toISOString(),
    signer: { keyid: keyIdOf(pub), publicKey: pub.export({ type: 'spki', format: 'pem' }).toString() },
  };
  const signed = envelope(SET_PAYLOAD_TYPE, statement, key, statement.signer.keyid);
  const sha256 = manifestSha256(signed);
  return { envelope: signed, sha256, set: sha256.slice(0, 16) };
}

/** One run's signature: its index in the set, the manifest's hash and the run as its receipt ships it (`run`, already public). */
export function signRunInSet(manifest: string, index: number, run: SignedRun, key: KeyObject): Envelope {
  const id = keyIdOf(key);
  const statement: RunStatement = { version: 'goodput-run-in-set/1', set: manifest, index, runSha256: runSha256(run), keyid: id };
  return envelope(SET_RUN_PAYLOAD_TYPE, statement, key, id);
}

/** One run's signature over the run as its receipt will ship it: the result's JSON read back and its public copy taken, as receipt create does. */
export function signRunOfSet(manifest: string, index: number, one: SweepResult, key: KeyObject): Envelope {
  return signRunInSet(manifest, index, publicTextResult(sweepResultSchema.parse(JSON.parse(JSON.stringify(one)))), key);
}

/** The same for one embeddings or rerank run: its public copy as a pooling receipt ships it. */
export function signPoolingRunOfSet(manifest: string, index: number, one: PoolingResult, key: KeyObject): Envelope {
  return signRunInSet(manifest, index, publicPoolingResult(poolingResultSchema.parse(JSON.parse(JSON.stringify(one)))), key);
}

/** The statement of an envelope of `type` whose one signature verifies with the key `keyOf` gives (id and PEM, which must match), or why not. */
function opened<T>(
  env: Envelope,
  type: string,
  schema: z.ZodType<T>,
  keyOf: (s: T) => { id: string; pem: string },
): { ok: true; statement: T } | { ok: false; problem: string } {
  if (env.payloadType !== type) return { ok: false, problem: `has payload type ${JSON.stringify(env.payloadType.slice(0, 80))}, not ${type}` };
  const body = Buffer.from(env.payload, 'base64');
  const inner = parseStrictJson(body.toString('utf8'));
  const s = inner.ok ? schema.safeParse(inner.value) : null;
  if (s === null || !s.success) return { ok: false, problem: `holds no ${type === SET_PAYLOAD_TYPE ? 'run-set manifest' : 'run statement'}` };
  const want = keyOf(s.data);
  const key = parseKey(want.pem, 'public');
  if (!key.ok || keyIdOf(key.key) !== want.id) return { ok: false, problem: `names key ${want.id}, which is not the set's key` };
  const sig = env.signatures[0];
  if (sig?.keyid !== want.id || !verify(null, pae(type, body), key.key, Buffer.from(sig.sig, 'base64')))
    return { ok: false, problem: `the signature by ${want.id} does not verify: the statement or its signature was changed` };
  return { ok: true, statement: s.data };
}

/** The set's manifest, once its signature verifies with the key it names. */
export const openSetManifest = (env: Envelope) => opened(env, SET_PAYLOAD_TYPE, manifestSchema, (m) => ({ id: m.signer.keyid, pem: m.signer.publicKey }));

/** One run's statement, once its signature verifies with the manifest's key. */
export const openRunStatement = (env: Envelope, manifest: SetManifest) =>
  opened(env, SET_RUN_PAYLOAD_TYPE, runStatementSchema, (s) => ({ id: s.keyid, pem: manifest.signer.publicKey }));
