/**
 * Fault assignment: each non-warm request draws one number from a seeded mulberry32
 * stream and lands in at most one fault kind by the profile's shares, so a run with
 * the same seed and request order injects the same faults. Also the table of
 * faults that answer with an HTTP error before any stream.
 */
import type { SimFaults } from './profile-schema.js';
import { hashInts, mulberry32 } from './random.js';

/** Faults that answer with an HTTP error status before any stream. */
export type HttpFaultKind = 'http500' | 'http429' | 'http503' | 'http529';
/** Faults that act mid-way through a response (streamed or not). */
export type StreamFaultKind = 'dropStream' | 'malformedSse' | 'midStreamError' | 'stall';
/** Every injectable per-request fault. */
export type FaultKind = HttpFaultKind | StreamFaultKind;

/** Every fault kind, in the order shares are laid out on [0, 1) (a kind added later goes last, so a seed draws the same faults it did). */
export const FAULT_KINDS: readonly FaultKind[] = ['http500', 'http429', 'http503', 'dropStream', 'malformedSse', 'midStreamError', 'stall', 'http529'];

/** Status, OpenAI error type and message of each HTTP fault. */
export const HTTP_FAULTS: { readonly [K in HttpFaultKind]: { status: number; type: string; message: string } } = {
  http500: { status: 500, type: 'InternalServerError', message: 'Simulated internal server error (injected fault).' },
  http429: { status: 429, type: 'RateLimitError', message: 'Simulated rate limit: too many requests (injected fault).' },
  http503: { status: 503, type: 'ServiceUnavailableError', message: 'Simulated overload: service unavailable (injected fault).' },
  http529: { status: 529, type: 'overloaded_error', message: 'Simulated overload: Overloaded, as Anthropic answers 529 (injected fault).' },
};

/** True for the faults answered with an HTTP status before any stream. */
export function isHttpFault(kind: FaultKind): kind is HttpFaultKind {
  return kind in HTTP_FAULTS;
}

/** Draws the fault (or none) of each successive non-warm request. */
export class FaultPicker {
  private readonly draw: () => number;

  /** @param seed the profile seed; the fault stream is derived from it. */
  constructor(
    private readonly faults: SimFaults,
    seed: number,
  ) {
    this.draw = mulberry32(hashInts(seed, 0xfa017));
  }

  /** The fault of the next non-warm request, or null. Always consumes one draw. */
  next(): FaultKind | null {
    const u = this.draw();
    let edge = 0;
    for (const kind of FAULT_KINDS) {
      edge += this.faults[kind];
      if (u < edge) return kind;
    }
    return null;
  }
}
