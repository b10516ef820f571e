/**
 * A trace fit to share (AIPerf's anonymise): every request's send offset,
 * prompt and output lengths kept, and its hash ids replaced one for one by
 * seeded random ids, so two requests share a block in the copy exactly when
 * they did in the original (the same prefix hits on replay); literal prompts,
 * label columns (BurstGPT's Model, Log Type) and the original ids and
 * timestamps' zero are not carried. Written as Mooncake-style JSONL (times in
 * ms from the first request), which `goodput replay` reads. Same trace and
 * seed, same bytes.
 */
import { mulberry32 } from '../core/index.js';
import type { Trace } from './trace-read.js';

/** Ids are drawn below 2^31: whole numbers every reader takes exactly. */
const ID_SPACE = 2 ** 31;

export function anonymiseTrace(trace: Trace, seed: number): string {
  const rand = mulberry32(seed);
  const ids = new Map<number, number>();
  const used = new Set<number>();
  const fresh = (id: number): number => {
    let out = ids.get(id);
    if (out !== undefined) return out;
    do out = Math.floor(rand() * ID_SPACE);
    while (used.has(out));
    used.add(out);
    ids.set(id, out);
    return out;
  };
  const lines = trace.requests.map((r) =>
    JSON.stringify({
      timestamp: r.atMs,
      input_length: r.promptTokens,
      output_length: r.outputTokens,
      ...(r.hashIds ? { hash_ids: r.hashIds.map(fresh) } : {}),
    }),
  );
  return lines.join('\n') + '\n';
}
