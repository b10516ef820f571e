/**
 * Paces a sweep's sends to a provider's rate limit (`--rate-limit`): one pacer
 * for the whole sweep, since the provider's budget does not reset between
 * levels; warm-ups spend it too. A budget given as `rpm`/`tpm` paces from the
 * first send; `from-headers` paces to the limits the latest answer stated, and
 * until one has, each send waits for the answer before it. A request's tokens
 * are estimated (see estimateTokens): providers count their own.
 */
import { type PaceState, type RatePacing, type RequestRecord, nextPacedSend } from '../core/index.js';
import type { Clock, RequestSpec } from '../client/index.js';
import { waitUntil } from './open-loop.js';

/** Characters per token the estimate assumes: fewer than the usual ~4, so the estimate errs high and the budget holds. */
const CHARS_PER_TOKEN = 3;

/** A request's tokens as a provider counts them against a token budget: its prompt (estimated from characters) plus its max output tokens. */
export function estimateTokens(spec: Pick<RequestSpec, 'prompt' | 'history' | 'maxTokens'>): number {
  let chars = spec.prompt.length;
  for (const m of spec.history ?? []) chars += m.content.length;
  return Math.ceil(chars / CHARS_PER_TOKEN) + spec.maxTokens;
}

export interface RatePacer {
  /** Waits until `spec` may leave; resolves with the instant it was meant to (ns, on the clock). */
  before(spec: RequestSpec, signal: AbortSignal): Promise<number>;
  /** Every finished request: `from-headers` reads the limits its answer stated. */
  seen(r: RequestRecord): void;
}

/** `wait` resolves at an instant on `clock` (tests pass one that moves their clock there). */
export function ratePacer(pacing: RatePacing, clock: Clock, wait: typeof waitUntil = waitUntil): RatePacer {
  let state: PaceState = { requestsNs: 0, tokensNs: 0 };
  let budget = pacing.kind === 'budget' ? { rpm: pacing.rpm, tpm: pacing.tpm } : null;
  // from-headers before any answer stated a limit: one request at a time.
  let inFlight: Promise<void> | null = null;
  let release: (() => void) | null = null;
  return {
    async before(spec, signal) {
      while (budget === null && inFlight !== null && !signal.aborted) await inFlight;
      if (budget === null) {
        inFlight = new Promise((resolve) => (release = resolve));
        return clock();
      }
      const next = nextPacedSend(state, clock(), estimateTokens(spec), budget);
      state = next.state;
      await wait(clock, next.sendNs, signal);
      return next.sendNs;
    },
    seen(r) {
      if (pacing.kind === 'from-headers') {
        const rpm = r.rateLimit?.limitRequests;
        const tpm = r.rateLimit?.limitTokens;
        if ((rpm ?? 0) > 0 || (tpm ?? 0) > 0) budget = { rpm: rpm || null, tpm: tpm || null };
      }
      const done = release;
      release = null;
      inFlight = null;
      done?.();
    },
  };
}
