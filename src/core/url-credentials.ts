/**
 * A server URL must not carry credentials: we never send them (requests go to
 * the URL's origin, the key in a header), and the URL itself is recorded in
 * results, stored runs, exports and the page.
 */

/** Query parameters that usually hold a secret. */
const SECRET_PARAMS = /^(api[-_]?key|key|token|access[-_]?token|auth|password|secret|sig|signature)$/i;

/** `text` as a URL, or null when it is not one. */
function urlOf(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** Why `text` may not be used as a server URL, or null when it may (an unparseable URL is left to the URL check). */
export function urlCredentialProblem(text: string): string | null {
  const u = urlOf(text);
  if (u === null) return null;
  if (u.username !== '' || u.password !== '')
    return 'must not contain a user name or password (give the key with --api-key-env / apiKey; it is sent as a header and never recorded)';
  const secret = [...u.searchParams.keys()].find((k) => SECRET_PARAMS.test(k));
  if (secret) return `must not carry a secret in its query (${secret}=…); give the key with --api-key-env / apiKey instead`;
  return null;
}

/**
 * `text` fit to be printed, stored or returned: user name and password and
 * every secret-looking query parameter replaced by `***`. Database URLs carry
 * their password either way (`postgres://u:pw@h/db` or `?password=`).
 * @returns null when `text` is not a URL (callers say so in their own words)
 */
export function redactUrl(text: string): string | null {
  const u = urlOf(text);
  if (u === null) return null;
  if (u.username !== '') u.username = '***';
  if (u.password !== '') u.password = '***';
  for (const k of [...u.searchParams.keys()]) if (SECRET_PARAMS.test(k) || /pass/i.test(k)) u.searchParams.set(k, '***');
  return u.toString();
}
