/**
 * Pacing sends to a request and token budget (per minute), as a provider's
 * limiter counts them: each send spends one request and its estimated tokens,
 * and the next may leave once both budgets have earned back what the last one
 * spent (a generic cell-rate rule with no burst, so a provider that lets a
 * request through every 60/rpm seconds never answers 429). Pure: the caller
 * passes the clock's reading and waits.
 */

/** The earliest instant, ns, each budget lets the next send leave; start from `{ requestsNs: 0, tokensNs: 0 }`. */
export interface PaceState {
  requestsNs: number;
  tokensNs: number;
}

/**
 * When a send of `tokens` (estimated) may leave, given `nowNs`, and the state
 * after it. A null budget does not pace. `tokens` past a minute's budget wait
 * a minute's worth: they could never fit, the provider will say so.
 */
export function nextPacedSend(
  state: PaceState,
  nowNs: number,
  tokens: number,
  budget: { rpm: number | null; tpm: number | null },
): { sendNs: number; state: PaceState } {
  const sendNs = Math.max(nowNs, budget.rpm === null ? 0 : state.requestsNs, budget.tpm === null ? 0 : state.tokensNs);
  return {
    sendNs,
    state: {
      requestsNs: budget.rpm === null ? state.requestsNs : sendNs + 60e9 / budget.rpm,
      tokensNs: budget.tpm === null ? state.tokensNs : sendNs + (60e9 * Math.min(tokens, budget.tpm)) / budget.tpm,
    },
  };
}
