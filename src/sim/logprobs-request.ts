/**
 * The logprobs keys of a generation body, in vLLM's shapes: chat takes
 * `logprobs: true` + `top_logprobs: k`; completions take `logprobs: k` and
 * `echo: true` (the prompt comes back before the output, with its token logprobs).
 * A k above the profile's `maxTopLogprobs` is a 400, like vLLM's --max-logprobs.
 */
import { z } from 'zod';
import { firstProblem } from './zod-issues.js';

/** What a request asked for. `top` null: no logprobs. */
export interface LogprobsRequest {
  /** Alternatives per position (0 = only the chosen token), or null for no logprobs. */
  top: number | null;
  /** Completions only: return the prompt (and its logprobs, with `top`) before the output. */
  echo: boolean;
}

/** The request's logprobs options (null when it asked for none), or a 400 naming the field. */
export type LogprobsParse = { ok: true; value: LogprobsRequest | null } | { ok: false; param: string; message: string };

const count = z.number().int().min(0).nullish();
const chatKeys = z.looseObject({ logprobs: z.boolean().nullish(), top_logprobs: count });
const completionKeys = z.looseObject({ logprobs: count, echo: z.boolean().nullish() });

function capped(param: string, top: number, maxTop: number, echo: boolean): LogprobsParse {
  if (top > maxTop) {
    return { ok: false, param, message: `Requested ${param} of ${top}, which is greater than max allowed: ${maxTop}.` };
  }
  return { ok: true, value: { top, echo } };
}

/** Reads the logprobs keys of a body already accepted by its endpoint's schema. */
export function parseLogprobsRequest(kind: 'chat' | 'completion', raw: unknown, maxTop: number): LogprobsParse {
  if (kind === 'chat') {
    const r = chatKeys.safeParse(raw);
    if (!r.success) {
      const p = firstProblem(r.error);
      return { ok: false, param: p.field, message: p.problem };
    }
    const { logprobs, top_logprobs: top } = r.data;
    if (top != null && logprobs !== true) {
      return { ok: false, param: 'top_logprobs', message: 'when using `top_logprobs`, `logprobs` must be set to true.' };
    }
    return logprobs === true ? capped('top_logprobs', top ?? 0, maxTop, false) : { ok: true, value: null };
  }
  const r = completionKeys.safeParse(raw);
  if (!r.success) {
    const p = firstProblem(r.error);
    return { ok: false, param: p.field, message: p.problem };
  }
  const echo = r.data.echo === true;
  if (r.data.logprobs == null) return { ok: true, value: echo ? { top: null, echo } : null };
  return capped('logprobs', r.data.logprobs, maxTop, echo);
}
