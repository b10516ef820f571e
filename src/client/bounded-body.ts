/**
 * Reads a whole response body, up to a byte limit: past it the body is
 * destroyed (the socket goes with it) and nothing more is held, so a server
 * that answers a probe with gigabytes costs us at most the limit.
 */
import { LIMITS } from '../core/index.js';

/** The body as text, or `tooLarge` when it went past `maxBytes` (then it was destroyed, unread). */
export type BoundedText = { ok: true; text: string } | { ok: false; tooLarge: true };

/** A readable body as undici gives it (async-iterable chunks that can be destroyed). */
export interface DestroyableBody extends AsyncIterable<Buffer> {
  destroy(err?: Error): unknown;
}

/** Reads `body` to its end, or stops at `maxBytes` (default: the probe response limit). */
export async function readBounded(body: DestroyableBody, maxBytes: number = LIMITS.probeResponseBytes.max): Promise<BoundedText> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      return { ok: false, tooLarge: true };
    }
    parts.push(chunk);
  }
  return { ok: true, text: Buffer.concat(parts).toString('utf8') };
}
