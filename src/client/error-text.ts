/**
 * Turns server error payloads into short plain messages. Covers the four shapes
 * engines use: nested `{error:{message}}`, flat `{message}`, TGI
 * `{error:"…", error_type}`, Ollama `{error:"…"}` (and FastAPI `{detail}`).
 */

/** Longest message kept in a record, in characters. */
export const MAX_MESSAGE_CHARS = 300;

/** Cuts `text` to `max` characters, marking the cut with `…`. */
export function truncate(text: string, max = MAX_MESSAGE_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A one-line excerpt for messages about bad payloads (control characters shown as spaces). */
export function excerpt(text: string, max = 80): string {
  return truncate(text.replace(/\s+/g, ' ').trim(), max);
}

/** The message inside an `error` value (object with `message`, or a string), if any. */
export function messageOfError(error: unknown): string | null {
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const m = (error as Record<string, unknown>).message;
    if (typeof m === 'string') return m;
    return JSON.stringify(error);
  }
  return null;
}

/** The message of a parsed JSON error body, or null when it has no recognisable one. */
export function messageOfBody(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const o = body as Record<string, unknown>;
  if (o.error !== undefined && o.error !== null) return messageOfError(o.error);
  if (typeof o.message === 'string') return o.message;
  if (o.detail !== undefined) return typeof o.detail === 'string' ? o.detail : JSON.stringify(o.detail);
  return null;
}

/**
 * Message for a non-2xx response: the server's own message when the body is
 * JSON with one, else an excerpt of the body, else the status line.
 * Truncated to {@link MAX_MESSAGE_CHARS}.
 */
export function httpErrorMessage(status: number, statusText: string, body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const fromJson = messageOfBody(parsed);
  if (fromJson !== null && fromJson.trim() !== '') return truncate(fromJson.trim());
  const text = excerpt(body, MAX_MESSAGE_CHARS);
  const line = `HTTP ${status}${statusText ? ` ${statusText}` : ''}`;
  return text === '' ? line : truncate(`${line}: ${text}`);
}
