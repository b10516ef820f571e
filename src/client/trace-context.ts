/**
 * W3C Trace Context for every request: a `traceparent` header
 * (`00-<32 hex trace id>-<16 hex span id>-01`, sampled) so a benchmark request
 * joins the server's own traces, its ids kept on the record. The ids are random
 * per request but cut from a block of random bytes filled (and hex-encoded)
 * once per 4,096 requests: the send path pays two string slices, never a call
 * into the system's random source or an encode per request.
 */
import { randomFillSync } from 'node:crypto';

/** A request's place in a trace: the trace it starts and its own (the client) span. */
export interface TraceIds {
  traceId: string;
  spanId: string;
}

const IDS_PER_BLOCK = 4096;
const BYTES_PER_ID = 24;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** Returns a source of fresh trace and span ids, each never all zeros (which the W3C format calls invalid). */
export function traceIdSource(): () => TraceIds {
  const block = Buffer.allocUnsafe(IDS_PER_BLOCK * BYTES_PER_ID);
  // The whole block as hex once per refill: an id is then a slice of it (a fraction of a hex encode per id).
  let hex = '';
  let at = 0;
  return function next(): TraceIds {
    if (at === hex.length) {
      randomFillSync(block);
      hex = block.toString('hex');
      at = 0;
    }
    const traceId = hex.slice(at, at + 32);
    const spanId = hex.slice(at + 32, at + 48);
    at += 2 * BYTES_PER_ID;
    // All zeros (2^-64 at worst) is invalid in the format: draw again.
    return traceId === ZERO_TRACE || spanId === ZERO_SPAN ? next() : { traceId, spanId };
  };
}

/** The `traceparent` header's value: version 00, the ids, sampled. */
export const traceparentValue = (ids: TraceIds): string => `00-${ids.traceId}-${ids.spanId}-01`;

/** The header line a request carries (lower-case name, CRLF-terminated), ready to append to the head's lines. */
export const traceparentLine = (ids: TraceIds): string => `traceparent: ${traceparentValue(ids)}\r\n`;
