/**
 * The key that identifies a target server across runs, whatever spelling of
 * its URL was used: origin plus path prefix, without a trailing slash or `/v1`.
 * Two runs with the same key would contend, so only one may run at a time.
 */
export function targetKey(baseUrl: string): string {
  const u = new URL(baseUrl.trim());
  let path = u.pathname.replace(/\/+$/, '');
  if (path.endsWith('/v1')) path = path.slice(0, -3);
  return u.origin + path;
}
