/**
 * The contract a result file carries, trusted only once it parses and hashes to
 * the contractHash the same file states: the callers word the refusal.
 */
import type { SweepResult } from '../core/index.js';
import { contractHash } from './contract-hash.js';
import { type Contract, contractSchema } from './contract-schema.js';

export type VerifiedContract =
  | { ok: true; contract: Contract; hash: string }
  | { ok: false; reason: 'absent' }
  | { ok: false; reason: 'schema'; issues: Array<{ path: string; message: string }> }
  /** `stated` is the file's contractHash, `actual` what its contract hashes to. */
  | { ok: false; reason: 'hash'; stated: string | null; actual: string };

export function verifiedContract(result: Pick<SweepResult, 'contract' | 'contractHash'>): VerifiedContract {
  if (result.contract === null || result.contract === undefined) return { ok: false, reason: 'absent' };
  const parsed = contractSchema.safeParse(result.contract);
  if (!parsed.success) return { ok: false, reason: 'schema', issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) };
  const hash = contractHash(parsed.data);
  if (hash !== result.contractHash) return { ok: false, reason: 'hash', stated: result.contractHash ?? null, actual: hash };
  return { ok: true, contract: parsed.data, hash };
}
