/**
 * A server's fingerprint: what its `/v1/models` answer says about the weights it
 * serves, without the fields that change from one call to the next. Two runs or a
 * quality score carry it so a receipt can tell whether they met the same server
 * configuration (llama.cpp's `meta.size` and `ftype` differ between F32 and Q8_0;
 * vLLM's `root` and `max_model_len` name the weights and context).
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../core/index.js';

/** Keys an engine fills with the time of the call, not a fact about the weights. */
const VOLATILE_KEYS = new Set(['created']);

function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!VOLATILE_KEYS.has(k)) out[k] = stable(v);
  return out;
}

/**
 * sha256 (hex) of the canonical JSON of a `/v1/models` body's `data` entries, with
 * volatile keys dropped and entries ordered by id. Null when the body has no
 * `data` array (the caller says "not recorded", never a made-up hash).
 */
export function serverFingerprint(modelsBody: unknown): string | null {
  const data = typeof modelsBody === 'object' && modelsBody !== null ? (modelsBody as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) return null;
  const entries = data.map(stable).sort((a, b) => {
    const ia = String((a as { id?: unknown })?.id ?? '');
    const ib = String((b as { id?: unknown })?.id ?? '');
    return ia < ib ? -1 : ia > ib ? 1 : 0;
  });
  return createHash('sha256').update(canonicalJson(entries)).digest('hex');
}
