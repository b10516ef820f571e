/**
 * Facts about a server's base URL shared by every area: where the server's
 * own routes live (its root, without `/v1`), and whether a host is this machine.
 */

/**
 * `http://h:p/prefix/v1/` → `http://h:p/prefix`: the base URL without trailing
 * slashes or a final `/v1`, where engines serve `/tokenize`, `/metrics` and the
 * like (a path prefix before `/v1`, e.g. a proxy's, is kept).
 * @throws TypeError when `baseUrl` is not a URL.
 */
export function serverRoot(baseUrl: string | URL): string {
  const u = new URL(baseUrl);
  let path = u.pathname.replace(/\/+$/, '');
  if (path.endsWith('/v1')) path = path.slice(0, -3);
  return u.origin + path;
}

/** Whether a host name (no port; IPv6 with or without brackets) is this machine: localhost, ::1 or 127.x.x.x. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}
