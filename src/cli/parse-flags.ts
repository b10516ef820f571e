/** Flag values from text to numbers, with messages that name the flag and the value. */
import { LIMITS, type LimitName, REDACTED, isHeaderName, isSecretHeader, limitMessage, urlCredentialProblem } from '../core/index.js';
import { redactDatabaseUrl } from '../store/index.js';
import { CliError, EXIT } from './exit-codes.js';

export function badFlag(flag: string, message: string): CliError {
  return new CliError(EXIT.usage, `${flag}: ${message}`);
}

/**
 * "1,2,4,8" → [1, 2, 4, 8]; every item a positive integer within the concurrency
 * limit, and no more items than the levels limit (checked before any is parsed,
 * so a huge list costs nothing).
 */
export function parseLevels(flag: string, text: string): number[] {
  const items = text.split(',').map((s) => s.trim());
  if (items.length === 0 || items.every((s) => s === '')) throw badFlag(flag, 'give at least one concurrency level, e.g. 1,2,4,8');
  if (items.length > LIMITS.levels.max) throw badFlag(flag, limitMessage('levels', items.length, 'levels'));
  // Every bad value is named at once: fixing them one run at a time is a poor way to learn the rule.
  const bad = items.filter((s) => !/^\d+$/.test(s) || Number(s) < 1);
  if (bad.length > 0) {
    const names = bad.map((s) => `'${s}'`).join(', ');
    throw badFlag(flag, `${names} ${bad.length === 1 ? 'is not a positive integer' : 'are not positive integers'} (levels look like 1,2,4,8)`);
  }
  return items.map((s) => {
    const level = Number(s);
    if (level > LIMITS.concurrency.max) throw badFlag(flag, limitMessage('concurrency', level, 'level'));
    return level;
  });
}

/** Options of {@link parseNumber}; `limit` names the row of the limits table the value must stay within. */
export interface NumberRules {
  integer?: boolean;
  min?: number;
  exclusiveMin?: boolean;
  /** A bound the value's meaning sets (a share's 1). */
  max?: number;
  limit?: LimitName;
}

export function parseNumber(flag: string, text: string, opts: NumberRules = {}): number {
  const x = Number(text);
  if (text.trim() === '' || !Number.isFinite(x)) throw badFlag(flag, `'${text}' is not a number`);
  if (opts.integer && !Number.isInteger(x)) throw badFlag(flag, `'${text}' is not a whole number`);
  if (opts.min !== undefined && (opts.exclusiveMin ? x <= opts.min : x < opts.min)) {
    throw badFlag(flag, `'${text}' must be ${opts.exclusiveMin ? 'greater than' : 'at least'} ${opts.min}`);
  }
  if (opts.max !== undefined && x > opts.max) throw badFlag(flag, `'${text}' must be at most ${opts.max}`);
  if (opts.limit !== undefined && x > LIMITS[opts.limit].max) throw badFlag(flag, limitMessage(opts.limit, x, '').trimStart());
  return x;
}

/** `--url` of a kind that sends to one server: given once, else refused (a fleet is text generation's). */
export function oneUrl(given: readonly string[], endpoint: string): string {
  if (given.length > 1)
    throw badFlag('--url', `is given ${given.length} times; --endpoint ${endpoint} sends to one server (a fleet of targets is text generation's)`);
  return parseUrl('--url', given[0] as string);
}

export function parseUrl(flag: string, text: string): string {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw badFlag(flag, `'${text}' is not a URL (e.g. http://127.0.0.1:8000)`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw badFlag(flag, `'${text}' must use http or https`);
  const secret = urlCredentialProblem(text);
  if (secret) throw badFlag(flag, secret);
  return text.replace(/\/+$/, '');
}

export function parseChoice<T extends string>(flag: string, text: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(text)) throw badFlag(flag, `'${text}' is not one of ${choices.join(', ')}`);
  return text as T;
}

/** A `--header` argument as the recorded command line shows it: the value redacted when it looks like a secret. */
export function redactHeaderArg(text: string): string {
  const colon = text.indexOf(':');
  if (colon <= 0) return text;
  const name = text.slice(0, colon).trim();
  return isSecretHeader(name, text.slice(colon + 1).trim()) ? `${name}: ${REDACTED}` : text;
}

/**
 * An `--otlp-header NAME=value` argument as the recorded command line shows it: the value always redacted. A
 * collector's headers are how a run signs in to it, and a short key under a plain name (Honeycomb's 22-character
 * `x-honeycomb-team`) looks random to no test; an argument that is not NAME=value is redacted whole.
 */
export function redactOtlpHeaderArg(text: string): string {
  const eq = text.indexOf('=');
  const name = eq <= 0 ? '' : text.slice(0, eq).trim();
  return isHeaderName(name) ? `${name}=${REDACTED}` : REDACTED;
}

/** Flags whose value is a secret, or holds one: how each is recorded. */
const SECRET_FLAGS: Readonly<Record<string, (value: string) => string>> = {
  '--api-key': () => '***',
  '--database-url': redactDatabaseUrl,
  '--header': redactHeaderArg,
  '--otlp-header': redactOtlpHeaderArg,
};

/** An argument as a shell reads it back: quoted when it holds a space. */
const quoted = (a: string): string => (/\s/.test(a) ? JSON.stringify(a) : a);

/** The command line as recorded in results: secrets replaced. */
export function redactedCommand(argv: readonly string[]): string {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const eq = a.indexOf('=');
    const flag = eq > 0 ? a.slice(0, eq) : a;
    const redact = SECRET_FLAGS[flag];
    if (redact && eq > 0) out.push(quoted(`${flag}=${redact(a.slice(eq + 1))}`));
    else if (redact && i + 1 < argv.length) out.push(a, quoted(redact(argv[++i] as string)));
    else out.push(quoted(a));
  }
  return out.join(' ');
}

/**
 * The API key from the environment. `explicit` is the variable named by
 * `--api-key-env`: unset or empty, it is a usage error naming the flag and the
 * variable (a key asked for by name is never silently dropped). Without it the
 * `fallback` variable is read, and unset or empty means no key.
 */
export function apiKeyFromEnv(explicit: string | undefined, fallback?: string): string | undefined {
  if (explicit !== undefined) {
    const value = process.env[explicit];
    if (value === undefined || value === '') throw badFlag('--api-key-env', `the variable ${explicit} is ${value === undefined ? 'not set' : 'empty'}`);
    return value;
  }
  return fallback === undefined ? undefined : process.env[fallback] || undefined;
}

/** Refuses (exit 2) any flag of `decided` the user gave: the command decides it itself, and says where it comes from. */
export function refuseGivenFlags(cmd: { getOptionValueSource(key: string): string | undefined }, decided: Readonly<Record<string, string>>): void {
  for (const [key, message] of Object.entries(decided)) {
    if (cmd.getOptionValueSource(key) === 'cli') throw new CliError(EXIT.usage, message);
  }
}
