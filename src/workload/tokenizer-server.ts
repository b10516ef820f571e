/**
 * The server's own tokenizer through vLLM's `POST /tokenize` (also served by the
 * simulator and SGLang): exact for the model being benchmarked, with no file to
 * ship. Counts exclude special tokens (`add_special_tokens: false`).
 */
import { z } from 'zod';
import { serverRoot } from '../client/index.js';
import type { TokenCounter } from './token-counter.js';

const answerSchema = z.object({
  count: z.number().int().nonnegative().optional(),
  tokens: z.array(z.number()).optional(),
}).refine((a) => a.count !== undefined || a.tokens !== undefined);

/** `http://h:p`, `http://h:p/v1` → `http://h:p/tokenize` (a path prefix before /v1 is kept). */
export function tokenizeUrl(baseUrl: string): string {
  return `${serverRoot(baseUrl)}/tokenize`;
}

type Probe = { ok: true; count: number } | { ok: false; reason: string };

async function post(url: string, body: object, apiKey: string | undefined, timeoutMs: number): Promise<Probe> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    return { ok: false, reason: `POST ${url} failed (${(err as Error).name})` };
  }
  const text = await res.text();
  if (!res.ok) return { ok: false, reason: `POST ${url} answered HTTP ${res.status}` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: `POST ${url} did not answer JSON` };
  }
  const parsed = answerSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: `POST ${url} answered without a token count` };
  return { ok: true, count: parsed.data.count ?? parsed.data.tokens?.length ?? 0 };
}

/**
 * A counter over the server's /tokenize, or why there is none (no such route,
 * an error, an answer without a count). The route is probed once before use.
 * @param timeoutMs per call, ms (default 10 000)
 */
export async function serverCounter(
  baseUrl: string, model: string, apiKey?: string, timeoutMs = 10_000,
): Promise<{ ok: true; counter: TokenCounter } | { ok: false; reason: string }> {
  const url = tokenizeUrl(baseUrl);
  const body = (prompt: string) => ({ model, prompt, add_special_tokens: false });
  const probe = await post(url, body('hello world'), apiKey, timeoutMs);
  if (!probe.ok) return probe;
  const counter: TokenCounter = {
    info: { kind: 'server', exact: true, label: `exact: the server's tokenizer (POST ${url}, model ${model})`, sha256: null },
    count: async (text) => {
      const r = await post(url, body(text), apiKey, timeoutMs);
      if (!r.ok) throw new Error(`${r.reason} while counting prompt tokens`);
      return r.count;
    },
  };
  return { ok: true, counter };
}
