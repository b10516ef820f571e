/**
 * What a gateway or router needs beside the API itself: extra headers
 * (`--header 'Name: value'`) and extra JSON merged into every request body
 * (`--extra-body`), each bounded by the limits table and checked where it
 * enters. Header values that look like secrets (a name with key, token,
 * secret, auth or cookie in it, or a long random-looking value) are sent as
 * given and never written anywhere else: results, logs and stored runs carry
 * them as `[redacted]`, as they carry a value of the extra body under a key
 * named so.
 */
import { z } from 'zod';
import { LIMITS, limitMessage } from './limits.js';

/** One extra header as sent. */
export interface ExtraHeader {
  name: string;
  value: string;
}

/** An RFC 9110 token: the characters a header name may hold. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Visible ASCII, space and tab: what a header value may hold (no CR or LF, so no header of our own is ever injected). */
const VALUE = /^[\t\x20-\x7e]*$/;

/**
 * Headers an extra header may not set: the connection's own (hop-by-hop, RFC 9110 §7.6.1), the framing goodput
 * writes itself (a second Content-Length or Host would make the request mean two things; the body is JSON and the
 * answer a stream, whatever a header says), and the request id.
 */
const REFUSED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'content-type',
  'accept',
  'host',
  'expect',
  'x-request-id',
]);

/** Whether `name` is a header name (an RFC 9110 token). */
export function isHeaderName(name: string): boolean {
  return TOKEN.test(name);
}

/** Why `name`/`value` cannot be sent as an extra header (given with `flag`), or null. */
export function headerProblem(name: string, value: string, flag = '--header'): string | null {
  if (name.length === 0) return 'has no name (write it as Name: value)';
  if (name.length > LIMITS.headerNameChars.max) return limitMessage('headerNameChars', name.length, 'name length');
  if (!TOKEN.test(name)) return `name ${JSON.stringify(name.slice(0, 64))} holds a character a header name cannot (letters, digits and !#$%&'*+.^_\`|~- only)`;
  if (REFUSED.has(name.toLowerCase())) return `${name} is set by goodput or by the connection itself, never by ${flag}`;
  if (value.length > LIMITS.headerValueChars.max) return limitMessage('headerValueChars', value.length, `${name} value length`);
  if (!VALUE.test(value)) return `the value of ${name} holds a line break or a control or non-ASCII character`;
  return null;
}

/** `Name: value` as typed → the header, or the reason it is refused. */
export function parseHeaderArg(text: string): ExtraHeader | { problem: string } {
  const colon = text.indexOf(':');
  if (colon <= 0) return { problem: `'${text.slice(0, 64)}' is not Name: value` };
  const name = text.slice(0, colon).trim();
  const value = text.slice(colon + 1).trim();
  const problem = headerProblem(name, value);
  return problem === null ? { name, value } : { problem };
}

/** Names that say the value is a credential. */
const SECRET_NAME = /key|token|secret|auth|cookie|password|passwd|credential|signature|session/i;

/** True when `value` is long and random-looking: 24+ characters without spaces drawing on letters and digits both, with little repetition. */
function looksRandom(value: string): boolean {
  if (value.length < 24 || /\s/.test(value) || !/[A-Za-z]/.test(value) || !/[0-9]/.test(value)) return false;
  const counts = new Map<string, number>();
  for (const c of value) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / value.length) * Math.log2(n / value.length);
  return bits >= 3.5;
}

/** True when a header's value must never be written down: its name names a credential, or the value looks like one. */
export function isSecretHeader(name: string, value: string): boolean {
  return SECRET_NAME.test(name) || looksRandom(value);
}

/** The marker written in place of a secret. */
export const REDACTED = '[redacted]';

/** The headers as results, logs and stored runs may carry them. */
export function redactedHeaders(headers: readonly ExtraHeader[]): ExtraHeader[] {
  return headers.map((h) => ({ name: h.name, value: isSecretHeader(h.name, h.value) ? REDACTED : h.value }));
}

/** The extra body as results may carry it: a value under a key named like a credential (at any depth) as `[redacted]`. */
export function redactedBody(body: Record<string, unknown>): Record<string, unknown> {
  const walk = (v: unknown, depth: number): unknown => {
    if (Array.isArray(v)) return depth > 32 ? REDACTED : v.map((x) => walk(x, depth + 1));
    if (typeof v !== 'object' || v === null) return v;
    if (depth > 32) return REDACTED;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, SECRET_NAME.test(k) ? REDACTED : walk(x, depth + 1)]));
  };
  return walk(body, 0) as Record<string, unknown>;
}

/** Extra headers in a spec: each checked, at most the table's count, no name twice. */
export const extraHeadersSchema = z
  .array(z.object({ name: z.string(), value: z.string() }).strict())
  .max(LIMITS.extraHeaders.max, { error: (i) => limitMessage('extraHeaders', Array.isArray(i.input) ? i.input.length : 0, 'headers') })
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    for (const h of list) {
      const problem = headerProblem(h.name, h.value);
      if (problem !== null) ctx.addIssue({ code: 'custom', message: `header ${problem}` });
      if (seen.has(h.name.toLowerCase())) ctx.addIssue({ code: 'custom', message: `header ${h.name} is given twice` });
      seen.add(h.name.toLowerCase());
    }
  });

/** Keys of a request body goodput writes itself and measures by: an extra body that changed them would change what is measured. */
const OWN_BODY_KEYS = new Set(['stream', 'model', 'messages', 'prompt', 'input']);

/** Why `body` (parsed JSON) cannot be merged into every request, or null. */
export function extraBodyProblem(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'must be a JSON object, e.g. {"priority":1}';
  const bytes = Buffer.byteLength(JSON.stringify(body));
  if (bytes > LIMITS.extraBodyBytes.max) return limitMessage('extraBodyBytes', bytes, 'size');
  const own = Object.keys(body).find((k) => OWN_BODY_KEYS.has(k));
  if (own !== undefined) return `sets ${own}, which goodput writes itself (the workload and the stream are what is measured)`;
  return null;
}

/** Extra JSON merged into every request body, checked. */
export const extraBodySchema = z.record(z.string(), z.unknown()).superRefine((body, ctx) => {
  const problem = extraBodyProblem(body);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: `extraBody ${problem}` });
});
