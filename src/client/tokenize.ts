/**
 * Counts tokens with the engine's own tokenize route (vLLM/SGLang `/tokenize`,
 * TGI `/tokenize`, llama.cpp `/tokenize`, TRT-LLM `/_internal/tokenize`,
 * LMDeploy `/v1/encode`), reading any of their answer shapes. Engines without
 * one (Ollama, OpenAI) answer with the reason. Never rejects.
 */
import { Client } from 'undici';
import type { Dialect } from './dialects/types.js';
import { resolveTarget } from './target.js';
import type { Target } from './types.js';

/** A count, or why there is none. */
export type TokenCount = { ok: true; count: number } | { ok: false; reason: string };

/**
 * The token count in a tokenize answer: `count`, `length` (a non-negative whole number), or the length of `tokens`,
 * `input_ids` or a bare array (TGI's tokens); TEI answers one text with a batch of one, `[[tokens]]`, counted inside.
 */
export function countOf(json: unknown): number | null {
  if (Array.isArray(json)) return json.length === 1 && Array.isArray(json[0]) ? json[0].length : json.length;
  if (typeof json !== 'object' || json === null) return null;
  const o = json as Record<string, unknown>;
  // A count is a whole number a tokenizer could give: a server's -3, 2.5 or 1e300 is no count at all.
  for (const key of ['count', 'length']) if (typeof o[key] === 'number') return Number.isSafeInteger(o[key]) && o[key] >= 0 ? o[key] : null;
  for (const key of ['tokens', 'input_ids']) if (Array.isArray(o[key])) return (o[key] as unknown[]).length;
  return null;
}

/** POSTs `text` to the dialect's tokenize route within `timeoutMs` (default 10 000). */
export async function countTokens(target: Target, dialect: Dialect, model: string, text: string, timeoutMs = 10_000): Promise<TokenCount> {
  const route = dialect.tokenize;
  if (route === null) return { ok: false, reason: `${dialect.label} has no tokenize route` };
  const t = resolveTarget(target);
  const url = `${t.displayUrl}${route.path}`;
  const client = new Client(t.origin, { connectTimeout: timeoutMs, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  try {
    const res = await client.request({
      path: `${t.prefix}${route.path}`,
      method: 'POST',
      signal: AbortSignal.timeout(timeoutMs),
      headers: { 'content-type': 'application/json', accept: 'application/json', ...t.authHeaders },
      body: JSON.stringify(route.body(text, model)),
    });
    const body = await res.body.text();
    if (res.statusCode < 200 || res.statusCode >= 300) return { ok: false, reason: `POST ${url} answered HTTP ${res.statusCode}` };
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return { ok: false, reason: `POST ${url} did not answer JSON` };
    }
    const count = countOf(json);
    return count === null ? { ok: false, reason: `POST ${url} answered without a token count` } : { ok: true, count };
  } catch (err) {
    return { ok: false, reason: `POST ${url} failed (${(err as Error).name})` };
  } finally {
    await client.destroy();
  }
}
