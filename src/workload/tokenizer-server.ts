/**
 * The server's own tokenizer through its `POST /tokenize`: exact for the model
 * being benchmarked, with no file to ship. Engines differ in the body they
 * read: vLLM, SGLang and the simulator take `prompt` (and `model`), llama.cpp
 * takes `content`, TGI takes `inputs`; the first shape the server answers with
 * a count is kept for the run. Counts exclude special tokens where the engine
 * has the switch (`add_special_tokens: false`, llama.cpp `add_special: false`):
 * what the server adds itself (BOS, the chat template) is measured apart, from
 * its usage. Answers are read up to the probe limit. A shape the server does not
 * read can still answer 200: llama.cpp counts a body without `content` as
 * `{"tokens":[]}`, so a probe text must count above zero for its shape to be kept.
 */
import { request } from 'undici';
import { countOf, readBounded, serverRoot } from '../client/index.js';
import type { TokenCounter } from './token-counter.js';

/** `http://h:p`, `http://h:p/v1` → `http://h:p/tokenize` (a path prefix before /v1 is kept). */
export function tokenizeUrl(baseUrl: string): string {
  return `${serverRoot(baseUrl)}/tokenize`;
}

/** A body shape of POST /tokenize, named by the engines that read it. */
interface TokenizeShape {
  engines: string;
  body: (model: string, text: string) => object;
  /** Tokens of `text` as one user message through the server's chat template, BOS included; null when the server cannot say. */
  chat?: (ask: Ask, model: string, text: string) => Promise<number | null>;
}

/** A POST to a route beside /tokenize, answering JSON or why not. */
type Ask = (path: string, body: object) => Promise<{ ok: true; json: unknown } | { ok: false; reason: string }>;

const userMessage = (content: string) => [{ role: 'user', content }];

/** Tried in this order; the first that answers the probe text with a count above zero is used for every count of the run. */
export const TOKENIZE_SHAPES: readonly TokenizeShape[] = [
  {
    engines: 'vLLM, SGLang, goodput sim',
    body: (model, prompt) => ({ model, prompt, add_special_tokens: false }),
    // vLLM's /tokenize takes messages too and applies the model's chat template.
    chat: async (ask, model, text) => {
      const r = await ask('/tokenize', { model, messages: userMessage(text), add_generation_prompt: true });
      return r.ok ? countOf(r.json) : null;
    },
  },
  {
    engines: 'llama.cpp',
    body: (_model, content) => ({ content, add_special: false }),
    // llama.cpp renders the template with /apply-template; its markers are special tokens, so they are parsed as such.
    chat: async (ask, _model, text) => {
      const rendered = await ask('/apply-template', { messages: userMessage(text) });
      const prompt = rendered.ok && typeof rendered.json === 'object' && rendered.json !== null ? (rendered.json as { prompt?: unknown }).prompt : undefined;
      if (typeof prompt !== 'string') return null;
      const r = await ask('/tokenize', { content: prompt, add_special: true, parse_special: true });
      return r.ok ? countOf(r.json) : null;
    },
  },
  { engines: 'TGI', body: (_model, inputs) => ({ inputs, add_special_tokens: false }) },
];

type Probe = { ok: true; count: number } | { ok: false; reason: string };

/** The probe text: two words, at least one token in any tokenizer. */
const PROBE_TEXT = 'hello world';

async function post(url: string, body: object, apiKey: string | undefined, timeoutMs: number): Promise<Probe> {
  const r = await postJson(url, body, apiKey, timeoutMs);
  if (!r.ok) return r;
  const count = countOf(r.json);
  return count === null ? { ok: false, reason: `POST ${url} answered without a token count` } : { ok: true, count };
}

async function postJson(
  url: string,
  body: object,
  apiKey: string | undefined,
  timeoutMs: number,
): Promise<{ ok: true; json: unknown } | { ok: false; reason: string }> {
  try {
    const res = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await readBounded(res.body);
    if (res.statusCode < 200 || res.statusCode >= 300) return { ok: false, reason: `POST ${url} answered HTTP ${res.statusCode}` };
    if (!text.ok) return { ok: false, reason: `POST ${url} answered more than the probe limit` };
    try {
      return { ok: true, json: JSON.parse(text.text) as unknown };
    } catch {
      return { ok: false, reason: `POST ${url} did not answer JSON` };
    }
  } catch (err) {
    return { ok: false, reason: `POST ${url} failed (${(err as Error).name})` };
  }
}

/**
 * A counter over the server's /tokenize, or why there is none (no such route,
 * an error, an answer without a count in any shape). Probed once before use.
 * @param timeoutMs per call, ms (default 10 000)
 */
export async function serverCounter(
  baseUrl: string,
  model: string,
  apiKey?: string,
  timeoutMs = 10_000,
): Promise<{ ok: true; counter: TokenCounter } | { ok: false; reason: string }> {
  const url = tokenizeUrl(baseUrl);
  let first: Probe | null = null;
  for (const shape of TOKENIZE_SHAPES) {
    const answer = await post(url, shape.body(model, PROBE_TEXT), apiKey, timeoutMs);
    // Zero tokens for a non-empty text: the server read another field than the one this shape fills.
    const probe: Probe =
      answer.ok && answer.count === 0
        ? { ok: false, reason: `POST ${url} counted 0 tokens in "${PROBE_TEXT}" (it does not read the ${shape.engines} body)` }
        : answer;
    first ??= probe;
    // A route that is not there, or a server that is not answering, will not answer another shape either.
    if (!probe.ok && /HTTP 404|failed \(/.test(probe.reason)) break;
    if (!probe.ok) continue;
    const counter: TokenCounter = {
      info: { kind: 'server', exact: true, label: `exact: the server's tokenizer (POST ${url}, ${shape.engines} body, model ${model})`, sha256: null },
      count: async (text) => {
        const r = await post(url, shape.body(model, text), apiKey, timeoutMs);
        if (!r.ok) throw new Error(`${r.reason} while counting prompt tokens`);
        if (r.count === 0 && text !== '') throw new Error(`POST ${url} counted 0 tokens in a text of ${text.length} characters while counting prompt tokens`);
        return r.count;
      },
    };
    const chat = shape.chat;
    if (chat !== undefined) {
      const root = url.slice(0, -'/tokenize'.length);
      const ask: Ask = (path, body) => postJson(`${root}${path}`, body, apiKey, timeoutMs);
      counter.chatTemplateTokens = async () => {
        const [templated, plain] = await Promise.all([chat(ask, model, PROBE_TEXT), counter.count(PROBE_TEXT)]);
        // Fewer tokens with the template than without: not a count of the same text.
        return templated === null || templated < plain ? null : templated - plain;
      };
    }
    return { ok: true, counter };
  }
  return first !== null && !first.ok ? first : { ok: false, reason: `POST ${url} answered without a token count` };
}
