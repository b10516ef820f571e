/**
 * Normalises a {@link Target} into an origin, a path prefix and request headers,
 * and provides the one function that scrubs the API key from any text we emit.
 */
import type { Target } from './types.js';
import { serverRoot } from './server-url.js';

/** A target ready for undici: `origin` for the pool, `prefix` for every path. */
export interface ResolvedTarget {
  /** `http(s)://host:port`, no trailing slash. */
  origin: string;
  /** Path before `/v1` (usually `''`), no trailing slash. */
  prefix: string;
  /** Shown to users in messages; never contains the key. */
  displayUrl: string;
  /** `Authorization` header when a key is set, else empty. */
  authHeaders: Record<string, string>;
  /** Replaces every occurrence of the API key in `text` with `[redacted]`. */
  redact: (text: string) => string;
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
  return {
    origin: url.origin,
    prefix,
    displayUrl: url.origin + prefix,
    authHeaders: key === '' ? {} : { authorization: `Bearer ${key}` },
    redact: key === '' ? (text) => text : (text) => text.split(key).join('[redacted]'),
  };
}
