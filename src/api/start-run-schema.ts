/**
 * The body of `POST /api/runs` (the page's Start): one zod schema, a union
 * discriminated by `endpoint` (absent: chat, a text sweep), built from the
 * option catalogue's start body fields, so each field's type, default and
 * limits-table bound are the command line's. Messages name the field.
 */
import { z } from 'zod';
import {
  type AgentTraceBody,
  type BodyField,
  type ExtraHeader,
  LIMITS,
  type LoraAdapter,
  MAX_CONCURRENCY,
  RUN_KINDS,
  MAX_LEVELS,
  RUN_OPTIONS,
  type RunOption,
  START_ENDPOINTS,
  type StartEndpoint,
  kindOfEndpoint,
  limitMessage,
  refusalOf,
  secondsOf,
  limitedCount,
  limitedInt,
  optionKey,
  optionParser,
  overLimit,
  poolingSloSchema,
  startBodyFields,
  unionError,
  type RatePacing,
} from '../core/index.js';
import { extraBodyOf, headersOf } from './provider-fields.js';

const level = z
  .number({ error: 'each level must be a number' })
  .int('each level must be a whole number')
  .positive('each level must be a positive integer')
  .max(MAX_CONCURRENCY, overLimit('concurrency', 'level'));

const levels = z
  .array(level, { error: 'levels must be a list of positive integers, e.g. [1, 2, 4, 8]' })
  .min(1, 'give at least one concurrency level')
  .max(MAX_LEVELS, { error: (issue) => limitMessage('levels', Array.isArray(issue.input) ? issue.input.length : Number(issue.input), 'levels') });

const serverId = z
  .number({ error: 'serverId must be the id of a registered server' })
  .int('serverId must be a whole number')
  .positive('serverId must be positive');

/** An agent trace picked in the page: its file's name and its text, bounded in UTF-8 bytes (what the body carries). */
function agentTraceSchema(name: string) {
  return z.strictObject(
    {
      name: z
        .string({ error: `${name}.name must be the trace file's name` })
        .min(1, `${name}.name must not be empty`)
        .max(256, `${name}.name must be at most 256 characters`),
      text: z
        .string({ error: `${name}.text must be the trace's text` })
        .min(1, `${name}.text is empty: the trace file has no lines`)
        .refine((t) => Buffer.byteLength(t) <= LIMITS.agentTraceTextBytes.max, {
          error: (iss) =>
            `${name}.text holds ${Buffer.byteLength(String(iss.input))} bytes, above the limit of ${LIMITS.agentTraceTextBytes.max} ${LIMITS.agentTraceTextBytes.what}: replay it with goodput replay TRACE --save`,
        }),
    },
    {
      error: (iss) => (iss.code === 'unrecognized_keys' ? `${name}: unknown field(s): ${(iss.keys ?? []).join(', ')}` : `${name} must be {name, text} or null`),
    },
  );
}

function limitOf(o: RunOption): keyof typeof LIMITS {
  if (o.value.type !== 'number' || o.value.limit === undefined) throw new Error(`${o.flag} has no limits row for the start body`);
  return o.value.limit;
}

/** One start body field as the catalogue declares it. */
function fieldSchema(o: RunOption, f: BodyField): z.ZodType {
  const name = f.field;
  switch (f.value) {
    case 'levels':
      return levels;
    case 'count':
      return limitedInt(limitOf(o), name).default(Number(o.default));
    case 'count-or-auto':
      return z
        .union([limitedInt(limitOf(o), name), z.literal('auto')], unionError(`${name} must be a positive integer or "auto"`))
        .default(o.default === 'auto' ? 'auto' : Number(o.default));
    case 'boolean':
      return z.boolean({ error: `${name} must be true or false` }).default(o.default === 'on');
    case 'money': {
      const n = z.number({ error: `${name} must be a number` });
      const bounded =
        o.value.type === 'number' && o.value.exclusiveMin ? n.positive(`${name} must be positive`) : n.nonnegative(`${name} must not be negative`);
      return f.omitted === 'server' ? bounded.nullable().optional() : bounded.nullable().default(null);
    }
    case 'latency-slo':
      return poolingSloSchema.nullable().default(null);
    case 'agent-trace':
      return agentTraceSchema(name).nullable().default(null);
    case 'retries':
      return z
        .union([limitedCount(limitOf(o), name), z.literal('off').transform(() => 0)], unionError(`${name} must be a whole number of retries or "off"`))
        .default(Number(o.default));
    case 'seconds': {
      const limit = limitOf(o);
      return z
        .number({ error: `${name} must be a number of seconds` })
        .nonnegative(`${name} must be 0 or more`)
        .max(LIMITS[limit].max, overLimit(limit, name))
        .default(Number(o.default));
    }
    case 'parsed':
      return parsedTextOf(o, name).nullable().default(null);
    case 'optional-number':
      return numberOf(o, name).nullable().default(null);
    case 'json-object':
      return extraBodyOf(name).nullable().default(null);
    case 'headers':
      return headersOf(name).default([]);
    case 'time':
      return timeOf(o, name).nullable().default(null);
  }
}

/** The flag's own text (`rpm=60`, `sql-lora=3,chat-lora=1`), read by the parser the command line reads it with. */
function parsedTextOf(o: RunOption, name: string) {
  const parser = optionParser(optionKey(o));
  return z
    .string({ error: `${name} must be text as ${o.flag} takes it (${o.arg ?? 'text'}), or null` })
    .max(parser.maxChars, `${name} must be at most ${parser.maxChars} characters`)
    .transform((text, ctx) => {
      const parsed = parser.parse(text);
      if (parsed.ok) return parsed.value;
      ctx.addIssue({ code: 'custom', message: `${name} ${parsed.message}` });
      return z.NEVER;
    });
}

/** A number within the option's declared bounds: whole where the flag is, above or from its least, at most its own bound and its limits row. */
function numberOf(o: RunOption, name: string) {
  const v = o.value;
  if (v.type !== 'number') throw new Error(`${o.flag} is not a number option`);
  let n = z.number({ error: `${name} must be a number, or null for none` });
  if (v.integer) n = n.int(`${name} must be a whole number`);
  if (v.min !== undefined) n = v.exclusiveMin ? n.gt(v.min, `${name} must be above ${v.min}`) : n.gte(v.min, `${name} must be at least ${v.min}`);
  if (v.max !== undefined) n = n.max(v.max, `${name} must be at most ${v.max}`);
  return v.limit === undefined ? n : n.max(LIMITS[v.limit].max, overLimit(v.limit, name));
}

/** A time as its flag takes it: a number of seconds or its text ("60s", "2m"), read by the flag's own reader, within the option's limit. */
function timeOf(o: RunOption, name: string) {
  if (o.value.type !== 'seconds') throw new Error(`${o.flag} is not a time option`);
  const limit = o.value.limit;
  return z.union([z.number(), z.string()], unionError(`${name} must be a number of seconds or a time such as "60s" or "2m"`)).transform((v, ctx) => {
    const read = secondsOf(v, limit);
    if ('seconds' in read) return read.seconds;
    ctx.addIssue({ code: 'custom', message: `${name} ${read.problem}` });
    return z.NEVER;
  });
}

const strict = {
  error: (iss: { code?: string; keys?: string[] }) =>
    iss.code === 'unrecognized_keys' ? `unknown field(s): ${(iss.keys ?? []).join(', ')}` : 'the body must be a JSON object',
};

/** The body of one endpoint: serverId, the endpoint (chat's may be left out), then the catalogue's fields. */
function endpointSchema(endpoint: StartEndpoint, options: readonly RunOption[]) {
  const shape: Record<string, z.ZodType> = {
    serverId,
    endpoint: endpoint === 'chat' ? z.literal('chat').default('chat') : z.literal(endpoint),
  };
  for (const { option, field } of startBodyFields(endpoint, options)) shape[field.field] = fieldSchema(option, field);
  return z.strictObject(shape, strict);
}

/** Why a body naming an endpoint of a kind the page has no Start for (speech to text) is refused; null for any other body. */
function notStartable(input: unknown): string | null {
  const e = typeof input === 'string' ? input : (input as { endpoint?: unknown } | null | undefined)?.endpoint;
  const kind = RUN_KINDS[kindOfEndpoint(e)];
  if (typeof e !== 'string' || !kind.endpoints.includes(e) || kind.endpoints.some((x) => (START_ENDPOINTS as readonly string[]).includes(x))) return null;
  return refusalOf(kind.name, 'api-start', { endpoint: e });
}

/** The start body schema of a catalogue (the real one, or one a test extends). */
export function startRunSchemaOf(options: readonly RunOption[] = RUN_OPTIONS) {
  const [first, ...rest] = START_ENDPOINTS.map((e) => endpointSchema(e, options));
  return z.discriminatedUnion('endpoint', [first as ReturnType<typeof endpointSchema>, ...rest], {
    // The union also reports a body that is no object (invalid_type), though its issue type does not say so.
    error: (iss) => {
      const code: string = iss.code;
      if (code === 'invalid_type') return 'the body must be a JSON object';
      return code === 'invalid_union' ? (notStartable(iss.input) ?? `endpoint must be one of ${START_ENDPOINTS.join(', ')} (or left out for chat)`) : undefined;
    },
  });
}

/** A text generation run started from the page. */
export interface StartTextRunBody {
  serverId: number;
  endpoint: 'chat';
  levels: number[];
  outputTokens: number;
  thinking: boolean;
  /** Omitted: the server's registered hourly cost; null: none (no cost figure). */
  hourlyCostUsd?: number | null | undefined;
  baselineRateUsdPer1M: number | null;
  promptTokens: number;
  requestsPerLevel: number | 'auto';
  /** An agent trace to replay instead of synthetic prompts: the levels are its speeds. */
  agentTrace: AgentTraceBody | null;
  /** Each level bounded by time instead of a count, s; null: a count. */
  durationS: number | null;
  /** With a duration: seconds over which each level opens its streams; null: all at once. */
  rampUpS: number | null;
  /** Retries of a 429, 529 or 503 with Retry-After, and the most one request waits over them, s. */
  retry: number;
  retryMaxWaitS: number;
  /** Sends paced to a provider's rate limit; null: not paced. */
  rateLimit: RatePacing | null;
  /** LoRA adapters each request names one of, by weight; null: every request names the server's model. */
  lora: LoraAdapter[] | null;
  /** Requests given up on purpose: after this many ms, after this many tokens, this share of them; each null when not given. */
  cancelAfterMs: number | null;
  cancelAfterTokens: number | null;
  cancelFraction: number | null;
  extraBody: Record<string, unknown> | null;
  /** Non-secret extra headers only (a secret-looking one is refused by name). */
  headers: ExtraHeader[];
}

/** An embeddings or rerank run started from the page. */
export interface StartPoolingRunBody {
  serverId: number;
  endpoint: 'embeddings' | 'rerank';
  levels: number[];
  /** Inputs per embeddings request, or documents per rerank query. */
  itemsPerRequest: number;
  itemTokens: number;
  queryTokens: number;
  requestsPerLevel: number | 'auto';
  /** Omitted: the server's registered hourly cost; null: none. */
  hourlyCostUsd?: number | null | undefined;
  latencySlo: { p: number; maxMs: number } | null;
  /** Retries of a 429, 529 or 503 with Retry-After, and the most one request waits over them, s. */
  retry: number;
  retryMaxWaitS: number;
}

/** The start body: one union, discriminated by `endpoint`. */
export type StartRunBody = StartTextRunBody | StartPoolingRunBody;

/** `POST /api/runs`: the body of any kind of run, chosen by its `endpoint`. */
export const startRunSchema = startRunSchemaOf() as unknown as z.ZodType<StartRunBody>;
