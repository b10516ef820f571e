/**
 * What the client accepts from a server, from the limits table: a line, an
 * event or a body past its row stops being read, and the failure names the row.
 */
import { LIMITS, type LimitName } from '../core/index.js';

/** A response part past its limit: the row and the sentence a record keeps. */
export interface Overflow {
  limit: LimitName;
  message: string;
}

/** `what` (e.g. "an SSE line") went past the row `limit`. */
export function overflow(limit: LimitName, what: string): Overflow {
  const l = LIMITS[limit];
  return { limit, message: `${what} went past the limit of ${l.max} ${l.what}` };
}

/** Byte limits of an event parser. */
export interface ParserLimits {
  /** Longest line, bytes, terminator excluded. */
  lineBytes: number;
  /** Most `data` bytes one SSE event may gather (NDJSON: unused, a line is the event). */
  eventBytes: number;
}

export const SSE_LIMITS: ParserLimits = { lineBytes: LIMITS.sseLineBytes.max, eventBytes: LIMITS.sseEventBytes.max };
export const NDJSON_LIMITS: ParserLimits = { lineBytes: LIMITS.ndjsonLineBytes.max, eventBytes: LIMITS.ndjsonLineBytes.max };
