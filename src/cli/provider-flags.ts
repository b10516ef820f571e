/**
 * The flags that reach a provider or a gateway: the key from a file
 * (`--api-key-file`), extra headers (`--header 'Name: value'`, repeatable),
 * extra body JSON (`--extra-body`), an Azure deployment (`--azure-deployment`
 * with `--api-version`) and the Messages API's `anthropic-version`. Each is
 * checked here against the limits table, naming the flag, before anything is
 * sent; the command line a result records carries secret header values as
 * `[redacted]`.
 */
import { openSync, readSync, closeSync, fstatSync } from 'node:fs';
import { LIMITS, type ExtraHeader, extraBodyProblem, limitMessage, parseHeaderArg } from '../core/index.js';
import { badFlag } from './parse-flags.js';

/** What the provider flags add to a text sweep's spec. */
export interface ProviderSpec {
  headers: ExtraHeader[];
  extraBody: Record<string, unknown> | null;
  azure: { deployment: string; apiVersion: string } | null;
  anthropicVersion?: string;
}

export interface ProviderFlags {
  header?: string[];
  extraBody?: string;
  azureDeployment?: string;
  apiVersion?: string;
  endpoint: string;
}

/** `--header` values → headers, each checked; at most the limits table's count, no name twice. */
export function headersFromFlags(given: readonly string[] | undefined): ExtraHeader[] {
  const list = given ?? [];
  if (list.length > LIMITS.extraHeaders.max) throw badFlag('--header', limitMessage('extraHeaders', list.length, 'headers'));
  const out: ExtraHeader[] = [];
  for (const text of list) {
    const h = parseHeaderArg(text);
    if ('problem' in h) throw badFlag('--header', h.problem);
    if (out.some((o) => o.name.toLowerCase() === h.name.toLowerCase())) throw badFlag('--header', `${h.name} is given twice`);
    out.push(h);
  }
  return out;
}

/** `--extra-body` → its object, checked: JSON, an object, within the limit, no key goodput writes itself. */
export function extraBodyFromFlag(text: string | undefined): Record<string, unknown> | null {
  if (text === undefined) return null;
  if (Buffer.byteLength(text) > LIMITS.extraBodyBytes.max) throw badFlag('--extra-body', limitMessage('extraBodyBytes', Buffer.byteLength(text), 'size'));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw badFlag('--extra-body', `is not JSON (${(err as Error).message})`);
  }
  const problem = extraBodyProblem(parsed);
  if (problem !== null) throw badFlag('--extra-body', problem);
  return parsed as Record<string, unknown>;
}

/** The provider flags → the spec's fields; the Azure pair goes together, and --api-version means anthropic-version on the Messages API. */
export function providerFromFlags(f: ProviderFlags): ProviderSpec {
  const out: ProviderSpec = { headers: headersFromFlags(f.header), extraBody: extraBodyFromFlag(f.extraBody), azure: null };
  if (f.azureDeployment !== undefined) {
    if (f.apiVersion === undefined) throw badFlag('--azure-deployment', 'needs --api-version (e.g. 2024-10-21): Azure refuses a request without one');
    if (f.endpoint !== 'chat' && f.endpoint !== 'completions')
      throw badFlag('--azure-deployment', `an Azure deployment serves chat and completions here, not ${f.endpoint}`);
    out.azure = { deployment: f.azureDeployment, apiVersion: f.apiVersion };
  } else if (f.apiVersion !== undefined) {
    if (f.endpoint !== 'messages') throw badFlag('--api-version', 'is the api-version of --azure-deployment, or the anthropic-version of --endpoint messages');
    out.anthropicVersion = f.apiVersion;
  }
  return out;
}

/**
 * The key in `path`: its first line, trimmed. A file past the limit, empty, or unreadable is refused naming the flag
 * (its path, never its content).
 */
export function apiKeyFromFile(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw badFlag('--api-key-file', `${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const size = fstatSync(fd).size;
    if (size > LIMITS.apiKeyFileBytes.max) throw badFlag('--api-key-file', `${path}: ${limitMessage('apiKeyFileBytes', size, 'size')}`);
    const buf = Buffer.alloc(size);
    const read = size === 0 ? 0 : readSync(fd, buf, 0, size, 0);
    const key = (buf.subarray(0, read).toString('utf8').split(/\r?\n/)[0] ?? '').trim();
    if (key === '') throw badFlag('--api-key-file', `${path} holds no key on its first line`);
    if (!/^[\x21-\x7e]+$/.test(key))
      throw badFlag('--api-key-file', `${path}: the key holds a space, a control or a non-ASCII character a header cannot carry`);
    return key;
  } finally {
    closeSync(fd);
  }
}
