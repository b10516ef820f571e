/**
 * The start body's provider fields — pacing, retries, an extra body and extra
 * headers — read as the command line's `--rate-limit`, `--retry`,
 * `--retry-max-wait-s`, `--extra-body` and `--header` are, with the same
 * parsers and limits (the rate limit's text by core's option parsers, as the
 * start body schema reads every such text), and turned into the sweep spec's parts. The API takes
 * no secret in a run's settings: a header that looks like a credential, or an
 * extra body key named like one, is refused by name (the registered server's
 * key is how a page run authenticates; docs/store-and-api.md).
 */
import { z } from 'zod';
import {
  type ExtraHeader,
  LIMITS,
  type RatePacing,
  extraBodySchema,
  extraHeadersSchema,
  isSecretHeader,
  limitMessage,
  parseHeaderArg,
  redactedBody,
} from '../core/index.js';

/** A JSON object merged into every request, checked as `--extra-body` is; a key named like a credential is refused. */
export function extraBodyOf(name: string): z.ZodType<Record<string, unknown>, unknown> {
  return z
    .record(z.string(), z.unknown(), { error: `${name} must be a JSON object, e.g. {"priority":1}, or null` })
    .pipe(extraBodySchema)
    .superRefine((body, ctx) => {
      if (JSON.stringify(redactedBody(body)) !== JSON.stringify(body))
        ctx.addIssue({
          code: 'custom',
          message: `${name} holds a key named like a credential; the API takes no secret in a run's settings (send it from the command line with goodput sweep --extra-body)`,
        });
    });
}

/** `["Name: value", …]` → the headers, each checked as `--header` is; a secret-looking one is refused, naming it. */
export function headersOf(name: string): z.ZodType<ExtraHeader[], unknown> {
  const longest = LIMITS.headerNameChars.max + LIMITS.headerValueChars.max + 2;
  return z
    .array(z.string({ error: `${name} must be a list of "Name: value" texts` }).max(longest, `each of ${name} must be at most ${longest} characters`), {
      error: `${name} must be a list of "Name: value" texts`,
    })
    .max(LIMITS.extraHeaders.max, { error: (i) => limitMessage('extraHeaders', Array.isArray(i.input) ? i.input.length : 0, name) })
    .transform((texts, ctx) => {
      const headers: ExtraHeader[] = [];
      for (const text of texts) {
        const h = parseHeaderArg(text);
        if ('problem' in h) ctx.addIssue({ code: 'custom', message: `${name}: ${h.problem}` });
        else if (isSecretHeader(h.name, h.value))
          ctx.addIssue({
            code: 'custom',
            message: `${name}: ${h.name} looks like a secret (its name names a credential, or its value looks random); the API takes no secret in a run's settings: register the server with its key, or send the header from the command line with goodput sweep --header`,
          });
        else headers.push(h);
      }
      return headers;
    })
    .pipe(extraHeadersSchema);
}

/** The provider fields of a text Start body. */
export interface ProviderBody {
  retry: number;
  retryMaxWaitS: number;
  rateLimit: RatePacing | null;
  extraBody: Record<string, unknown> | null;
  headers: ExtraHeader[];
}

/** The retry policy of a Start body (any kind's): `retry` and `retryMaxWaitS` as the spec holds them. */
export function retryOf(body: Pick<ProviderBody, 'retry' | 'retryMaxWaitS'>): { retries: number; maxWaitMs: number } {
  return { retries: body.retry, maxWaitMs: body.retryMaxWaitS * 1000 };
}

/** The sweep spec's parts for a text body's provider fields. */
export function providerSpecOf(body: ProviderBody) {
  return {
    retry: retryOf(body),
    rateLimit: body.rateLimit,
    extraBody: body.extraBody,
    headers: body.headers,
  };
}
