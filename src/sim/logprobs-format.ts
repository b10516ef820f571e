/**
 * Adds logprobs to an endpoint's response format: a decorator over
 * ResponseFormat that fills each event's `logprobs` for the tokens it carries
 * (one word is one token, so a chunk's tokens are the words of its text) and,
 * for completions with `echo`, puts the prompt and its token logprobs first.
 * Shapes are vLLM's: chat `{"content":[{token, logprob, bytes, top_logprobs}]}`,
 * completions `{"text_offset", "token_logprobs", "tokens", "top_logprobs"}`,
 * where the first prompt token has `null` logprobs and the chosen token is always
 * in its `top_logprobs` map.
 */
import { contextAfter, distributionAt, logprobOf, nextContext, startContext, type LogprobsModel } from './logprobs-model.js';
import { parseLogprobsRequest, type LogprobsRequest } from './logprobs-request.js';
import type { SimProfile } from './profile-schema.js';
import type { ResponseFormat } from './response-format.js';
import { tokenize } from './tokenizer.js';

/** One position: the token there, its logprob (null: first prompt token) and the top alternatives. */
interface Position {
  token: string;
  logprob: number | null;
  top: Array<[token: string, logprob: number]> | null;
}

/** What the decorator needs to know about the request. */
export interface LogprobsContext {
  model: LogprobsModel;
  request: LogprobsRequest;
  promptWords: readonly string[];
}

const bytes = (token: string): string => `[${[...Buffer.from(token, 'utf8')].join(',')}]`;

function chatJson(positions: readonly Position[]): string {
  const entry = (token: string, logprob: number): string => `"token":${JSON.stringify(token)},"logprob":${logprob},"bytes":${bytes(token)}`;
  const items = positions.map((p) => {
    const top = (p.top ?? []).map(([t, lp]) => `{${entry(t, lp)}}`).join(',');
    return `{${entry(p.token, p.logprob ?? 0)},"top_logprobs":[${top}]}`;
  });
  return `{"content":[${items.join(',')}]}`;
}

function completionJson(positions: readonly Position[], firstOffset: number): string {
  const offsets: number[] = [];
  let offset = firstOffset;
  for (const p of positions) {
    offsets.push(offset);
    offset += p.token.length;
  }
  const tops = positions.map((p) => (p.top === null ? 'null' : JSON.stringify(Object.fromEntries(p.top))));
  return (
    `{"text_offset":[${offsets.join(',')}],"token_logprobs":[${positions.map((p) => (p.logprob === null ? 'null' : p.logprob)).join(',')}],` +
    `"tokens":${JSON.stringify(positions.map((p) => p.token))},"top_logprobs":[${tops.join(',')}]}`
  );
}

/** Wraps `inner` so its events carry logprobs as `ctx.request` asks. */
export function withLogprobs(inner: ResponseFormat, ctx: LogprobsContext): ResponseFormat {
  const { model, request } = ctx;
  const top = request.top;
  const echoing = inner.kind === 'completion' && request.echo;
  const position = (context: number, token: string): Position => {
    const d = distributionAt(model, context, token);
    const alternatives: Array<[string, number]> = d.tokens.slice(0, top ?? 0).map((t, i) => [t, d.logprobs[i] as number]);
    const logprob = logprobOf(d, token);
    // completions always name the chosen token in the map; chat lists exactly the top k
    if (inner.kind === 'completion' && !alternatives.some(([t]) => t === token)) alternatives.push([token, logprob]);
    return { token, logprob, top: alternatives };
  };
  let context = contextAfter(model.seed, ctx.promptWords);
  let charOffset = 0;
  let started = false;

  /** The logprobs JSON of the tokens in `text` (after the echoed prompt, first time), and the text to put before it. */
  const next = (text: string): { prefix: string; json: string | null } => {
    const prefix = !started && echoing ? ctx.promptWords.join(' ') : '';
    const positions: Position[] = [];
    if (top !== null && prefix !== '') {
      let c = startContext(model.seed);
      ctx.promptWords.forEach((w, i) => {
        const token = i === 0 ? w : ` ${w}`;
        positions.push(i === 0 ? { token, logprob: null, top: null } : position(c, token));
        c = nextContext(c, token);
      });
    }
    started = true;
    for (const word of tokenize(text)) {
      const token = ` ${word}`;
      if (top !== null) positions.push(position(context, token));
      context = nextContext(context, token);
    }
    if (positions.length === 0) return { prefix, json: null };
    const json = inner.kind === 'chat' ? chatJson(positions) : completionJson(positions, charOffset);
    for (const p of positions) charOffset += p.token.length;
    return { prefix, json };
  };

  // every other member (opening, usageChunk, a dialect's wire details) is the inner format's own
  return {
    ...inner,
    chunk(reasoning, answer, finish, usage) {
      const { prefix, json } = next(reasoning + answer);
      return inner.chunk(prefix + reasoning, answer, finish, usage, json);
    },
    body(reasoning, answer, finish, usage) {
      const { prefix, json } = next(reasoning + answer);
      return inner.body(prefix + reasoning, answer, finish, usage, json);
    },
  };
}

/**
 * The logprobs decorator a request asked for (identity when it asked for none),
 * or a 400 naming the field (`param: message`).
 */
export function logprobsDecorator(
  kind: 'chat' | 'completion',
  raw: unknown,
  profile: SimProfile,
  promptWords: readonly string[],
): { ok: true; wrap: (f: ResponseFormat) => ResponseFormat } | { ok: false; param: string; message: string } {
  const parsed = parseLogprobsRequest(kind, raw, profile.maxTopLogprobs);
  if (!parsed.ok) return parsed;
  const request = parsed.value;
  if (request === null) return { ok: true, wrap: (f) => f };
  const model = { seed: profile.seed, noiseSd: profile.quantizationNoise };
  return { ok: true, wrap: (f) => withLogprobs(f, { model, request, promptWords }) };
}
