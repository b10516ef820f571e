/**
 * Preflight of the request size: where the engine reports its context length,
 * a prompt plus output that cannot fit is refused before anything runs, naming
 * both numbers. Synthetic prompts are built to exactly their length in the
 * server's tokens where it can count them, so the check is on the real count,
 * with the chat template's own tokens where the server could say how many it
 * adds (vLLM's /tokenize with messages, llama.cpp's /apply-template); counted in
 * words, a pass is not a promise: the server's own message still reaches the terminal.
 */
import { SweepError } from './errors.js';
import type { EngineSetup } from './engine-setup.js';
import type { SweepSpec } from './sweep-spec.js';

/**
 * @param templateTokens what the server's chat template adds to one prompt (synthetic or traced), asked of it; null when unknown
 * @throws SweepError('preflight-refused') when the prompt plus the output cap exceeds the reported context.
 */
export function checkContext(spec: SweepSpec, context: EngineSetup['context'], templateTokens: number | null = null): void {
  if (context === null) return;
  if (spec.prompts.kind === 'sessions') {
    // A session's last turn carries the whole conversation: every message and answer before it (counted in words).
    const sizes = spec.prompts.sessions.map((s) => s.turns.reduce((a, t) => a + (t.p ?? t.text?.split(/\s+/).filter(Boolean).length ?? 0) + t.o, 0));
    const worst = sizes.reduce((a, x, i) => (x > (sizes[a] ?? 0) ? i : a), 0);
    if ((sizes[worst] ?? 0) <= context.tokens) return;
    throw new SweepError(
      'preflight-refused',
      `${spec.url}: session ${worst + 1}'s conversation grows to at least ${sizes[worst]} tokens by its last turn, beyond the server's context of ${context.tokens} tokens (${context.source}); use fewer or shorter turns, or give the server a longer context`,
    );
  }
  // A trace's prompts are built to their lengths in the server's tokens: its chat template comes on top.
  const traced = spec.prompts.kind === 'agents' || spec.prompts.kind === 'trace';
  const template = traced && templateTokens !== null ? templateTokens : 0;
  const framed = template > 0 ? `, ${template} of the server's chat template` : '';
  if (spec.prompts.kind === 'agents') {
    // Each turn's prompt is its whole context: the first turn past the server's context is named by its line.
    const file = spec.arrival.kind === 'trace' ? spec.arrival.source.file : 'the agent trace';
    for (const s of spec.prompts.sessions) {
      const k = s.turns.findIndex((t) => t.p + template + t.o > context.tokens);
      const t = s.turns[k];
      if (t) {
        throw new SweepError(
          'preflight-refused',
          `agent trace ${file}: line ${s.line}: agent ${s.name} turn ${k + 1} needs ${t.p} prompt${framed} plus ${t.o} output tokens (${t.p + template + t.o}), beyond ${spec.url}'s context of ${context.tokens} tokens (${context.source})`,
        );
      }
    }
    return;
  }
  if (spec.prompts.kind === 'trace') {
    // The trace's own lengths: its largest request must fit.
    const big = spec.prompts.requests.reduce((a, r) => (r.p + r.o > a.p + a.o ? r : a));
    if (big.p + template + big.o <= context.tokens) return;
    throw new SweepError(
      'preflight-refused',
      `${spec.url}: the trace's largest request, ${big.p} prompt${framed} plus ${big.o} output tokens (${big.p + template + big.o}), cannot fit the server's context of ${context.tokens} tokens (${context.source}); give the server a longer context`,
    );
  }
  const prompt = spec.prompts.kind === 'synthetic' ? spec.promptTokens : 0;
  const added = prompt > 0 && templateTokens !== null ? templateTokens : 0;
  const needed = prompt + added + spec.outputTokens;
  if (needed <= context.tokens) return;
  const what =
    prompt > 0
      ? `a prompt of ${prompt} tokens${added > 0 ? `, ${added} of the server's chat template` : ''} plus ${spec.outputTokens} output tokens (${needed})`
      : `an output cap of ${spec.outputTokens} tokens`;
  throw new SweepError(
    'preflight-refused',
    `${spec.url}: ${what} cannot fit the server's context of ${context.tokens} tokens (${context.source}); lower the prompt or output tokens, or give the server a longer context`,
  );
}
