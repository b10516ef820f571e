/**
 * The key that identifies a target server across runs, whatever spelling of
 * its URL was used: origin plus path prefix, without a trailing slash or `/v1`.
 * Two runs with the same key would contend, so only one may run at a time.
 */
import { serverRoot } from '../client/index.js';

/** `baseUrl` as its server root (see serverRoot), surrounding whitespace ignored. */
export function targetKey(baseUrl: string): string {
  return serverRoot(baseUrl.trim());
}
