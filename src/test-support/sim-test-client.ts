/**
 * A tiny SSE client for the simulator's own tests: posts a body with node's fetch,
 * stamps every SSE event with the monotonic time (ms) its bytes arrived, and keeps
 * the raw text. Not used by the product; the real client lives in src/client.
 */

/** One SSE event as received. */
export interface ReceivedEvent {
  /** performance.now() when the read that completed this event returned, ms. */
  atMs: number;
  /** The text after `data: ` (may be invalid JSON on purpose, e.g. a fault). */
  data: string;
  /** Parsed JSON, or null for `[DONE]` and unparseable data. */
  json: Record<string, unknown> | null;
}

/** A finished (or broken) streamed response. */
export interface StreamResult {
  status: number;
  contentType: string | null;
  sentMs: number;
  events: ReceivedEvent[];
  /** True when the last event was `[DONE]`. */
  done: boolean;
  /** The body read failed (socket destroyed, server died). */
  readError: string | null;
  raw: string;
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** POSTs `body` as JSON and reads the whole response as SSE. */
export async function streamPost(url: string, path: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<StreamResult> {
  const sentMs = performance.now();
  const res = await fetch(url + path, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
    signal,
  });
  const result: StreamResult = {
    status: res.status,
    contentType: res.headers.get('content-type'),
    sentMs,
    events: [],
    done: false,
    readError: null,
    raw: '',
  };
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of res.body ?? []) {
      const atMs = performance.now();
      const text = decoder.decode(chunk as Uint8Array, { stream: true });
      result.raw += text;
      buffer += text;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event.startsWith('data: ') ? event.slice(6) : event;
        result.events.push({ atMs, data, json: data === '[DONE]' ? null : parseJson(data) });
      }
    }
  } catch (err) {
    result.readError = (err as Error).message;
  }
  result.done = result.events.at(-1)?.data === '[DONE]';
  return result;
}

/** The delta (chat) or text (completions) of a chunk's first choice, if any. */
export function firstChoice(e: ReceivedEvent): Record<string, unknown> | null {
  const choices = e.json?.['choices'];
  return Array.isArray(choices) && choices.length > 0 ? (choices[0] as Record<string, unknown>) : null;
}

/** Events carrying generated text (content, reasoning or completion text). */
export function tokenEvents(r: StreamResult): ReceivedEvent[] {
  return r.events.filter((e) => {
    const c = firstChoice(e);
    if (c === null) return false;
    const d = (c['delta'] ?? {}) as Record<string, unknown>;
    const text = (d['content'] ?? '') as string;
    const reasoning = (d['reasoning_content'] ?? d['reasoning'] ?? '') as string;
    return text !== '' || reasoning !== '' || (typeof c['text'] === 'string' && c['text'] !== '');
  });
}

/** Words in a text (the simulator's tokens). */
export const words = (text: string): number => text.split(/\s+/).filter((w) => w !== '').length;

/** The p-quantile (0..1) of numbers, nearest rank. */
export function quantile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN;
}
