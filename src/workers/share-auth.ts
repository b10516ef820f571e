/**
 * Who may tell a worker what to do, and whose rows the coordinator believes.
 * Anyone who can write the database could put a job on the queue; only a
 * process started with the workers' secret (GOODPUT_WORKER_SECRET, from
 * `goodput worker --init`, never stored in the database) can sign one. Each
 * sweep derives its own key from the secret and its random id, so nothing
 * signed for one sweep is accepted for another. Jobs, start instants, share
 * reports, records and heartbeats all carry an HMAC-SHA256 over their canonical
 * JSON; a sweep's random id is its nonce, and jobs and starts carry an expiry.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from '../core/index.js';

/** The environment variable both the coordinator and its workers read the secret from. */
export const WORKER_SECRET_ENV = 'GOODPUT_WORKER_SECRET';
/** A secret is at least this many bytes (64 hex digits). */
const SECRET_BYTES = 32;

export class SecretError extends Error {}

/** A new secret, as the hex text to put in GOODPUT_WORKER_SECRET. */
export function newWorkerSecret(): string {
  return randomBytes(SECRET_BYTES).toString('hex');
}

/**
 * The secret from its text, or a refusal saying how to make one.
 * @throws SecretError when missing, not hex, or shorter than 32 bytes.
 */
export function parseWorkerSecret(text: string | undefined, who: string): Buffer {
  const how = `make one with \`goodput worker --init\` and start the coordinator and every worker with it in ${WORKER_SECRET_ENV}`;
  if (text === undefined || text.trim() === '') throw new SecretError(`${who} needs the workers' secret: ${how}`);
  const t = text.trim();
  if (!/^[0-9a-fA-F]+$/.test(t) || t.length % 2 !== 0 || t.length < SECRET_BYTES * 2) {
    throw new SecretError(`${WORKER_SECRET_ENV} is not a secret of at least ${SECRET_BYTES} bytes in hex (${SECRET_BYTES * 2} hex digits); ${how}`);
  }
  return Buffer.from(t, 'hex');
}

/** What a MAC is over: the kind keeps a record's MAC from passing as a job's. */
export type Signed = 'job' | 'start' | 'share' | 'record' | 'beat' | 'worker';

/** One sweep's key: every job, start, report and record of that sweep is signed with it. */
export class SweepKey {
  private readonly key: Buffer;
  constructor(
    secret: Buffer,
    readonly sweep: string,
  ) {
    this.key = createHmac('sha256', secret).update(`goodput sweep key\0${sweep}`).digest();
  }

  /** The MAC of `value` as `kind`, hex. */
  sign(kind: Signed, value: unknown): string {
    return createHmac('sha256', this.key)
      .update(`${kind}\0${canonicalJson(value)}`)
      .digest('hex');
  }

  /** True when `mac` is `value`'s MAC as `kind` (compared in constant time). */
  verify(kind: Signed, value: unknown, mac: unknown): boolean {
    if (typeof mac !== 'string' || !/^[0-9a-f]{64}$/.test(mac)) return false;
    let want: string;
    try {
      want = this.sign(kind, value);
    } catch {
      return false;
    }
    return timingSafeEqual(Buffer.from(want, 'hex'), Buffer.from(mac, 'hex'));
  }
}

/** Not hex, so never a sweep's id: the key the workers' registrations and heartbeats are signed with. */
const REGISTRY = 'worker registry';

/** The key of the workers' own rows (name, host, heartbeat), which outlive any one sweep. */
export function registryKey(secret: Buffer): SweepKey {
  return new SweepKey(secret, REGISTRY);
}
