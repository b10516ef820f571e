/**
 * The contract's identity: sha256 of its canonical JSON with the fields that
 * say where (server.url, server.apiKeyEnv) left out. Two runs of the same
 * experiment against servers at different addresses share a hash; any change
 * to what is measured (including corpus or tokenizer content, via their hashes)
 * changes it.
 */
import { canonicalJson } from '../core/index.js';
import { sha256Hex } from '../workload/index.js';
import type { Contract } from './contract-schema.js';

/** The contract without its location fields. */
export function hashedPart(c: Contract): object {
  const { url: _url, apiKeyEnv: _key, ...server } = c.server;
  return { ...c, server };
}

/** sha256 (hex) of the canonical contract without its location. */
export function contractHash(c: Contract): string {
  return sha256Hex(canonicalJson(hashedPart(c)));
}
