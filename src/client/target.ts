/**
 * Normalises a {@link Target} into an origin, a path prefix and request headers
 * (the key in the header its API reads, then the extra headers), and provides
 * the one function that scrubs the key and every secret-looking header value
 * from any text we emit.
 */
import { isSecretHeader } from '../core/index.js';
import type { AuthStyle, Target } from './types.js';
import { serverRoot } from './server-url.js';

/** A target ready for undici: `origin` for the pool, `prefix` for every path. */
export interface ResolvedTarget {
  /** `http(s)://host:port`, no trailing slash. */
  origin: string;
  /** Path before `/v1` (usually `''`), no trailing slash. */
  prefix: string;
  /** Shown to users in messages; never contains the key. */
  displayUrl: string;
  /** The key's header when a key is set, then the extra headers. */
  authHeaders: Record<string, string>;
  /** Replaces every occurrence of the API key and of a secret header value in `text` with `[redacted]`. */
  redact: (text: string) => string;
}

/** The header that carries the key, per style. */
function keyHeader(style: AuthStyle, key: string): Record<string, string> {
  if (style === 'x-api-key') return { 'x-api-key': key };
  if (style === 'api-key') return { 'api-key': key };
  return { authorization: `Bearer ${key}` };
}

/**
 * Parses and normalises `target.baseUrl`. Accepts `http://h:p`, `http://h:p/`,
 * `http://h:p/v1`, `http://h:p/prefix/v1/`.
 * @throws TypeError with a plain message when the URL is not http(s).
 */
export function resolveTarget(target: Target): ResolvedTarget {
  let url: URL;
  try {
    url = new URL(target.baseUrl.trim());
  } catch {
    throw new TypeError(`"${target.baseUrl}" is not a valid URL; expected something like http://127.0.0.1:8000`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`"${target.baseUrl}" must start with http:// or https://`);
  }
  const prefix = serverRoot(url).slice(url.origin.length);
  const key = target.apiKey ?? '';
  const extra = target.headers ?? [];
  // A short header value is scrubbed only as the key: replacing two letters everywhere would garble every message.
  const secrets = [...(key === '' ? [] : [key]), ...extra.filter((h) => h.value.length >= 4 && isSecretHeader(h.name, h.value)).map((h) => h.value)];
  return {
    origin: url.origin,
    prefix,
    displayUrl: url.origin + prefix,
    authHeaders: { ...(key === '' ? {} : keyHeader(target.auth ?? 'bearer', key)), ...Object.fromEntries(extra.map((h) => [h.name.toLowerCase(), h.value])) },
    redact: secrets.length === 0 ? (text) => text : (text) => secrets.reduce((t, s) => t.split(s).join('[redacted]'), text),
  };
}

/** Azure OpenAI's path of a generation endpoint for its deployment. */
export function azurePath(prefix: string, target: Required<Pick<Target, 'azure'>>, endpoint: 'chat' | 'completions'): string {
  const { deployment, apiVersion } = target.azure;
  const route = endpoint === 'chat' ? 'chat/completions' : 'completions';
  return `${prefix}/openai/deployments/${encodeURIComponent(deployment)}/${route}?api-version=${encodeURIComponent(apiVersion)}`;
}
